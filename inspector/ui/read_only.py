"""Read-only sessions (``inspector --read-only``, ``inspector serve --read-only``).

The app carries one flag, :attr:`InspectorApp.read_only`. Every action that changes something
outside the session is marked with :func:`refused_when_read_only` and its :class:`Write` kind:
in a read-only session it does nothing but say so (a notification), never half of its work.
The header shows the mode (:func:`marker`); the label session itself refuses writes too
(``LabelSession(read_only=True)``), so a path this module missed still writes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import Enum
from typing import Any, Protocol, TypeVar

from textual.dom import DOMNode

F = TypeVar("F", bound=Callable[..., Any])

MARKER = "read-only"


class Write(Enum):
    """What a read-only session refuses, with what it says."""

    RERUN = "re-runs are off"
    REQUEST = "sending requests to the sample is off"
    LABEL = "labels, evidence and adjudications are not written"
    EXPORT = "exports are off"
    SANDBOX = "stopping sandboxes is off"


class _MayBeReadOnly(Protocol):
    read_only: bool


def is_read_only(node: DOMNode) -> bool:
    """True in a read-only app (the replay-only app is never read-only)."""
    app: _MayBeReadOnly | object = node.app
    return getattr(app, "read_only", False) is True


def refuse(node: DOMNode, kind: Write) -> bool:
    """True, after telling the user, when ``kind`` is refused in this session."""
    if not is_read_only(node):
        return False
    node.app.notify(f"Read-only session: {kind.value}.", title="Read-only",
                    severity="warning", timeout=4)
    return True


def refused_when_read_only(kind: Write) -> Callable[[F], F]:
    """Decorate an action (or key handler) of a screen or widget: in a read-only session it
    only notifies the user and returns ``None``."""
    def wrap(action: F) -> F:
        @functools.wraps(action)
        def guarded(self: DOMNode, *args: Any, **kwargs: Any) -> Any:
            if refuse(self, kind):
                return None
            return action(self, *args, **kwargs)

        return guarded  # type: ignore[return-value]  # same signature as the action

    return wrap
