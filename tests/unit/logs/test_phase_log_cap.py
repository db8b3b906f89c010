"""The phase-log cap on real files: head and tail kept, a note on what was dropped, and every
reader of the log (pytest output parsing, replay, failure causes) still working."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from inspector.model.logs.levels import Level
from inspector.model.logs.phase_logs import parse_log_line
from inspector.model.suite.pytest_output import find_cause
from inspector.services.deploy.backend import Limits, pytest_rootdir
from inspector.services.deploy.java_local import _Capture
from inspector.services.logs.deployment_log import open_log_path
from inspector.services.logs.filters import LogFilter, first_error, scan
from inspector.services.logs.phase_log import CAP_NOTE, PhaseLog, SectionLog, read_output

CAP = 64 * 1024
NOTE = re.compile(r"log cap: ([\d,]+) lines \(([\d.]+ [KM]B)\) dropped here: output lines "
                  r"([\d,]+) to ([\d,]+), read between")


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _records(path: Path) -> list[tuple[str, str]]:
    return [(ln.stream, ln.text) for ln in map(parse_log_line, path.read_text().splitlines())]


def _pytest_flood(n: int) -> list[str]:
    """What a pytest run with a huge output prints: header, results, failure, summary."""
    return ["============================= test session starts ==============================",
            "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0",
            "rootdir: /repo", "collected 1 item", "",
            *(f"noise from the service, line {i} " + "." * 40 for i in range(n)),
            "=================================== FAILURES ===================================",
            "___________________________________ test_health ________________________________",
            "E   AssertionError: assert 500 == 200",
            "tests/test_service.py:9: AssertionError",
            "=========================== short test summary info ============================",
            "FAILED tests/test_service.py::test_health - AssertionError: assert 500 == 200",
            "============================== 1 failed in 12.30s =============================="]


def test_a_capped_log_keeps_head_and_tail_and_says_what_was_dropped(tmp_path: Path) -> None:
    lines = _pytest_flood(20_000)
    log = PhaseLog(tmp_path / "tests.log", CAP)
    log.meta("$ python -m pytest tests")
    for i in range(0, len(lines), 100):
        log.write_many(lines[i:i + 100])
    log.meta("pytest exited with 1")
    log.close()
    size = log.path.stat().st_size
    assert size <= CAP
    recs = _records(log.path)
    notes = [i for i, (s, t) in enumerate(recs) if s == "meta" and t.startswith(CAP_NOTE)]
    assert len(notes) == 2  # where the cap was reached, and the count (written at close)
    head, tail = recs[:notes[0]], recs[notes[1] + 1:]
    assert head[:4] == [("meta", "$ python -m pytest tests"), ("out", lines[0]),
                        ("out", lines[1]), ("out", "rootdir: /repo")]
    assert tail[-2:] == [("out", lines[-1]), ("meta", "pytest exited with 1")]
    m = NOTE.search(recs[notes[1]][1])
    assert m, recs[notes[1]][1]
    dropped, first, last = _num(m.group(1)), _num(m.group(3)), _num(m.group(4))
    total = len(lines) + 2  # the two meta lines count as output lines too
    assert dropped == log.dropped_lines == total - len(head) - len(tail) == last - first + 1
    assert first == len(head) + 1 and last == total - len(tail)
    kept = {t for _s, t in head + tail}
    dropped_texts = [t for t in lines if t not in kept]
    assert log.dropped_bytes == sum(len(t) + 1 for t in dropped_texts)
    # the readers: rootdir from the head, the cause from the tail, meta lines left out
    out = read_output(log.path)
    assert out[0] == lines[0] and out[-1] == lines[-1] and CAP_NOTE not in " ".join(out)
    assert pytest_rootdir(log) == "/repo"
    # no JUnit report: the cause is pytest's last words, from the tail
    crashed = find_cause(out, 1)
    assert crashed is not None and crashed.kind == "crashed" and crashed.text == lines[-1].strip()


def test_replay_opens_a_capped_log_and_finds_the_note_and_errors(tmp_path: Path) -> None:
    log = PhaseLog(tmp_path / "tests.log", CAP)
    lines = _pytest_flood(20_000)
    for i in range(0, len(lines), 250):
        log.write_many(lines[i:i + 250])
    log.close()
    replay = open_log_path(log.path)
    replay.index()
    notes = scan(replay, LogFilter(query=CAP_NOTE))
    assert notes is not None and len(notes) == 2
    assert all(replay.record(n).level & Level.META for n in notes)
    err = first_error(replay)
    assert err is not None
    assert replay.record(err).text in (lines[-6], lines[-5], lines[-3])  # the E / FAILED lines
    assert replay.record(len(replay) - 1).text == lines[-1]


def test_an_unclosed_capped_log_stays_under_the_cap(tmp_path: Path) -> None:
    """A crash before close() loses the tail, never the bound."""
    log = PhaseLog(tmp_path / "start.log", CAP)
    for i in range(5000):
        log.write(f"line {i} " + "z" * 80)
    assert log.capped and log.path.stat().st_size <= CAP
    assert _records(log.path)[0] == ("out", "line 0 " + "z" * 80)
    log.close()
    log.close()  # twice is fine
    log.write("after close")  # ignored
    assert "after close" not in log.path.read_text()
    assert log.path.stat().st_size <= CAP


def test_every_line_reaches_the_live_hook_even_when_dropped(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []
    log = PhaseLog(tmp_path / "tests-1.log", CAP, on_line=lambda s, t: seen.append((s, t)))
    log.meta("$ pytest")
    log.write_many([f"l{i}" * 50 for i in range(3000)], "err")
    log.close()
    assert len(seen) == 3001 and seen[0] == ("meta", "$ pytest")
    assert log.dropped_lines > 0


def test_a_real_flooding_process_is_capped(tmp_path: Path) -> None:
    """~40 MB from a real process through a real pipe into a 1 MB log."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys\nw = sys.stdout.buffer.write\nw(b'FIRST\\n')\n"
         "for i in range(400_000): w(b'flood %07d ' % i + b'x' * 90 + b'\\n')\nw(b'LAST\\n')"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = PhaseLog(tmp_path / "start.log", Limits(log_cap_mb=1).log_cap)
    pumps = [log.pump(proc.stdout, "out"), log.pump(proc.stderr, "err")]  # type: ignore[arg-type]
    t0 = time.perf_counter()
    proc.wait()
    for p in pumps:
        p.join(30)
    log.close()
    seconds = time.perf_counter() - t0
    assert log.path.stat().st_size <= 2**20
    recs = _records(log.path)
    assert recs[0] == ("out", "FIRST") and recs[-1] == ("out", "LAST")
    m = NOTE.search(next(t for _s, t in recs if NOTE.search(t)))
    assert m and _num(m.group(1)) == log.dropped_lines > 350_000
    assert seconds < 30


def test_a_section_log_is_capped_in_memory_and_flushed_with_its_note(tmp_path: Path) -> None:
    target = PhaseLog(tmp_path / "install.log", 4 * CAP)
    section = SectionLog(target.path, CAP)
    section.write_many([f"section {i} " + "s" * 60 for i in range(10_000)])
    assert section.head_bytes <= section.head_budget
    assert section._tail.size <= section.tail_budget
    target.meta("the repo's own install")
    section.flush_to(target)
    target.close()
    recs = _records(target.path)
    assert recs[0] == ("meta", "the repo's own install")
    assert recs[1] == ("out", "section 0 " + "s" * 60)
    assert recs[-1] == ("out", "section 9999 " + "s" * 60)
    assert any(s == "meta" and NOTE.search(t) for s, t in recs)
    assert target.path.stat().st_size <= 4 * CAP


def test_read_output_reads_only_the_head_and_tail_of_a_huge_log(tmp_path: Path) -> None:
    """An old, uncapped 60 MB log: the first and last lines, without parsing the middle."""
    path = tmp_path / "tests.log"
    row = "2026-01-01T00:00:00.000000+00:00\tout\tmiddle " + "m" * 100 + "\n"
    with path.open("w") as fh:
        fh.write("2026-01-01T00:00:00.000000+00:00\tout\trootdir: /repo\n")
        fh.write(row * (60 * 2**20 // len(row)))
        fh.write("2026-01-01T00:00:01.000000+00:00\tout\t=== 1 failed in 1.00s ===\n")
    t0 = time.process_time()  # CPU time: a machine loaded by other programs does not count
    out = read_output(path)
    assert time.process_time() - t0 < 2.0
    assert out[0] == "rootdir: /repo" and out[-1] == "=== 1 failed in 1.00s ==="
    assert len(out) < 10 * 2**20 // len(row) + 10


def test_maven_capture_keeps_the_start_and_the_end(tmp_path: Path) -> None:
    log = PhaseLog(tmp_path / "tests.log", CAP)
    cap = _Capture(log, keep=100)
    for i in range(10_000):
        cap.write(f"[INFO] line {i}")
    log.close()
    lines = cap.text.splitlines()
    assert len(lines) == 200
    assert lines[0] == "[INFO] line 0" and lines[99] == "[INFO] line 99"
    assert lines[100] == "[INFO] line 9900" and lines[-1] == "[INFO] line 9999"


def test_scans_read_a_giant_line_only_as_far_as_it_is_shown(tmp_path: Path) -> None:
    """Blocks for a scan stay small: a line longer than a block is clipped to what a record
    shows, lines up to that are whole, and line numbers stay right."""
    from inspector.services.logs.index import LineIndex

    path = tmp_path / "transcript.log"
    lines = [b"first", b"m" * 40_000, b"g" * (8 * 2**20), b"after", b"e" * 70_000, b"last"]
    path.write_bytes(b"\n".join(lines))  # the last line has no newline
    with LineIndex(path) as idx:
        idx.build()
        blocks = list(idx.iter_blocks(0, None, 32 * 1024, 64 * 1024 + 1))
    assert max(len(b) for _n, b in blocks) <= 64 * 1024 + 2
    got: list[tuple[int, bytes]] = []
    for first, block in blocks:
        parts = block.split(b"\n")
        if block.endswith(b"\n"):
            parts.pop()
        got += [(first + j, p) for j, p in enumerate(parts)]
    assert [n for n, _ in got] == list(range(len(lines)))
    assert got[1][1] == lines[1] and got[3][1] == b"after" and got[5][1] == b"last"
    assert got[2][1] == b"g" * (64 * 1024 + 1) and got[4][1] == b"e" * (64 * 1024 + 1)


def test_a_scan_finds_matches_in_what_a_giant_line_shows(tmp_path: Path) -> None:
    path = tmp_path / "transcript.log"
    path.write_bytes(b"ok\nERROR: early " + b"x" * (4 * 2**20) + b" ERROR: late\nfine\n"
                     + b"Traceback (most recent call last):\n")
    log = open_log_path(path)
    log.index()
    assert first_error(log) == 1
    assert list(scan(log, LogFilter(query="late")) or []) == []  # beyond what line 1 shows
    assert list(scan(log, LogFilter(query="fine")) or []) == [2]
