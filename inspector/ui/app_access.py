"""Typed access from screens, widgets and palette providers to the app's services.

``node.app`` is typed as a plain Textual ``App``; screens that the Inspector app pushes reach
its catalog, label session and deployments through :func:`inspector_app` instead of an
untyped attribute (the way Posting's screens reach ``PostingApp``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.dom import DOMNode

    from inspector.services.labels.session import LabelSession
    from inspector.ui.app import InspectorApp
    from inspector.ui.replay_app import ReplayApp


def inspector_app(node: DOMNode | Provider) -> InspectorApp:
    """The running :class:`InspectorApp`, for screens only that app pushes."""
    return cast("InspectorApp", node.app)


def label_session(node: DOMNode) -> LabelSession | None:
    """The annotator's label session, or ``None`` (labelling off, or the replay-only app)."""
    return cast("InspectorApp | ReplayApp", node.app).labels


def open_label_session(node: DOMNode) -> LabelSession:
    """The label session of a screen the app opens only while labelling is on."""
    session = inspector_app(node).labels
    if session is None:  # the app checks before pushing such a screen
        raise RuntimeError("labelling is off")
    return session
