"""The runs watcher, on a real temporary folder: debounced callbacks, ignored paths, polling."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.services.catalog import watcher as watcher_mod
from inspector.services.catalog.watcher import RunsWatcher
from inspector.services.storage.atomic import write_json_atomic

DEBOUNCE = 0.1
QUIET = 0.3  # long enough for the events of a change to arrive and a callback to fire


class Calls:
    """Counts on_change calls (from the watcher's timer threads)."""

    def __init__(self) -> None:
        self.count = 0
        self.event = threading.Event()
        self._lock = threading.Lock()

    def __call__(self) -> None:
        with self._lock:
            self.count += 1
        self.event.set()

    def wait(self, timeout: float = 2.0) -> bool:
        return self.event.wait(timeout)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "runs"
    (r / "run-a" / "samples" / "todo" / "0" / "logs").mkdir(parents=True)
    (r / ".git").mkdir()
    (r / "notes.txt").write_text("old\n")
    return r


@pytest.fixture
def watch(root: Path) -> Iterator:
    """Start a watcher on ``root`` (or another folder); stopped at the end of the test."""
    started: list[RunsWatcher] = []

    def start(on_change, folder: Path = root, **kwargs) -> RunsWatcher:
        w = RunsWatcher(folder, on_change, **{"debounce": DEBOUNCE, **kwargs})
        w.start()
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


def test_new_json_file_calls_back(root: Path, watch):
    calls = Calls()
    w = watch(calls)
    assert w.mode == "native"
    (root / "run-a" / "run.json").write_text("{}")
    assert calls.wait(2.0)


def test_json_rewritten_atomically_calls_back(root: Path, watch):
    target = root / "run-a" / "samples" / "todo" / "0" / "result.json"
    target.write_text("{}")
    calls = Calls()
    watch(calls)
    write_json_atomic(target, {"sample": 0})
    assert calls.wait(2.0)


def test_new_run_folder_calls_back(root: Path, watch):
    calls = Calls()
    watch(calls)
    (root / "run-b").mkdir()
    assert calls.wait(2.0)


def test_deleted_json_calls_back(root: Path, watch):
    target = root / "run-a" / "run.json"
    target.write_text("{}")
    calls = Calls()
    watch(calls)
    target.unlink()
    assert calls.wait(2.0)


def test_burst_of_writes_is_debounced(root: Path, watch):
    calls = Calls()
    watch(calls, debounce=0.5)
    folder = root / "run-a" / "samples"
    started = time.monotonic()
    for i in range(50):
        (folder / f"r{i}.json").write_text(json.dumps({"i": i}))
    assert time.monotonic() - started < 0.5  # the whole burst fits in the window
    assert calls.wait(2.0)
    time.sleep(0.5)
    assert 1 <= calls.count <= 3


@pytest.mark.parametrize("rel", [
    "logs/run.json",
    ".git/index.json",
    "run-a/samples/todo/0/logs/tests.json",
])
def test_changes_under_ignored_folders_do_not_call_back(root: Path, watch, rel: str):
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{}")
    calls = Calls()
    watch(calls)
    target.write_text('{"changed": true}')
    time.sleep(QUIET)
    assert calls.count == 0


def test_rewriting_a_log_does_not_call_back(root: Path, watch):
    calls = Calls()
    watch(calls)
    (root / "run-a" / "samples" / "todo" / "0" / "logs" / "tests.log").write_text("line\n")
    time.sleep(QUIET)
    assert calls.count == 0


@pytest.mark.parametrize("rel", ["run-a/samples/todo/0/junit.xml", "notes.txt"])
def test_writing_a_non_json_file_does_not_call_back(root: Path, watch, rel: str):
    calls = Calls()
    watch(calls)
    (root / rel).write_text("<testsuites/>")
    time.sleep(QUIET)
    assert calls.count == 0


def test_root_below_a_folder_with_an_ignored_name_still_reports(tmp_path: Path, watch):
    root = tmp_path / "logs" / "evals"
    root.mkdir(parents=True)
    calls = Calls()
    watch(calls, folder=root)
    (root / "run.json").write_text("{}")
    assert calls.wait(0.6)


def test_stop_cancels_a_pending_callback_and_stops_watching(root: Path, watch):
    calls = Calls()
    w = watch(calls, debounce=0.4)
    (root / "run-a" / "run.json").write_text("{}")
    deadline = time.monotonic() + 2
    while w._timer is None and time.monotonic() < deadline:  # wait for the event to arrive
        time.sleep(0.01)
    assert w._timer is not None
    time.sleep(0.1)  # and for the rest of its burst (close, folder modified)
    w.stop()
    assert w.mode == "stopped"
    (root / "run-a" / "other.json").write_text("{}")
    time.sleep(0.5)
    assert calls.count == 0


def test_stop_twice_is_harmless(root: Path, watch):
    w = watch(Calls())
    w.stop()
    w.stop()
    assert w.mode == "stopped"


class _NoInotify:
    """A native observer that fails like a system out of inotify watches."""

    instances: list[_NoInotify] = []

    def __init__(self) -> None:
        self.daemon = False
        self.stopped = False
        _NoInotify.instances.append(self)

    def schedule(self, *args, **kwargs):
        raise OSError("inotify watch limit reached")

    def start(self) -> None:  # pragma: no cover - never reached
        raise AssertionError("started after a failed schedule")

    def stop(self) -> None:
        self.stopped = True


def test_falls_back_to_polling_and_still_reports(root: Path, watch,
                                                 monkeypatch: pytest.MonkeyPatch):
    _NoInotify.instances.clear()
    monkeypatch.setattr(watcher_mod, "Observer", _NoInotify)
    calls = Calls()
    w = watch(calls, poll_interval=0.1)
    assert w.mode == "polling"
    assert "inotify watch limit reached" in (w.error or "")
    assert _NoInotify.instances and _NoInotify.instances[0].stopped
    time.sleep(0.15)  # let the poller take its first snapshot
    (root / "run-a" / "run.json").write_text("{}")
    assert calls.wait(2.0)
    w.stop()
    assert w.mode == "stopped"


def test_everything_failing_turns_watching_off(root: Path, monkeypatch: pytest.MonkeyPatch):
    class NoPolling(_NoInotify):
        def schedule(self, *args, **kwargs):
            raise OSError("no polling either")

    monkeypatch.setattr(watcher_mod, "Observer", _NoInotify)
    monkeypatch.setattr(watcher_mod, "PollingObserver", lambda timeout: NoPolling())
    w = RunsWatcher(root, Calls(), debounce=DEBOUNCE)
    assert w.start() == "off"
    assert w.mode == "off"
    assert "no polling either" in (w.error or "")
    w.stop()


def test_report_file_root_watches_its_folder(root: Path, watch):
    report = root / "report.json"
    report.write_text("{}")
    calls = Calls()
    w = watch(calls, folder=report)
    assert w.mode == "native"
    report.write_text('{"results": []}')
    assert calls.wait(2.0)
