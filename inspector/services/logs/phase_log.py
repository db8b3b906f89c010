"""Writing per-phase logs: every line gets a timestamp the moment it is read.

A phase log is capped (:data:`DEFAULT_LOG_CAP`, ``Limits.log_cap_mb``): its head goes
straight to disk until the head budget is used up; from then on only a rolling tail is kept
in memory (a bounded ring, newest lines win) and written by :meth:`PhaseLog.close`, after a
``meta`` line saying how many lines and bytes were dropped, which output lines they were and
when they were read. A flooding service therefore leaves a log of at most the cap, with the
start of its output and the end of it (pytest's summary, the last error) both present.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from inspector.model.logs.phase_logs import LogLine, format_log_line, parse_log_line
from inspector.services.logs import line_buffer
from inspector.services.logs.caps import DEFAULT_LOG_CAP_MB
from inspector.services.logs.line_buffer import MAX_LINE_CHARS, cut_note

__all__ = ["DEFAULT_LOG_CAP", "CAP_NOTE", "MAX_LINE_CHARS", "PhaseLog", "SectionLog", "now_iso",
           "read_output"]

DEFAULT_LOG_CAP = int(DEFAULT_LOG_CAP_MB * 2**20)
"""Bytes one phase log may hold on disk (head + tail + the harness's notes)."""
TAIL_SHARE = 4
"""The tail gets ``1 / TAIL_SHARE`` of the cap, the head the rest."""
NOTES_ROOM = 4096
"""Part of the cap kept for the two notes a capped log gets."""
CAP_NOTE = "log cap:"
"""How the harness's notes about a capped log start (``meta`` lines)."""
_OVERHEAD = 48
"""Bytes a stored line takes beyond its text (timestamp, stream, tabs, newline)."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _record(line: LogLine) -> bytes:
    return (format_log_line(line) + "\n").encode("utf-8", "replace")


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n / 1024:.1f} KB"


def _clock(ts: str | None) -> str:
    """``12:00:01.123`` from an ISO timestamp (as written by :func:`now_iso`)."""
    if not ts or "T" not in ts:
        return "?"
    return ts.split("T", 1)[1][:12]


class _Tail:
    """The rolling tail of a capped log: the newest lines within ``budget`` bytes (estimated
    while running, exact when written), and what fell out of it. Lines are held in the
    batches they came in (one read of a pipe), so a flood costs little per line."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        # (timestamp, stream, texts, size estimate, number of the first line)
        self.ring: deque[tuple[str | None, str, list[str], int, int]] = deque()
        self.size = 0
        self.dropped_lines = 0
        self.dropped_bytes = 0
        self.first: tuple[int, str | None] | None = None  # (line number, timestamp)
        self.last: tuple[int, str | None] | None = None

    def add(self, ts: str | None, stream: str, texts: list[str], number: int) -> None:
        """Hold a batch; older batches fall out while the rest still fills the budget (so
        the ring exceeds it by less than one batch), a single batch bigger than the budget
        loses its first lines."""
        est = sum(map(len, texts)) + _OVERHEAD * len(texts)
        self.ring.append((ts, stream, texts, est, number))
        self.size += est
        ring = self.ring
        while len(ring) > 1 and self.size - ring[0][3] >= self.budget:
            old = ring.popleft()
            self.size -= old[3]
            self._drop(old[0], old[2], old[4])
        if len(ring) == 1 and self.size > self.budget:
            ts, stream, texts, est, number = ring[0]
            k, freed, over = 0, 0, self.size - self.budget
            while k < len(texts) - 1 and freed < over:
                freed += len(texts[k]) + _OVERHEAD
                k += 1
            if k:
                self._drop(ts, texts[:k], number)
                ring[0] = (ts, stream, texts[k:], est - freed, number + k)
                self.size -= freed

    def _drop(self, ts: str | None, texts: list[str], number: int) -> None:
        if not texts:
            return
        self.dropped_lines += len(texts)
        self.dropped_bytes += sum(map(len, texts)) + len(texts)
        if self.first is None:
            self.first = (number, ts)
        self.last = (number + len(texts) - 1, ts)

    def take(self) -> list[bytes]:
        """The tail's lines, formatted, newest first fitted into the budget (older ones that
        do not fit are dropped too); the ring is emptied."""
        out: list[bytes] = []
        room = self.budget
        spill: list[tuple[str | None, list[str], int]] = []
        while self.ring:
            ts, stream, texts, _est, number = self.ring.pop()
            k = len(texts)
            while k > 0:
                data = _record(LogLine(ts, stream, texts[k - 1]))
                if len(data) > room:
                    break
                room -= len(data)
                out.append(data)
                k -= 1
            if k > 0:
                spill.append((ts, texts[:k], number))
                spill.extend((t, x, no) for t, _s, x, _e, no in reversed(self.ring))
                self.ring.clear()
        self.size = 0
        for ts, texts, number in reversed(spill):  # oldest first: first/last stay in order
            self._drop(ts, texts, number)
        out.reverse()
        return out

    def note(self, head: int, tail: int) -> LogLine:
        """The ``meta`` line standing where the dropped lines were."""
        assert self.first is not None and self.last is not None
        text = (f"{CAP_NOTE} {self.dropped_lines:,} lines ({_mb(self.dropped_bytes)}) dropped "
                f"here: output lines {self.first[0]:,} to {self.last[0]:,}, read between "
                f"{_clock(self.first[1])} and {_clock(self.last[1])} UTC; above, the first "
                f"{_mb(head)} of the output; below, the last {_mb(tail)}")
        return LogLine(self.last[1] or now_iso(), "meta", text)


LineHook = Callable[[str, str], None]
"""``(stream, text)`` for each line written, e.g. to show it live."""


class PhaseLog:
    """Append-only, thread-safe writer of one phase's log file, capped at ``cap`` bytes.

    Every writer must call :meth:`close`: a capped log's tail is written then. ``on_line``
    sees every line as it is written (capped or not).
    """

    def __init__(self, path: Path, cap: int | None = None,
                 on_line: LineHook | None = None) -> None:
        self.path = path
        self.cap = max(cap or DEFAULT_LOG_CAP, 16 * 1024)
        self.tail_budget = self.cap // TAIL_SHARE
        self.head_budget = self.cap - self.tail_budget - NOTES_ROOM
        self.on_line = on_line
        self._lock = threading.Lock()
        self.lines = 0
        self.tail: deque[str] = deque(maxlen=200)
        """The texts of the last lines written (for error messages)."""
        self.head_bytes = 0
        self.capped = False
        self._tail = _Tail(self.tail_budget)
        self._fh: IO[bytes] | None = self._open()

    def _open(self) -> IO[bytes] | None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return self.path.open("ab")

    @property
    def dropped_lines(self) -> int:
        return self._tail.dropped_lines

    @property
    def dropped_bytes(self) -> int:
        return self._tail.dropped_bytes

    def write(self, text: str, stream: str = "out") -> None:
        self.write_many([text], stream)

    def write_many(self, texts: list[str], stream: str = "out") -> None:
        """Append lines read at the same moment (one timestamp); overlong ones are cut."""
        if texts and max(map(len, texts)) > MAX_LINE_CHARS:
            keep = MAX_LINE_CHARS - line_buffer.NOTE_ROOM
            texts = [t if len(t) <= MAX_LINE_CHARS else
                     t[:keep] + cut_note(len(t) - keep, "chars") for t in texts]
        with self._lock:
            self._add(now_iso(), stream, texts)
        if self.on_line is not None:
            for text in texts:
                self.on_line(stream, text)

    def write_line(self, line: LogLine) -> None:
        """Append a line as it is (its own timestamp)."""
        with self._lock:
            self._add(line.timestamp, line.stream, [line.text])

    def _add(self, ts: str | None, stream: str, texts: list[str]) -> None:
        if self._fh is None or self._fh.closed:
            return
        number = self.lines + 1
        self.lines += len(texts)
        self.tail.extend(texts)
        if self.capped:
            self._tail.add(ts, stream, texts, number)
            return
        data = [_record(LogLine(ts, stream, t)) for t in texts]
        room = self.head_budget - self.head_bytes
        k = 0
        while k < len(data) and len(data[k]) <= room:
            room -= len(data[k])
            k += 1
        self._put(b"".join(data[:k]))
        self.head_bytes = self.head_budget - room
        if k == len(data):
            return
        self.capped = True
        self._put(_record(LogLine(
            ts, "meta",
            f"{CAP_NOTE} this log reached its cap of {_mb(self.cap)}; from here on only the "
            f"last {_mb(self.tail_budget)} of the output are kept (written when the phase "
            "ends), the lines in between are dropped")))
        self._tail.add(ts, stream, texts[k:], number + k)

    def _put(self, data: bytes) -> None:
        assert self._fh is not None
        if data:
            self._fh.write(data)
            self._fh.flush()

    def meta(self, text: str) -> None:
        self.write(text, "meta")

    def pump(self, stream: IO[bytes], name: str) -> threading.Thread:
        """Copy a process pipe into this log on a daemon thread (read in chunks, the lines of
        one read sharing its timestamp; an overlong line is cut, see :mod:`.line_buffer`)."""
        return line_buffer.pump(stream, lambda texts: self.write_many(texts, name),
                                f"pump-{self.path.stem}-{name}")

    def close(self) -> None:
        with self._lock:
            if self._fh is None or self._fh.closed:
                return
            try:
                if self.capped:
                    lines = self._tail.take()
                    if self._tail.dropped_lines:
                        lines.insert(0, _record(self._tail.note(
                            self.head_bytes, sum(len(d) for d in lines))))
                    self._fh.write(b"".join(lines))
            finally:
                self._fh.close()


def read_output(path: Path, limit: int = 200_000, head_bytes: int = 2 << 20,
                tail_bytes: int = 8 << 20) -> list[str]:
    """The out/err lines of a phase log (the harness's own meta lines left out), at most the
    last ``limit`` of them; [] when the log cannot be read.

    Reads at most ``head_bytes`` from the start and ``tail_bytes`` from the end of the file
    (pytest's header is at the start, its summary at the end), so a huge log costs no more
    than a capped one.
    """
    try:
        with path.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size <= head_bytes + tail_bytes:
                raws = fh.read().split(b"\n")
            else:
                head = fh.read(head_bytes).split(b"\n")
                head.pop()  # cut mid-line
                fh.seek(size - tail_bytes)
                tail = fh.read().split(b"\n")[1:]
                raws = head + tail
    except OSError:
        return []
    lines = (parse_log_line(raw.decode("utf-8", "replace")) for raw in raws if raw)
    return [ln.text for ln in lines if ln.stream != "meta"][-limit:]


class SectionLog(PhaseLog):
    """A log section written while another command writes the same log: its lines (each
    timestamped when read) are kept in memory and appended in one piece by :meth:`flush_to`,
    so two commands running at once never interleave their output. Held within the cap too:
    its head in memory, then a rolling tail."""

    def __init__(self, path: Path, cap: int | None = None) -> None:  # noqa: D107
        self._held: list[LogLine] = []
        super().__init__(path, cap)

    def _open(self) -> IO[bytes] | None:
        return None

    def _add(self, ts: str | None, stream: str, texts: list[str]) -> None:
        number = self.lines + 1
        self.lines += len(texts)
        self.tail.extend(texts)
        for k, text in enumerate(texts):
            size = len(text) + _OVERHEAD
            if self.capped or self.head_bytes + size > self.head_budget:
                self.capped = True
                self._tail.add(ts, stream, texts[k:], number + k)
                return
            self._held.append(LogLine(ts, stream, text))
            self.head_bytes += size

    def flush_to(self, log: PhaseLog) -> None:
        with self._lock:
            held, self._held = self._held, []
            tail = [LogLine(ts, stream, t) for ts, stream, texts, _e, _n in self._tail.ring
                    for t in texts]
            self._tail.ring.clear()
            note = self._tail.note(self.head_bytes, sum(len(t.text) for t in tail)) \
                if self._tail.dropped_lines else None
        with log._lock:
            for line in [*held, *([note] if note else []), *tail]:
                log._add(line.timestamp, line.stream, [line.text])

    def close(self) -> None:
        pass
