"""Line assembly from real pipes: linear time and bounded memory whatever the stream holds."""

from __future__ import annotations

import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from inspector.model.logs.phase_logs import parse_log_line
from inspector.services.logs.line_buffer import MAX_LINE_BYTES, MAX_LINE_CHARS, LineBuffer
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.sandbox.container_exec import _lines

BLOB = 50 * 2**20


def _writer(script: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)


def _lines_of(path: Path) -> list[tuple[str, str]]:
    return [(ln.stream, ln.text) for ln in map(parse_log_line, path.read_text().splitlines())]


def test_50mb_without_newline_through_a_real_pipe_is_linear_and_bounded(tmp_path: Path) -> None:
    proc = _writer("import sys\nw = sys.stdout.buffer.write\nfor _ in range(50): "
                   "w(b'y' * 2**20)\nw(b'\\nafter\\n')")
    log = PhaseLog(tmp_path / "start.log")
    tracemalloc.start()
    t0 = time.process_time()  # CPU time: a machine loaded by other programs does not count
    pump = log.pump(proc.stdout, "out")  # type: ignore[arg-type]
    proc.wait()
    pump.join(60)
    seconds = time.process_time() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    log.close()
    assert not pump.is_alive()
    # the old readline + unbounded buffer took the whole 50 MB into memory (quadratically,
    # in the sandbox path); chunked assembly holds one bounded line
    assert seconds < 3.0, f"50 MB newline-less stream took {seconds:.1f}s"
    assert peak < 4 * 2**20, f"peak {peak / 2**20:.1f} MB while reading 50 MB"
    [(stream, blob), after] = _lines_of(log.path)
    assert stream == "out" and after == ("out", "after")
    assert len(blob) <= MAX_LINE_CHARS
    assert blob == "y" * MAX_LINE_BYTES + f" … [{BLOB - MAX_LINE_BYTES} bytes cut]"
    assert log.path.stat().st_size < 2 * MAX_LINE_CHARS


def test_sandbox_exec_lines_read_a_newline_less_stream_in_bounded_memory() -> None:
    """The Docker exec path (start_exec / run_exec) splits with the same buffer."""
    proc = _writer("import sys\nw = sys.stdout.buffer.write\nfor _ in range(50): "
                   "w(b'z' * 2**20)")
    got: list[tuple[str, str]] = []
    lines = _lines(lambda s, t: got.append((s, t)), None, "err")
    tracemalloc.start()
    t0 = time.process_time()  # CPU time: a machine loaded by other programs does not count
    assert proc.stdout is not None
    while chunk := proc.stdout.read1(32 * 1024):
        lines.feed(chunk)
    lines.flush()
    seconds = time.process_time() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    proc.wait()
    assert seconds < 3.0 and peak < 4 * 2**20
    [(stream, text)] = got
    assert stream == "err" and text.endswith(f"[{BLOB - MAX_LINE_BYTES} bytes cut]")


def test_lines_match_a_plain_split_for_any_chunking() -> None:
    rng = random.Random(7)
    parts = []
    for i in range(3000):
        kind = rng.random()
        if kind < 0.05:
            parts.append("")
        elif kind < 0.1:
            parts.append(f"crlf {i}\r")
        elif kind < 0.15:
            parts.append("ünïcødé ✓ " * rng.randint(1, 30))
        else:
            parts.append(f"line {i} " + "x" * rng.randint(0, 300))
    data = ("\n".join(parts) + "\ntail without newline").encode()
    expected = [p.removesuffix("\r") for p in parts] + ["tail without newline"]
    for size in (1, 7, 100, 4096, 32 * 1024, len(data)):
        got: list[str] = []
        buf = LineBuffer(got.extend)
        for i in range(0, len(data), size):
            buf.feed(data[i:i + size])
        buf.flush()
        assert got == expected, size
        assert buf.lines == len(expected) and buf.cut_lines == 0


def test_an_overlong_line_is_cut_at_a_character_boundary_and_counted() -> None:
    got: list[str] = []
    buf = LineBuffer(got.extend, limit=10)
    buf.feed("ab€€€€€€".encode())  # 2 + 6 * 3 = 20 bytes
    buf.feed(b"xyz\nnext\n")
    assert got == ["ab€€ … [15 bytes cut]", "next"]  # 8 of 23 bytes kept (a € is 3 bytes)
    assert (buf.cut_lines, buf.cut_bytes) == (1, 15)


def test_a_long_line_inside_one_chunk_is_cut_too() -> None:
    got: list[str] = []
    buf = LineBuffer(got.extend, limit=5)
    buf.feed(b"ok\n" + b"q" * 20 + b"\nfine\n")
    assert got == ["ok", "qqqqq … [15 bytes cut]", "fine"]
