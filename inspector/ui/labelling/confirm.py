"""Causal re-runs from the labelling queue: one at a time, in a thread worker of the item
pane's (group ``confirm``), the progress on the suggestion panel, each result kept by item key
for the suggestion to show. The worker posts :class:`ConfirmFinished` to the pane, which hands
it to :meth:`ConfirmRuns.finished`."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.message import Message
from textual.widget import Widget

from inspector.model.benchmark.task import Task
from inspector.model.failures.triage import Confirmation, Remedy
from inspector.model.results.sample import SampleResult
from inspector.services.labels.queue import QueueSample
from inspector.services.triage.engine import confirm_in
from inspector.ui.app_access import inspector_app
from inspector.ui.label_text import item_name
from inspector.ui.labelling.item import suggestion_for
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.failure_queue import QueueRow
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


class ConfirmFinished(Message, bubble=False):
    """The re-run of item ``key`` ended (``cancel`` is its event)."""

    def __init__(self, cancel: threading.Event, key: str, result: Confirmation | None,
                 error: str | None) -> None:
        super().__init__()
        self.cancel, self.key, self.result, self.error = cancel, key, result, error


class ConfirmRuns:
    """The re-runs of ``owner`` (a widget, which hands :class:`ConfirmFinished` to
    :meth:`finished`): ``confirm`` runs one; ``done`` is called on the event loop once one has
    finished while ``owner`` is still shown."""

    def __init__(self, owner: Widget, confirm: ConfirmFn | None,
                 panel: Callable[[], SuggestionPanel], done: Callable[[], None]) -> None:
        self.owner = owner
        self.confirm_fn = confirm
        self._panel = panel
        self._done = done
        self.results: dict[str, Confirmation] = {}  # item key -> this session's re-run
        self._samples: dict[str, QueueSample] = {}  # item key -> its sample, while re-running
        self.cancel: threading.Event | None = None  # the running one's
        self.key: str | None = None  # the item being confirmed

    def of(self, row: QueueRow) -> Confirmation | None:
        """This session's re-run of ``row``'s item (or of its group's root)."""
        conf = self.results.get(row.ref.key)
        if conf is None and row.is_member and row.root_ref is not None:
            conf = self.results.get(row.root_ref.key)  # the group's re-run
        return conf

    def request(self, row: QueueRow, loaded: QueueSample | None) -> None:
        """``r``: re-run the remedy of ``row``'s item, or say why not."""
        s = suggestion_for(row, loaded)
        remedy = s.remedy if s is not None else None
        say = self.owner.notify
        if loaded is None or loaded.sample is None:
            say("Still loading this sample.", severity="warning", timeout=3)
        elif remedy is None:
            say("No remedy to try for this item: nothing a re-run could confirm.",
                severity="warning", timeout=5)
        elif self.cancel is not None:
            say("A confirmation is already running (Esc cancels it).", severity="warning",
                timeout=4)
        elif self.confirm_fn is None:
            say("Causal re-runs are not available in this build.", severity="error", timeout=6)
        else:
            what = f"{remedy.describe()} — {item_name(row.item) if row.item else 'sample'}"
            self._samples[row.ref.key] = loaded
            self.start(remedy, loaded.sample, loaded.task, row.ref.key, what)

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
            self.owner.post_message(ConfirmFinished(cancel, key, result, error))

    def finished(self, event: ConfirmFinished) -> None:
        """A re-run ended: keep its result, decide the item's group again with it, say so on
        the panel."""
        cancel, key, result, error = event.cancel, event.key, event.result, event.error
        if self.cancel is cancel:
            self.cancel = None
            self.key = None
        if not self.owner.is_attached:
            return
        loaded = self._samples.pop(key, None)
        if result is not None and not cancel.is_set():
            self.results[key] = result
            if loaded is not None and loaded.triage is not None:
                # the outcome is evidence: the item's root and its group are decided again
                loaded.triage = confirm_in(loaded.triage, key, result)
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
