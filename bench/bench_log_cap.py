"""Line assembly before and after bounding it: throughput and peak memory, side by side.

    python bench/bench_log_cap.py [--mb 64] [--blob-mb 4 8 16] [--new-blob-mb 50 200]

Before (reproduced inline below, as the code was):

* ``old exec``: the sandbox's ``_Lines.feed`` (``buf += chunk`` then split the whole buffer),
  quadratic on a stream without newlines;
* ``old pump``: the local backend's ``iter(stream.readline, b"")`` on a real pipe, which holds
  a whole line however long it is;
* ``old log``: ``old pump`` writing each line into a phase log (timestamp, per-character
  escaping, a flush per line, no cap).

After: :class:`inspector.services.logs.line_buffer.LineBuffer` fed 32 KB reads, and
``PhaseLog.pump`` into a (capped) log. Each input is fed in 32 KB chunks (what a pipe read or
a Docker stream frame gives). Throughput is the input size over the wall time (without
tracing); peak memory is ``tracemalloc``'s peak in a second pass.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from inspector.services.logs.line_buffer import LineBuffer  # noqa: E402
from inspector.services.logs.phase_log import PhaseLog  # noqa: E402

CHUNK = 32 * 1024


# --------------------------------------------------------------------- the old code, inline

class OldLines:
    """``container_exec._Lines`` before: quadratic without newlines."""

    def __init__(self, sink: Callable[[str, str], None], stream: str) -> None:
        self.sink, self.stream, self.buf = sink, stream, b""

    def feed(self, chunk: bytes | None) -> None:
        if not chunk:
            return
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            self.sink(self.stream, line.decode("utf-8", "replace").rstrip("\r"))

    def flush(self) -> None:
        if self.buf:
            self.sink(self.stream, self.buf.decode("utf-8", "replace"))
            self.buf = b""


_ESC = {"\\": "\\\\", "\n": "\\n", "\r": "\\r"}


class OldPhaseLog:
    """``PhaseLog`` before: every line escaped per character, written and flushed, no cap."""

    def __init__(self, path: Path) -> None:
        self.fh = path.open("a", encoding="utf-8", errors="replace")
        self.lock = threading.Lock()

    def write(self, text: str, stream: str = "out") -> None:
        if len(text) > 64 * 1024:
            text = text[:64 * 1024] + f" … [{len(text) - 64 * 1024} chars cut]"
        ts = datetime.now(UTC).isoformat(timespec="microseconds")
        with self.lock:
            self.fh.write(f"{ts}\t{stream}\t" + "".join(_ESC.get(c, c) for c in text) + "\n")
            self.fh.flush()

    def pump(self, stream, name: str) -> threading.Thread:  # type: ignore[no-untyped-def]
        def run() -> None:
            for raw in iter(stream.readline, b""):
                self.write(raw.decode("utf-8", errors="replace").rstrip("\r\n"), name)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        return t

    def close(self) -> None:
        self.fh.close()


# --------------------------------------------------------------------- inputs and runners

def lines_data(mb: float) -> bytes:
    """``mb`` MB of 100-byte numbered lines (built before measuring: not counted)."""
    block = b"".join(b"line %08d " % i + b"x" * 85 + b"\n" for i in range(10_000))
    return block * max(1, int(mb * 2**20 // len(block)))


def chunks_of(data: bytes) -> Iterator[bytes]:
    """``data`` in 32 KB chunks (what a pipe read or a Docker stream frame gives)."""
    with memoryview(data) as view:
        for i in range(0, len(data), CHUNK):
            yield bytes(view[i:i + CHUNK])


def blob_input(mb: float) -> Iterator[bytes]:
    """``mb`` MB without a newline, then one."""
    chunk = b"y" * CHUNK
    for _ in range(int(mb * 2**20) // CHUNK):
        yield chunk
    yield b"\n"


def feed_old_exec(chunks: Iterator[bytes]) -> int:
    n = [0]
    lines = OldLines(lambda _s, _t: n.__setitem__(0, n[0] + 1), "out")
    for c in chunks:
        lines.feed(c)
    lines.flush()
    return n[0]


def feed_new(chunks: Iterator[bytes]) -> int:
    n = [0]
    buf = LineBuffer(lambda texts: n.__setitem__(0, n[0] + len(texts)))
    for c in chunks:
        buf.feed(c)
    buf.flush()
    return n[0]


def _through_pipe(chunks: Iterator[bytes], read: Callable[[object], int]) -> int:
    """Write ``chunks`` into a real pipe from a thread; ``read`` consumes the other end."""
    rfd, wfd = os.pipe()

    def writer() -> None:
        with os.fdopen(wfd, "wb") as w:
            for c in chunks:
                w.write(c)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    with os.fdopen(rfd, "rb") as r:
        n = read(r)
    t.join()
    return n


def feed_old_pump(chunks: Iterator[bytes]) -> int:
    def read(r) -> int:  # type: ignore[no-untyped-def]
        n = 0
        for raw in iter(r.readline, b""):
            raw.decode("utf-8", errors="replace").rstrip("\r\n")
            n += 1
        return n

    return _through_pipe(chunks, read)


def feed_new_pump(chunks: Iterator[bytes]) -> int:
    def read(r) -> int:  # type: ignore[no-untyped-def]
        n = [0]
        buf = LineBuffer(lambda texts: n.__setitem__(0, n[0] + len(texts)))
        while chunk := r.read1(CHUNK):
            buf.feed(chunk)
        buf.flush()
        return n[0]

    return _through_pipe(chunks, read)


def log_old(chunks: Iterator[bytes]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        log = OldPhaseLog(Path(tmp) / "start.log")

        def read(r) -> int:  # type: ignore[no-untyped-def]
            log.pump(r, "out").join()
            return 0

        _through_pipe(chunks, read)
        log.close()
        return (Path(tmp) / "start.log").stat().st_size


def log_new(chunks: Iterator[bytes]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        log = PhaseLog(Path(tmp) / "start.log")

        def read(r) -> int:  # type: ignore[no-untyped-def]
            log.pump(r, "out").join()
            return 0

        _through_pipe(chunks, read)
        log.close()
        return (Path(tmp) / "start.log").stat().st_size


def measure(fn: Callable[[Iterator[bytes]], int], make: Callable[[], Iterator[bytes]],
            mb: float) -> tuple[float, float, int]:
    """(MB/s, peak MB, what ``fn`` returned) of ``fn`` over a fresh input."""
    t0 = time.perf_counter()
    result = fn(make())
    seconds = time.perf_counter() - t0
    tracemalloc.start()
    fn(make())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return mb / seconds, peak / 2**20, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=64, help="MB of ordinary lines (default 64)")
    ap.add_argument("--blob-mb", type=float, nargs="+", default=[4, 8, 16],
                    help="newline-less sizes run both ways (old is quadratic: keep small)")
    ap.add_argument("--new-blob-mb", type=float, nargs="+", default=[50, 200],
                    help="newline-less sizes run with the new code only")
    args = ap.parse_args()
    rows: list[tuple[str, ...]] = []

    def row(case: str, mb: float, old: Callable[..., int] | None, new: Callable[..., int],
            make: Callable[[], Iterator[bytes]], disk: bool = False) -> None:
        o = measure(old, make, mb) if old else None
        n = measure(new, make, mb)
        rows.append((case, f"{mb:g}",
                     f"{o[0]:.1f}" if o else "-", f"{o[1]:.1f}" if o else "-",
                     f"{n[0]:.1f}", f"{n[1]:.1f}",
                     f"{o[2] / 2**20:.1f} / {n[2] / 2**20:.1f}" if disk and o else ""))
        print(*rows[-1], sep="\t", file=sys.stderr, flush=True)

    for mb in args.blob_mb:
        row("no newline, exec stream (old: _Lines)", mb, feed_old_exec, feed_new,
            lambda mb=mb: blob_input(mb))
    for mb in args.blob_mb:
        row("no newline, pipe (old: readline)", mb, feed_old_pump, feed_new_pump,
            lambda mb=mb: blob_input(mb))
    for mb in args.new_blob_mb:
        row("no newline, pipe (new only)", mb, None, feed_new_pump,
            lambda mb=mb: blob_input(mb))
    data = lines_data(args.mb)
    row("100-byte lines, exec stream", args.mb, feed_old_exec, feed_new,
        lambda: chunks_of(data))
    row("100-byte lines, pipe", args.mb, feed_old_pump, feed_new_pump,
        lambda: chunks_of(data))
    row("100-byte lines, pipe into a phase log (cap 20 MB)", args.mb, log_old, log_new,
        lambda: chunks_of(data), disk=True)

    head = ("input", "MB", "old MB/s", "old peak MB", "new MB/s", "new peak MB",
            "log on disk MB old / new")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print()
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))


if __name__ == "__main__":
    main()
