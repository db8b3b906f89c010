"""Announcing label writes: a save is announced only once it is on disk, and a failure says
so, naming the label file."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from textual.app import App

from inspector.model.labels.label_file import Label


def announce_save(app: App, saved: str) -> Callable[[Label | None, Exception | None], None]:
    """A ``done`` callback for :class:`~inspector.services.labels.session.LabelSession` writes:
    on the writer thread, it shows ``saved`` after the file is written, or the error."""

    def done(label: Label | None, error: Exception | None) -> None:
        def show() -> None:
            if error is not None:
                app.notify(f"Not saved: {error}", severity="error", timeout=12)
            else:
                app.notify(saved, timeout=3)

        with suppress(RuntimeError):  # the app has exited: nothing left to tell
            app.call_from_thread(show)

    return done
