"""The deployment log: phases from files or markers, timing, bad input, follow, filter, export."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from inspector.model.logs.levels import Level
from inspector.model.results.outcomes import Phase
from inspector.model.runs.runformat import load_run
from inspector.services.logs.deployment_log import (
    UNTIMED_LINE_SECONDS,
    NoLogError,
    locate_sample_log,
    open_log_path,
    open_sample_log,
)
from inspector.services.logs.export import export_lines
from inspector.services.logs.filters import FilterError, LogFilter, Rows, find, first_error, scan

RUN = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


def _line(t: float, stream: str, text: str) -> str:
    s = int(t)
    return f"2026-11-21T06:00:{s:02d}.{int((t - s) * 1e6):06d}+00:00\t{stream}\t{text}\n"


def _sample(sample_runs: Path, run: str, task: str):
    r = load_run(sample_runs / "runs" / run)
    run_obj = r[0] if isinstance(r, tuple) else r
    return next(s for s in run_obj.samples if s.task == task)


def _opened(log):
    log.index_head()
    assert log.index()
    return log


def test_phases_in_order_with_recorded_status(sample_runs: Path) -> None:
    s = _sample(sample_runs, RELAY, "todo-service")
    log = _opened(open_sample_log(s))
    spans = log.phases()
    assert [sp.phase for sp in spans] == [p for p in
                                          (Phase.INSTALL, Phase.START, Phase.HEALTH, Phase.TESTS)
                                          if p in s.logs]
    assert log.timed and "untimed" not in log.notices
    failed = [sp for sp in spans if sp.failed]
    assert [sp.phase for sp in failed] == [s.deployment.failed_phase]
    # spans tile the log, times never go backwards between phases
    assert sum(sp.line_count for sp in spans) == len(log)
    starts = [sp.start for sp in spans if sp.start is not None]
    assert starts == sorted(starts)
    # the failure point: the ImportError of the start phase
    err = first_error(log, phase=Phase.START)
    assert err is not None and log.record(err).text.startswith("Traceback")


def test_record_fields_and_levels(sample_runs: Path) -> None:
    s = _sample(sample_runs, RUN, "todo-service")
    log = _opened(open_sample_log(s))
    recs = log.records(0, len(log))
    assert recs[0].time == 0.0 and recs[0].stream == "meta"
    # a line's time is its own timestamp, from the log's first one
    t0 = datetime.fromisoformat(recs[0].timestamp).timestamp()
    for r in recs:
        assert r.time == pytest.approx(datetime.fromisoformat(r.timestamp).timestamp() - t0)
    # times never go backwards within a phase written by one command; the install phase
    # appends the test runner's venv output, built at the same time, as one section after the
    # repo's (harness/local.py), so its times may step back there
    for phase in (Phase.START, Phase.HEALTH, Phase.TESTS):
        times = [r.time for r in recs if r.phase is phase]
        assert times and times == sorted(times), phase
    # the phases interleave by time (the service logs while the tests run): still only the
    # install section ever steps back
    assert all(b.phase is Phase.INSTALL
               for a, b in zip(recs, recs[1:], strict=False) if b.time < a.time - 1e-6)
    failed = [r for r in recs if "::test_create_defaults FAILED" in r.text]
    assert failed and failed[0].level & Level.PYTEST and failed[0].level & Level.ERROR
    assert failed[0].phase is Phase.TESTS
    assert abs(log.duration - recs[-1].time) < 1e-9


def test_repogenesis_transcript_untimed_split_by_markers(sample_runs: Path) -> None:
    log = _opened(locate_sample_log(sample_runs / "repogenesis" / "relay", "todo-service"))
    assert not log.timed
    assert "no timestamps" in log.notices["untimed"]
    phases = [sp.phase for sp in log.phases()]
    assert phases == [Phase.START, Phase.TESTS]  # relay's install printed nothing
    assert log.record(0).text == ">>>>> DSR_START"
    assert log.time_of(40) == pytest.approx(40 * UNTIMED_LINE_SECONDS)
    tests_at = log.phase_start(Phase.TESTS)
    assert log.record(tests_at).text == ">>>>> TEST_START"
    assert log.phases()[0].failed  # relay's todo-service never started


def test_repogenesis_without_log_says_why(sample_runs: Path, tmp_path: Path) -> None:
    import shutil

    shutil.copytree(sample_runs / "repogenesis" / "relay", tmp_path / "relay")
    for p in (tmp_path / "relay").rglob("*.log"):
        p.unlink()
    with pytest.raises(NoLogError, match="keeps none"):
        locate_sample_log(tmp_path / "relay", "todo-service")


def test_unknown_task_lists_tasks(sample_runs: Path) -> None:
    with pytest.raises(NoLogError, match="todo-service"):
        locate_sample_log(sample_runs / "runs" / RUN, "nope")


def test_bad_bytes_shown_safely_with_notices(tmp_path: Path) -> None:
    p = tmp_path / "bad.log"
    p.write_bytes(
        _line(0, "out", "ok").encode()
        + b"2026-11-21T06:00:01.000000+00:00\tout\tbad \xff\xfe bytes\n"
        + b"2026-11-21T06:00:02.000000+00:00\terr\tnul \x00 here\n"
        + b"2026-11-21T06:00:03.000000+00:00\tout\t\x1b[31mred\x1b[0m \x1b]0;title\x07 \x1b[2J\n"
        + b"2026-11-21T06:00:04.000000+00:00\tout\t" + b"x" * (3 << 20) + b"\n"
        + b"2026-11-21T06:00:05.000000+00:00\tout\ttruncated final")
    log = _opened(open_log_path(p))
    recs = log.records(0, len(log))
    assert len(recs) == 6
    assert "\ufffd" in recs[1].text and recs[1].invalid_utf8
    assert "<NUL>" in recs[2].text and "\0" not in recs[2].text
    assert "\x1b" not in recs[3].text and "red" in recs[3].text and "<ESC>" in recs[3].text
    assert recs[4].cut_bytes > 2 << 20 and len(recs[4].text) < 100_000
    assert recs[5].text == "truncated final"
    assert {"utf8", "nul", "escapes", "long", "partial"} <= set(log.notices)


def test_follow_growth_rotation_deletion(tmp_path: Path) -> None:
    folder = tmp_path / "sample"
    (folder / "logs").mkdir(parents=True)
    install = folder / "logs" / "install.log"
    install.write_text(_line(0, "out", "Collecting flask"))
    log = open_log_path(folder)
    _opened(log)
    assert len(log) == 1
    with install.open("a") as fh:
        fh.write(_line(1, "out", "Successfully installed flask"))
    assert log.poll() == [] and len(log) == 2
    # a new phase file appears: the run moved on
    (folder / "logs" / "start.log").write_text(_line(2, "err", "Running on :8000"))
    assert log.poll() == ["start started"]
    assert [sp.phase for sp in log.phases()] == [Phase.INSTALL, Phase.START]
    assert len(log) == 3
    # rotation: the start log is replaced by a new file
    new = folder / "logs" / "start.new"
    new.write_text(_line(3, "err", "restarted"))
    os.replace(new, folder / "logs" / "start.log")
    events = log.poll()
    assert any("rotated" in e for e in events)
    assert log.record(len(log) - 1).text == "restarted"
    # deletion: what was read stays readable
    (folder / "logs" / "start.log").unlink()
    assert any("deleted" in e for e in log.poll())
    assert log.record(len(log) - 1).text == "restarted"
    assert "deleted" in log.notices


def _make_log(tmp_path: Path) -> Path:
    lines = [_line(0, "meta", "$ pip install -r requirements.txt"),
             _line(0.5, "out", "Collecting fastapi"),
             _line(1, "err", "WARNING: pip is old"),
             _line(2, "err", "Traceback (most recent call last):"),
             _line(2, "err", '  File "app.py", line 3, in <module>'),
             _line(2, "err", "    import jwt"),
             _line(2, "err", "ModuleNotFoundError: No module named 'jwt'"),
             _line(3, "out", "tests/test_a.py::test_one PASSED   [ 50%]"),
             _line(4, "out", "tests/test_a.py::test_two FAILED   [100%]"),
             _line(5, "out", "done Error-free")]
    p = tmp_path / "tests.log"
    p.write_text("".join(lines))
    return p


def test_search_finds_what_the_markers_show(tmp_path: Path) -> None:
    """A line shows ``<ESC>`` and ``<U+200D>`` where its bytes hold ESC and U+200D: searching
    for what is on screen finds it (the raw-bytes prefilter must not rule the line out)."""
    p = tmp_path / "marked.log"
    p.write_bytes(_line(0, "out", "plain").encode()
                  + b"2026-11-21T06:00:01.000000+00:00\tout\ttitle \x1b]0;T\x07 set\n"
                  + "2026-11-21T06:00:02.000000+00:00\tout\tZ\u200dW\n".encode())
    log = _opened(open_log_path(p))
    assert list(scan(log, LogFilter("<ESC>]0;T<BEL>"))) == [1]
    assert list(scan(log, LogFilter("bel"))) == [1]
    assert list(scan(log, LogFilter("/Z<U\\+200D>W/"))) == [2]
    assert find(log, "<ESC>", 0) == 1
    assert list(scan(log, LogFilter("plain"))) == [0]


def test_filters_by_text_regex_and_level(tmp_path: Path) -> None:
    log = _opened(open_log_path(_make_log(tmp_path)))
    assert list(scan(log, LogFilter("fastapi"))) == [1]
    assert list(scan(log, LogFilter("/test_(one|two)/"))) == [7, 8]
    # a timestamp is not text: searching the date finds nothing
    assert list(scan(log, LogFilter("2026-11"))) == []
    tb = list(scan(log, LogFilter(levels=Level.TRACEBACK)))
    assert tb == [3, 4, 5, 6]
    assert list(scan(log, LogFilter(levels=Level.WARNING))) == [2]
    errors = list(scan(log, LogFilter(levels=Level.ERROR)))
    assert 6 in errors and 8 in errors and 7 not in errors
    assert 9 in list(scan(log, LogFilter("error")))
    with pytest.raises(FilterError, match="invalid regular expression"):
        scan(log, LogFilter("/(unclosed/"))
    assert first_error(log) in (3, 6)


def test_rows_count_hidden(tmp_path: Path) -> None:
    log = _opened(open_log_path(_make_log(tmp_path)))
    rows = Rows(scan(log, LogFilter(levels=Level.PYTEST)), len(log))
    assert rows.count() == 2 and rows.hidden() == 8
    assert rows.count(8) == 1 and rows.hidden(8) == 7
    assert rows.row_at_or_before(8) == 1 and rows.line(1) == 8


def test_search_next_and_previous_wrap(tmp_path: Path) -> None:
    log = _opened(open_log_path(_make_log(tmp_path)))
    assert find(log, "test_", 0) == 7
    assert find(log, "test_", 7) == 8
    assert find(log, "test_", 8) == 7  # wraps
    assert find(log, "test_", 8, forward=False) == 7
    assert find(log, "test_", 7, forward=False) == 8  # wraps backwards
    assert find(log, "absent", 3) is None


def test_export_filtered_view_replays(tmp_path: Path) -> None:
    src = _make_log(tmp_path)
    log = _opened(open_log_path(src))
    lines = scan(log, LogFilter(levels=Level.TRACEBACK))
    out = tmp_path / "out" / "tb.log"
    assert export_lines(log, lines, out) == 4
    again = _opened(open_log_path(out))
    assert [r.text for r in again.records(0, 10)][0] == "Traceback (most recent call last):"
    assert again.timed and again.record(3).time == 0.0
    whole = tmp_path / "whole.log"
    assert export_lines(log, None, whole) == 10
    assert whole.read_bytes() == src.read_bytes()
    # cancelled: no file left behind
    assert export_lines(log, None, tmp_path / "never.log", cancelled=lambda: True) is None
    assert not (tmp_path / "never.log").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".never")]


def test_missing_log_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(NoLogError, match="no such file"):
        locate_sample_log(tmp_path / "absent.log")
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoLogError, match="no phase logs"):
        open_log_path(tmp_path / "empty")
