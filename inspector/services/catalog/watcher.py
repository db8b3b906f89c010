"""Watch a runs folder and call back (debounced) when run files appear, change or vanish."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from inspector.model.runs.progress import PROGRESS_FILE

IGNORED_PARTS = frozenset({".git", "__pycache__", "node_modules", ".venv", "venv", "logs",
                           ".pytest_cache"})


def relevant(root: Path, event_type: str, path: str, is_directory: bool) -> bool:
    """Whether an event under ``root`` can change what runs say: a JSON file, or a folder
    appearing, vanishing or moving (a run copied in or deleted). A folder merely "modified"
    (a file written in it) is not, nor is anything under logs, .git, venvs and the like, nor
    a running evaluation's ``progress.json``."""
    try:
        rel = Path(path).relative_to(root)
    except ValueError:
        return False
    if IGNORED_PARTS.intersection(rel.parts):
        return False
    if is_directory:
        return event_type in ("created", "deleted", "moved")
    # a running evaluation rewrites its progress file twice a second: not a run change
    return rel.suffix == ".json" and rel.name != PROGRESS_FILE


class RunsWatcher:
    """Calls ``on_change()`` from a background thread at most once per ``debounce`` seconds
    after JSON files (or folders) change under ``root``. Falls back to polling when the
    system's inotify watch limit is reached; ``mode`` says which is in use."""

    def __init__(self, root: Path, on_change: Callable[[], object], debounce: float = 0.4,
                 poll_interval: float = 2.0) -> None:
        self.root = root
        self.on_change = on_change
        self.debounce = debounce
        self.poll_interval = poll_interval
        self.mode = "stopped"
        self.error: str | None = None
        self._observer: BaseObserver | None = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def start(self) -> str:
        """Start watching; returns the mode ("inotify", "polling" or "off")."""
        watch_root = self.root if self.root.is_dir() else self.root.parent
        handler = _Handler(watch_root, self._poke)
        for mode, factory in (("native", Observer), ("polling", self._polling)):
            observer = factory()
            try:
                observer.schedule(handler, str(watch_root), recursive=True)
                observer.daemon = True
                observer.start()
            except OSError as exc:  # e.g. inotify watch limit reached
                self.error = f"{mode} watching failed: {exc}"
                with contextlib.suppress(Exception):
                    observer.stop()
                continue
            self._observer = observer
            self.mode = mode
            return mode
        self.mode = "off"
        return self.mode

    def _polling(self) -> PollingObserver:
        return PollingObserver(timeout=self.poll_interval)

    def _poke(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.debounce, self.on_change)
            self._timer.daemon = True
            self._timer.start()

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
        self.mode = "stopped"


class _Handler(FileSystemEventHandler):
    def __init__(self, root: Path, poke: Callable[[], object]) -> None:
        self.root = root
        self.poke = poke

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if any(p and relevant(self.root, event.event_type, os.fsdecode(p), event.is_directory)
               for p in paths):
            self.poke()
