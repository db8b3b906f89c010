"""Causal re-runs from the labelling queue: one at a time, in a thread worker of the screen's
(group ``confirm``), the progress on the suggestion panel, each result kept by item key for
the suggestion to show."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.widget import Widget

from inspector.model.benchmark.task import Task
from inspector.model.failures.triage import Confirmation, Remedy
from inspector.model.results.sample import SampleResult
from inspector.ui.app_access import inspector_app
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.suggestion_panel import SuggestionPanel, confirmation_text

ConfirmFn = Callable[..., Confirmation]
"""Tries a remedy on a fresh deployment of a sample: ``confirm(remedy, result, task, backend,
on_line=..., say=..., cancel=...)`` (:class:`~inspector.services.labels.queue.RemedyRunner`)."""


def outcome_text(key: str, cancelled: bool, result: Confirmation | None,
                 error: str | None) -> Text:
    """The progress line's last word on the re-run of item ``key``."""
    short = key.split("/", 1)[-1]
    if cancelled:
        return plain(f"Re-run of {short} cancelled: nothing to compare.")
    if result is None:
        return plain(f"Re-run of {short} failed: {error}")
    final = confirmation_text(result).split("\n")[0]
    final.truncate(len(final.plain.split(":", 1)[0]) + 1)
    final.append(f" re-run of {sanitize(short)} done (shown with its suggestion)", style="dim")
    return final


class ConfirmRuns:
    """The re-runs of ``owner`` (a screen): ``confirm`` runs one; ``done`` is called on the
    event loop once one has finished while ``owner`` is still shown."""

    def __init__(self, owner: Widget, confirm: ConfirmFn | None,
                 panel: Callable[[], SuggestionPanel], done: Callable[[], None]) -> None:
        self.owner = owner
        self.confirm_fn = confirm
        self._panel = panel
        self._done = done
        self.results: dict[str, Confirmation] = {}  # item key -> this session's re-run
        self.cancel: threading.Event | None = None  # the running one's
        self.key: str | None = None  # the item being confirmed

    def start(self, remedy: Remedy, sample: SampleResult, task: Task | None, key: str,
              what: str) -> None:
        """Start re-running ``remedy`` for item ``key`` (none runs, and ``confirm_fn`` is
        set: the screen checks)."""
        assert self.cancel is None and self.confirm_fn is not None
        cancel = threading.Event()
        self.cancel = cancel
        self.key = key
        inspector_app(self.owner).track_cancel(cancel)
        panel = self._panel()
        panel.confirming(f"confirming: {what}")
        self.owner.run_worker(partial(self._run, self.confirm_fn, panel, cancel, remedy, sample,
                                      task, key),
                              name="_confirm", group="confirm", exclusive=True, thread=True,
                              exit_on_error=False)

    def _run(self, confirm: ConfirmFn, panel: SuggestionPanel, cancel: threading.Event,
             remedy: Remedy, sample: SampleResult, task: Task | None, key: str) -> None:
        """The causal re-run (Docker, long): output lines feed the progress line."""
        app = inspector_app(self.owner)
        result: Confirmation | None = None
        error: str | None = None
        try:
            backend = app.resolve_backend()
            result = confirm(remedy, sample, task, backend, on_line=panel.feed, say=panel.feed,
                             cancel=cancel)
        except Exception as exc:  # noqa: BLE001 - shown, never crashes the app
            error = f"{type(exc).__name__}: {exc}"
        finally:
            app.track_cancel(cancel, False)
        with contextlib.suppress(RuntimeError):  # the app has gone
            app.call_from_thread(self._finished, cancel, key, result, error)

    def _finished(self, cancel: threading.Event, key: str, result: Confirmation | None,
                  error: str | None) -> None:
        if self.cancel is cancel:
            self.cancel = None
            self.key = None
        if not self.owner.is_attached:
            return
        if result is not None and not cancel.is_set():
            self.results[key] = result
        self._panel().confirmed(outcome_text(key, cancel.is_set(), result, error))
        self._done()

    def stop(self) -> bool:
        """Cancel the running re-run; ``False`` when none runs."""
        if self.cancel is None:
            return False
        if not self.cancel.is_set():
            self.cancel.set()
            self._panel().cancelling()
        else:
            self.owner.notify("Still cancelling: waiting for the sandbox to stop.", timeout=3)
        return True
