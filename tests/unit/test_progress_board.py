"""The evaluation's live progress: the board executors report to, and its ``progress.json``."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.model.runs.progress import PROGRESS_FILE, load_progress
from inspector.model.untrusted.errors import LoadError
from inspector.services.catalog.watcher import relevant
from inspector.services.evaluate.progress_board import (
    RATE_WINDOW_SECONDS,
    ProgressBoard,
    format_duration,
    summary_line,
)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def board(total: int = 4, out: Path | None = None, **kw: object) -> tuple[ProgressBoard, Clock]:
    clock = Clock()
    b = ProgressBoard("run-1", "ray", total, out=out, clock=clock, **kw)  # type: ignore[arg-type]
    for n in range(total):
        b.queued(f"t{n}/0")
    return b, clock


def test_samples_move_from_queued_to_running_on_a_node_to_done() -> None:
    b, clock = board()
    s = b.snapshot()
    assert (s.queued, s.running, s.done, s.rate_per_min, s.eta_seconds) == (4, 0, 0, None, None)
    b.started("t0/0", "hostA/1111")
    b.started("t1/0", "hostB/2222")
    s = b.snapshot()
    assert (s.queued, s.running) == (2, 2)
    assert [(f.sample, f.node) for f in s.in_flight] == [("t0/0", "hostA/1111"),
                                                        ("t1/0", "hostB/2222")]
    clock.t += 30
    b.finished("t0/0", passed=True)
    s = b.snapshot()
    assert (s.done, s.passed, s.running, s.queued) == (1, 1, 1, 2)
    nodes = {n.node: (n.running, n.done, n.passed) for n in s.nodes}
    assert nodes == {"hostA/1111": (0, 1, 1), "hostB/2222": (1, 0, 0)}
    # one sample in 30 s: 2 per minute; 3 left: 90 s
    assert s.rate_per_min == pytest.approx(2.0)
    assert s.eta_seconds == pytest.approx(90.0)
    assert s.fraction == pytest.approx(0.25)


def test_the_node_a_result_names_wins_over_the_start_notice() -> None:
    b, _ = board(1)
    b.finished("t0/0", passed=False, node="hostC/3333")  # finished before its notice came
    b.started("t0/0", "hostC/3333")  # the late notice is ignored: the sample is settled
    s = b.snapshot()
    assert (s.done, s.running, s.queued) == (1, 0, 0)
    assert [(n.node, n.done, n.running) for n in s.nodes] == [("hostC/3333", 1, 0)]


def test_an_infrastructure_failure_is_retried_then_given_up_and_counted_per_node() -> None:
    b, clock = board(2)
    b.started("t0/0", "doomed/1")
    b.retry("t0/0")
    s = b.snapshot()
    assert (s.retried, s.queued, s.running) == (1, 2, 0)
    assert [(n.node, n.infra_failures, n.running) for n in s.nodes] == [("doomed/1", 1, 0)]
    b.started("t0/0", "other/2")
    clock.t += 10
    b.gave_up("t0/0")
    s = b.snapshot()
    assert (s.infra_failed, s.done, s.running, s.queued) == (1, 0, 0, 1)
    assert s.fraction == pytest.approx(0.5)
    assert "1 infrastructure-failed" in summary_line(s) and "1 retried" in summary_line(s)


def test_the_rate_forgets_samples_older_than_its_window() -> None:
    b, clock = board(10)
    b.started("t0/0", "n")
    clock.t += 60
    b.finished("t0/0", True)
    clock.t += RATE_WINDOW_SECONDS + 1
    s = b.snapshot()
    assert s.rate_per_min is None and s.eta_seconds is None  # no sample in the window
    b.started("t1/0", "n")
    clock.t += 30
    b.finished("t1/0", True)
    assert b.snapshot().rate_per_min == pytest.approx(1 / RATE_WINDOW_SECONDS * 60)


def test_close_settles_what_ran_and_the_file_says_how_it_ended(tmp_path: Path) -> None:
    b, _ = board(3, out=tmp_path)
    b.start()
    b.started("t0/0", "n")
    b.finished("t0/0", True)
    b.started("t1/0", "n")
    b.close("cancelled")
    p = load_progress(tmp_path)
    assert p is not None
    assert (p.status, p.done, p.running, p.queued, p.finished) == ("cancelled", 1, 0, 0, True)
    assert p.driver_pid == os.getpid()
    assert "1/3 done (1 passed)" in summary_line(p)


def test_the_file_follows_the_board_and_beats_while_nothing_happens(tmp_path: Path) -> None:
    b = ProgressBoard("run-1", "local", 2, out=tmp_path, min_interval=0.05, heartbeat=0.3)
    b.queued("a/0")
    b.start()
    b.started("a/0", "here")
    deadline = time.monotonic() + 5
    while (p := load_progress(tmp_path)) is None or p.running != 1:
        assert time.monotonic() < deadline, "the start never reached the file"
        time.sleep(0.02)
    first = p.updated_at
    deadline = time.monotonic() + 5
    while (p := load_progress(tmp_path)) is not None and p.updated_at == first:
        assert time.monotonic() < deadline, "no heartbeat"
        time.sleep(0.05)
    b.close("complete")
    assert not [f for f in tmp_path.iterdir() if f.name != PROGRESS_FILE]  # no temp left


def test_a_progress_file_that_cannot_be_written_never_stops_the_evaluation(
        tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("x")
    b = ProgressBoard("run-1", "local", 1, out=blocked)
    b.queued("a/0")
    b.start()
    b.started("a/0", "here")
    b.finished("a/0", True)
    b.close("complete")
    assert b.write_error is not None and str(blocked) in b.write_error


def test_settled_listeners_hear_every_settled_sample_from_any_thread() -> None:
    b, _ = board(20)
    heard: list[int] = []
    lock = threading.Lock()

    def listen(snap: object) -> None:
        with lock:
            heard.append(1)

    b.on_settled(listen)

    def work(n: int) -> None:
        b.started(f"t{n}/0", f"node{n % 3}")
        b.finished(f"t{n}/0", n % 2 == 0)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s = b.snapshot()
    assert (s.done, s.passed, s.running, s.queued, len(heard)) == (20, 10, 0, 0, 20)
    assert sum(n.done for n in s.nodes) == 20


@pytest.mark.parametrize(("text", "field"), [
    ("{not json", ""),
    ('{"format": "other"}', "format"),
    ('{"format": "genesis-inspector/progress", "version": 9}', "version"),
    ('{"format": "genesis-inspector/progress", "version": 1, "done": -1}', "done"),
    ('{"format": "genesis-inspector/progress", "version": 1, "nodes": [{"node": "a", '
     '"done": "x"}]}', "nodes.0.done"),
    ('{"format": "genesis-inspector/progress", "version": 1, "rate_per_min": "fast"}',
     "rate_per_min"),
])
def test_a_broken_progress_file_is_one_clear_error_naming_file_and_field(
        tmp_path: Path, text: str, field: str) -> None:
    (tmp_path / PROGRESS_FILE).write_text(text)
    with pytest.raises(LoadError) as err:
        load_progress(tmp_path)
    assert str(tmp_path / PROGRESS_FILE) in str(err.value)
    assert err.value.issue.field == field
    assert "\n" not in str(err.value)


def test_no_progress_file_is_no_progress(tmp_path: Path) -> None:
    assert load_progress(tmp_path) is None


def test_the_app_does_not_reindex_for_progress_writes(tmp_path: Path) -> None:
    run = tmp_path / "runs" / "r1"
    assert not relevant(tmp_path, "modified", str(run / PROGRESS_FILE), False)
    assert relevant(tmp_path, "modified", str(run / "run.json"), False)


def test_written_progress_round_trips(tmp_path: Path) -> None:
    b, _ = board(2, out=tmp_path)
    b.started("t0/0", "n/1")
    b.write()
    raw = json.loads((tmp_path / PROGRESS_FILE).read_text())
    assert raw["format"] == "genesis-inspector/progress" and raw["in_flight"][0]["node"] == "n/1"
    loaded = load_progress(tmp_path)
    assert loaded is not None
    assert replace(loaded, updated_at="") == replace(b.snapshot(), updated_at="")


@pytest.mark.parametrize(("seconds", "text"), [
    (None, "?"), (0.4, "0s"), (45, "45s"), (200, "3m 20s"), (7500, "2h 05m")])
def test_durations_read_like_a_person_writes_them(seconds: float | None, text: str) -> None:
    assert format_duration(seconds) == text
