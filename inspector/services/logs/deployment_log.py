"""One sample's deployment log as a single, lazily read sequence of lines.

A deployment log is made of *segments*, one per phase: in our run format each phase has its
own timestamped file (``logs/install.log`` …); a RepoGenesis run has at most one untimed
container transcript (``<task>.log`` beside the per-repo result, split into phases at the
entrypoint's ``>>>>> DSR_START`` / ``>>>>> TEST_START`` markers) and the ``build_error`` text.
Lines are numbered globally across segments; nothing is read until it is shown or scanned,
so a 1 GB log costs a few hundred kilobytes of index.
"""

from __future__ import annotations

import heapq
import re
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from inspector.model import discover_runs
from inspector.model.logs.levels import Level, classify
from inspector.model.logs.phase_logs import STREAMS, unescape_text
from inspector.model.results.outcomes import PHASE_ORDER, Phase
from inspector.model.results.sample import SampleResult
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.logs.index import LineIndex, LineRead, LogOpenError
from inspector.services.logs.phase_log import CAP_NOTE

UNTIMED_LINE_SECONDS = 0.05
"""Replay pace of a log without timestamps: 20 lines per second at 1x."""

MARKERS: dict[bytes, Phase] = {
    b">>>>> DSR_START": Phase.START,
    b">>>>> TEST_START": Phase.TESTS,
}
"""RepoGenesis entrypoint markers that open a phase in an untimed container transcript."""

PHASE_LABELS = {Phase.INSTALL: "install/build", Phase.START: "start",
                Phase.HEALTH: "health check", Phase.TESTS: "tests"}

_SGR = re.compile(r"\x1b\[[0-9;:]*m")
_ISO_PREFIX = re.compile(
    r"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)\s")
_CACHE_SIZE = 4096
MERGE_LIMIT = 2_000_000
"""Phase logs that overlap in time (the server keeps logging while tests run) are
interleaved by timestamp up to this many lines; bigger logs stay phase after phase."""
_SHIFT = 40


class TextLines:
    """An in-memory text (e.g. a ``build_error`` field) with the read API of a LineIndex."""

    def __init__(self, text: str, name: str) -> None:
        self.path = Path(name)
        data = text.encode("utf-8", "replace")
        self._data = data
        self._lines = data.split(b"\n")
        if self._lines and self._lines[-1] == b"":
            self._lines.pop()
        self.complete = True
        self.partial_last_line = False
        self.has_nul = b"\0" in data

    def __len__(self) -> int:
        return len(self._lines)

    def raw(self, i: int, limit: int | None = None) -> bytes:
        data = self._lines[i].rstrip(b"\r")
        return data if limit is None else data[:limit]

    def read(self, i: int) -> LineRead:
        raw = self._lines[i].rstrip(b"\r")
        return LineRead(raw.decode("utf-8", "replace"), 0, False)

    def read_range(self, start: int, count: int) -> list[LineRead]:
        return [self.read(i) for i in range(max(0, start), min(len(self), start + count))]

    def iter_blocks(self, start_line: int = 0, end_line: int | None = None,
                    block_bytes: int = 4 << 20, clip: int | None = None
                    ) -> Iterator[tuple[int, bytes]]:
        end = len(self) if end_line is None else min(end_line, len(self))
        first, parts, size = start_line, [], 0
        for i in range(max(0, start_line), end):
            raw = self._lines[i]
            part = (raw if clip is None or len(raw) <= clip else raw[:clip]) + b"\n"
            parts.append(part)
            size += len(part)
            if size >= block_bytes:
                yield first, b"".join(parts)
                first, parts, size = i + 1, [], 0
        if parts:
            yield first, b"".join(parts)

    def build(self, progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] | None = None) -> bool:
        return True

    def index_more(self, max_bytes: int = 8 << 20) -> bool:
        return True

    def poll(self) -> str:
        return "same"

    @property
    def indexed_bytes(self) -> int:
        return len(self._data)

    @property
    def file_size(self) -> int:
        return len(self._data)

    def close(self) -> None:
        """Nothing to release."""


Source = LineIndex | TextLines


@dataclass
class Segment:
    """Lines ``start`` … ``stop`` (exclusive; ``None``: to the source's end) of one source."""

    phase: Phase | None
    label: str
    source: Source
    start: int = 0
    stop: int | None = None

    def __len__(self) -> int:
        stop = len(self.source) if self.stop is None else self.stop
        return max(0, stop - self.start)


@dataclass(frozen=True, slots=True)
class Record:
    """One log line ready to show."""

    line: int
    time: float | None
    """Seconds since the log's first timestamp (synthetic for untimed logs)."""
    stream: str
    text: str
    """Sanitised: terminal escapes and control characters made visible, colours dropped."""
    level: Level
    phase: Phase | None
    cut_bytes: int = 0
    invalid_utf8: bool = False
    timestamp: str | None = None
    """The line's own timestamp as written, when it has one."""


@dataclass(frozen=True, slots=True)
class PhaseSpan:
    """One phase on the timeline."""

    phase: Phase | None
    label: str
    first_line: int
    line_count: int
    start: float | None
    end: float | None
    status: str | None = None
    exit_code: int | None = None
    recorded_seconds: float | None = None
    failed: bool = False

    @property
    def duration(self) -> float | None:
        if self.recorded_seconds is not None:
            return self.recorded_seconds
        if self.start is None or self.end is None:
            return None
        return max(0.0, self.end - self.start)


@dataclass
class DeploymentLog:
    """The lines of one deployment, phase after phase, read lazily."""

    title: str
    segments: list[Segment]
    sample: SampleResult | None = None
    folder: Path | None = None
    """A sample folder whose ``logs/`` may still gain phase files (followed runs)."""
    notices: dict[str, str] = field(default_factory=dict)
    _formats: dict[int, str] = field(default_factory=dict)
    _cache: OrderedDict[int, Record] = field(default_factory=OrderedDict)
    _t0: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _split_done: bool = False
    _order: array[int] | None = None
    """When phases overlap in time: global line -> packed (segment index, local line)."""
    _rank: list[array[int]] | None = None
    """Per segment: local line (from the segment start) -> global line."""

    # ------------------------------------------------------------------ size and layout

    def __len__(self) -> int:
        return sum(len(s) for s in self.segments)

    @property
    def complete(self) -> bool:
        return all(s.source.complete for s in self.segments)

    @property
    def sources(self) -> list[Source]:
        out: list[Source] = []
        for s in self.segments:
            if not any(s.source is o for o in out):
                out.append(s.source)
        return out

    @property
    def size_bytes(self) -> int:
        return sum(src.file_size for src in self.sources)

    @property
    def indexed_bytes(self) -> int:
        return sum(src.indexed_bytes for src in self.sources)

    def locate(self, line: int) -> tuple[Segment, int]:
        """The segment holding global ``line`` and the line's number inside its source."""
        if line < 0:
            raise IndexError(line)
        order = self._order
        if order is not None:
            packed = order[line]
            seg = self.segments[packed >> _SHIFT]
            return seg, seg.start + (packed & ((1 << _SHIFT) - 1))
        base = 0
        for seg in self.segments:
            n = len(seg)
            if line < base + n:
                return seg, seg.start + line - base
            base += n
        raise IndexError(line)

    @property
    def interleaved(self) -> bool:
        """Whether lines of different phases are interleaved by time (see MERGE_LIMIT)."""
        return self._order is not None

    def first_line_of(self, segment: Segment) -> int:
        if self._rank is not None:
            k = self.segments.index(segment)
            return self._rank[k][0] if len(self._rank[k]) else len(self)
        base = 0
        for seg in self.segments:
            if seg is segment:
                return base
            base += len(seg)
        raise ValueError("segment not in this log")

    # ------------------------------------------------------------------ timing

    @property
    def timed(self) -> bool:
        """Whether any line carries a timestamp (decided from the start of each source)."""
        return any(self._format_of(s.source) != "untimed" for s in self.segments)

    def _format_of(self, source: Source) -> str:
        key = id(source)
        fmt = self._formats.get(key)
        if fmt is None:
            if len(source) == 0:
                return "untimed"
            sample = source.read_range(0, 20)
            if any(_parse_runformat(r.text) is not None for r in sample):
                fmt = "run"
            elif any(_ISO_PREFIX.match(r.text) for r in sample):
                fmt = "iso"
            else:
                fmt = "untimed"
            # timestamps found, or enough lines seen: final (a small followed file would
            # otherwise have its head re-read for every line shown)
            if fmt != "untimed" or source.complete or len(source) >= 20:
                self._formats[key] = fmt
        return fmt

    def _epoch0(self) -> float | None:
        if self._t0 is None:
            for seg in self.segments:
                if self._format_of(seg.source) == "untimed":
                    continue
                for r in seg.source.read_range(seg.start, min(len(seg), 50)):
                    ts, _, _ = self._split(r.text, self._format_of(seg.source))
                    t = _epoch(ts)
                    if t is not None:
                        self._t0 = t
                        return t
        return self._t0

    def time_of(self, line: int) -> float | None:
        """Seconds since the log's start at which ``line`` was written (None if unknown)."""
        return self.record(line).time

    @property
    def duration(self) -> float:
        """Seconds from the first to the last line (a best effort while still indexing)."""
        n = len(self)
        if not n:
            return 0.0
        for i in range(n - 1, max(-1, n - 200), -1):
            t = self.record(i).time
            if t is not None:
                return t
        return 0.0

    # ------------------------------------------------------------------ reading

    def record(self, line: int) -> Record:
        """The record of global ``line`` (cached)."""
        with self._lock:
            hit = self._cache.get(line)
            if hit is not None:
                self._cache.move_to_end(line)
                return hit
        seg, local = self.locate(line)
        prev = self._cached_level(line - 1)
        rec = self._make(line, seg, seg.source.read(local), prev)
        self._store(rec)
        return rec

    def records(self, start: int, count: int) -> list[Record]:
        """Records of lines ``start`` … ``start + count - 1`` (clipped), in one sequential read."""
        out: list[Record] = []
        line = max(0, start)
        end = min(len(self), start + count)
        prev = self._cached_level(line - 1)
        while line < end:
            with self._lock:
                hit = self._cache.get(line)
            if hit is not None:
                out.append(hit)
                prev = hit.level
                line += 1
                continue
            seg, local = self.locate(line)
            take = 1 if self._order is not None else min(end - line,
                                                          seg.start + len(seg) - local)
            for j, read in enumerate(seg.source.read_range(local, take)):
                rec = self._make(line + j, seg, read, prev)
                prev = rec.level
                self._store(rec)
                out.append(rec)
            line += take
        return out

    def record_from_raw(self, line: int, seg: Segment, raw: bytes,
                        max_bytes: int = 64 * 1024) -> Record:
        """The record of ``line`` from its raw bytes, already read by a scan (not cached;
        no previous-line context)."""
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        cut = max(0, len(raw) - max_bytes)
        data = raw[:max_bytes] if cut else raw
        try:
            read = LineRead(data.decode("utf-8"), cut, False)
        except UnicodeDecodeError:
            read = LineRead(data.decode("utf-8", "replace"), cut, True)
        return self._make(line, seg, read, Level.NONE)

    def _cached_level(self, line: int) -> Level:
        if line < 0:
            return Level.NONE
        with self._lock:
            hit = self._cache.get(line)
        if hit is not None:
            return hit.level
        try:
            seg, local = self.locate(line)
        except IndexError:
            return Level.NONE
        return self._make(line, seg, seg.source.read(local), Level.NONE).level

    def _store(self, rec: Record) -> None:
        with self._lock:
            self._cache[rec.line] = rec
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)

    def _split(self, text: str, fmt: str) -> tuple[str | None, str, str]:
        if fmt == "run":
            parsed = _parse_runformat(text)
            if parsed is not None:
                return parsed
        elif fmt == "iso":
            m = _ISO_PREFIX.match(text)
            if m:
                return m.group(1), "out", text[m.end():]
        return None, "out", text

    def _make(self, line: int, seg: Segment, read: LineRead, prev: Level) -> Record:
        fmt = self._format_of(seg.source)
        ts, stream, text = self._split(read.text, fmt)
        if fmt == "untimed":
            t: float | None = line * UNTIMED_LINE_SECONDS
        else:
            epoch, t0 = _epoch(ts), self._epoch0()
            t = None if epoch is None or t0 is None else epoch - t0
        if "\x1b" in text:
            stripped = _SGR.sub("", text)
            if "\x1b" in stripped:
                self.notices.setdefault(
                    "escapes", "terminal escape sequences are shown as <ESC>, not run")
            text = stripped
        if "\0" in text:
            self.notices.setdefault("nul", "NUL bytes are shown as <NUL>")
        if read.invalid_utf8:
            self.notices.setdefault("utf8", "invalid UTF-8 is shown as �")
        if read.cut_bytes:
            self.notices.setdefault("long", "very long lines are cut (the rest is marked)")
        if stream == "meta" and text.startswith(CAP_NOTE):
            self.notices.setdefault("capped", "this log reached its size cap: lines in its "
                                    "middle were dropped (the 'log cap:' notes say how many)")
        level = classify(text, stream, prev)
        return Record(line, t, stream, sanitize(text.replace("\n", "\u21b5")), level, seg.phase,
                      read.cut_bytes, read.invalid_utf8, ts)

    def invalidate(self) -> None:
        """Forget cached records (after a source was reset)."""
        with self._lock:
            self._cache.clear()
            self._t0 = None
            self._formats.clear()

    # ------------------------------------------------------------------ indexing and follow

    def index_head(self, max_bytes: int = 1 << 20) -> None:
        """Index the start of every source, enough to show the first screens at once."""
        for src in self.sources:
            src.index_more(max_bytes)
        if not self.timed and len(self):
            self.notices.setdefault("untimed", "no timestamps in this log: replayed line by "
                                    f"line ({1 / UNTIMED_LINE_SECONDS:.0f} lines/s at 1x)")

    def index(self, progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] | None = None) -> bool:
        """Index every source to its end; False if cancelled."""
        for src in self.sources:
            done = self.indexed_bytes - src.indexed_bytes

            def step(indexed: int, _size: int, done: int = done) -> None:
                if progress is not None:
                    progress(done + indexed, self.size_bytes)

            if not src.build(step, cancelled):
                return False
        self._split_markers()
        self._check_tail()
        return self._merge(cancelled)

    def _merge(self, cancelled: Callable[[], bool] | None = None) -> bool:
        """Interleave overlapping timed phase files by timestamp (a k-way merge)."""
        total = len(self)
        if len(self.segments) < 2 or total > MERGE_LIMIT or not self.timed:
            self._order = self._rank = None
            return True
        times: list[list[float]] = []
        for seg in self.segments:
            if self._format_of(seg.source) != "run":
                self._order = self._rank = None
                return True
            seg_times: list[float] = []
            last = 0.0
            for _first, block in seg.source.iter_blocks(seg.start, seg.start + len(seg)):
                if cancelled is not None and cancelled():
                    return False
                raws = block.split(b"\n")
                if block.endswith(b"\n"):
                    raws.pop()
                for raw in raws:
                    tab = raw.find(b"\t")
                    t = _epoch(raw[:tab].decode("ascii", "replace")) if tab > 0 else None
                    last = t if t is not None and t > last else last
                    seg_times.append(last)
            times.append(seg_times)
        overlap = any(a and b and a[-1] > b[0] for a, b in zip(times, times[1:], strict=False))
        if not overlap:
            self._order = self._rank = None
            return True
        order: array[int] = array("Q")
        rank = [array("Q", [0]) * len(t) for t in times]
        def keyed(k: int, ts: list[float]) -> Iterator[tuple[float, int, int]]:
            return ((t, k, j) for j, t in enumerate(ts))

        merged = heapq.merge(*[keyed(k, ts) for k, ts in enumerate(times)])
        for g, (_t, k, j) in enumerate(merged):
            order.append((k << _SHIFT) | j)
            rank[k][j] = g
        with self._lock:
            self._order, self._rank = order, rank
        self.invalidate()
        self.notices.setdefault("merged", "phases overlap in time (the service logs while "
                                "tests run): their lines are interleaved by timestamp")
        return True

    def _check_tail(self) -> None:
        for src in self.sources:
            if src.partial_last_line and self.folder is None:
                self.notices.setdefault(
                    "partial", f"{src.path.name}: the last line has no line end (truncated?)")
            if src.has_nul:
                self.notices.setdefault("nul", "NUL bytes are shown as <NUL>")

    def _split_markers(self) -> None:
        """Split an untimed container transcript into phases at the entrypoint's markers."""
        if self._split_done:
            return
        out: list[Segment] = []
        for seg in self.segments:
            if seg.phase is not None or not isinstance(seg.source, LineIndex) \
                    or seg.stop is not None or not seg.source.complete:
                out.append(seg)
                continue
            cuts: list[tuple[int, Phase]] = []
            for first, block in seg.source.iter_blocks(seg.start):
                for marker, phase in MARKERS.items():
                    pos = block.find(marker)
                    while pos >= 0:
                        if pos == 0 or block[pos - 1] == 10:
                            cuts.append((first + block.count(b"\n", 0, pos), phase))
                        pos = block.find(marker, pos + 1)
            if not cuts:
                out.append(seg)
                continue
            cuts.sort()
            bounds = [(seg.start, Phase.INSTALL), *cuts]
            for (a, phase), (b, _) in zip(bounds, [*bounds[1:], (len(seg.source), None)],
                                          strict=True):
                if b > a:
                    out.append(Segment(phase, PHASE_LABELS[phase], seg.source, a, b))
        self.segments = out
        self._split_done = True
        self.invalidate()

    def poll(self) -> list[str]:
        """One follow step: pick up appended lines, new phase files, rotation and deletion.

        Returns human-readable events (empty when nothing changed). Runs off the UI thread.
        """
        events: list[str] = []
        for src in self.sources:
            state = src.poll()
            name = src.path.name
            if state == "grown":
                src.build()
                if self._order is not None:  # a live log stays phase after phase
                    with self._lock:
                        self._order = self._rank = None
                    self.invalidate()
                    self.notices.pop("merged", None)
            elif state in ("truncated", "rotated"):
                self.notices["follow"] = f"{name} was {state}; reading it again from the start"
                self.invalidate()
                src.build()
                events.append(f"{name} {state}")
            elif state == "deleted":
                if "deleted" not in self.notices:
                    events.append(f"{name} deleted")
                self.notices["deleted"] = f"{name} was deleted; showing what had been read"
        if self.folder is not None:
            events.extend(self._add_new_phase_files())
        return events

    def _add_new_phase_files(self) -> list[str]:
        assert self.folder is not None
        have = {s.phase for s in self.segments}
        events: list[str] = []
        last = max((PHASE_ORDER.index(s.phase) for s in self.segments if s.phase), default=-1)
        for i, phase in enumerate(PHASE_ORDER):
            if phase in have or i <= last:
                continue
            path = self.folder / "logs" / f"{phase.value}.log"
            if path.is_file():
                try:
                    src = LineIndex(path)
                except LogOpenError:
                    continue
                src.build()
                self.segments.append(Segment(phase, PHASE_LABELS[phase], src))
                events.append(f"{phase.value} started")
                last = i
        return events

    def close(self) -> None:
        for src in self.sources:
            src.close()

    # ------------------------------------------------------------------ timeline

    def phases(self) -> list[PhaseSpan]:
        """The timeline: one span per segment, with recorded status and duration if known.

        Spans tile the lines in order; when phases are interleaved, a phase's span runs from
        its first line to the next phase's first line.
        """
        spans: list[PhaseSpan] = []
        dep = self.sample.deployment if self.sample else None
        failed = dep.failed_phase if dep is not None else None
        firsts = [self.first_line_of(seg) for seg in self.segments]
        if self._rank is not None:
            ordered = sorted(range(len(self.segments)), key=lambda k: firsts[k])
            bounds = [firsts[k] for k in ordered] + [len(self)]
            ranges = {k: (bounds[i], bounds[i + 1] - bounds[i]) for i, k in enumerate(ordered)}
        else:
            ordered = list(range(len(self.segments)))
            ranges = {k: (firsts[k], len(seg)) for k, seg in enumerate(self.segments)}
        for k in ordered:
            seg = self.segments[k]
            base, n = ranges[k]
            start = end = None
            if n:
                start = self.record(base).time
                end = self.record(base + n - 1).time
            res = dep.phase(seg.phase) if dep is not None and seg.phase else None
            recorded = res.duration_seconds if res is not None and self.timed else None
            spans.append(PhaseSpan(
                seg.phase, seg.label, base, n, start, end,
                status=res.status.value if res is not None else None,
                exit_code=res.exit_code if res is not None else None,
                recorded_seconds=recorded,
                failed=seg.phase is not None and seg.phase == failed))
        return spans

    def phase_start(self, phase: Phase) -> int | None:
        """Global line where ``phase`` begins (None if the log has no such phase)."""
        for seg in self.segments:
            if seg.phase == phase:
                return self.first_line_of(seg)
        return None

    # ------------------------------------------------------------------ scanning

    def to_global(self, k: int, j: int) -> int:
        """Global line of line ``j`` (counted from the segment's start) of segment ``k``."""
        if self._rank is not None:
            return self._rank[k][j]
        return sum(len(s) for s in self.segments[:k]) + j

    def iter_segment_blocks(self, block_bytes: int = 4 << 20, clip: int | None = None
                            ) -> Iterator[tuple[int, int, bytes]]:
        """(segment index, first line counted from the segment's start, raw block); see
        :meth:`iter_blocks` for ``block_bytes`` and ``clip``."""
        for k, seg in enumerate(self.segments):
            for first, block in seg.source.iter_blocks(seg.start, seg.start + len(seg),
                                                       block_bytes, clip):
                yield k, first - seg.start, block

    def iter_blocks(self, start: int = 0, end: int | None = None, block_bytes: int = 4 << 20,
                    clip: int | None = None) -> Iterator[tuple[int, bytes, Segment]]:
        """Raw blocks of whole lines with the global number of their first line, about
        ``block_bytes`` each; ``clip`` cuts a line longer than a block to its first ``clip``
        bytes (see :meth:`LineIndex.iter_blocks`).

        Not for interleaved logs (their lines are not contiguous): see iter_segment_blocks.
        """
        if self._order is not None:
            raise ValueError("interleaved log: use iter_segment_blocks")
        stop = len(self) if end is None else min(end, len(self))
        base = 0
        for seg in self.segments:
            n = len(seg)
            lo, hi = max(start, base), min(stop, base + n)
            if lo < hi:
                local0 = seg.start + lo - base
                for first, block in seg.source.iter_blocks(local0, seg.start + hi - base,
                                                           block_bytes, clip):
                    yield base + first - seg.start, block, seg
            base += n
            if base >= stop:
                break


# ---------------------------------------------------------------------- parsing helpers

def _parse_runformat(text: str) -> tuple[str | None, str, str] | None:
    parts = text.split("\t", 2)
    if len(parts) == 3 and parts[1] in STREAMS and (not parts[0] or parts[0][:4].isdigit()):
        return parts[0] or None, parts[1], unescape_text(parts[2])
    return None


def _epoch(ts: str | None) -> float | None:
    if not ts:
        return None
    try:
        return datetime.fromisoformat(ts.replace(",", ".")).timestamp()
    except ValueError:
        return None


# ---------------------------------------------------------------------- opening

class NoLogError(Exception):
    """There is no log to show; the message says why."""


def _phase_segments(paths: dict[Phase, Path]) -> list[Segment]:
    out: list[Segment] = []
    for phase in PHASE_ORDER:
        path = paths.get(phase)
        if path is None:
            continue
        try:
            src = LineIndex(path)
        except LogOpenError:
            continue
        out.append(Segment(phase, PHASE_LABELS[phase], src))
    return out


def _container_log(sample: SampleResult) -> Path | None:
    """``<task>.log`` beside the per-repo result, in ``intermediate/[<stamp>/]`` or ``logs/``."""
    src = sample.source_file
    if src is None:
        return None
    name = f"{sample.task}.log"
    out = src.parent
    candidates = [src.with_name(name), out / "logs" / name, out / "intermediate" / name]
    stamp = src.stem.removeprefix("report_") if src.stem.startswith("report_") else None
    if stamp:
        candidates.insert(1, out / "intermediate" / stamp / name)
    inter = out / "intermediate"
    if inter.is_dir():
        candidates.extend(sorted(inter.glob(f"*/{name}"), reverse=True))
    return next((c for c in candidates if c.is_file()), None)


def open_sample_log(sample: SampleResult, sample_dir: Path | None = None) -> DeploymentLog:
    """The deployment log of ``sample``: its phase files, or a RepoGenesis container transcript.

    Raises NoLogError (with the reason) when the sample has nothing to replay.
    """
    paths = dict(sample.logs)
    if sample_dir is not None and not (sample_dir / "logs").is_dir():
        sample_dir = None
    if sample_dir is not None:
        for phase in PHASE_ORDER:
            p = sample_dir / "logs" / f"{phase.value}.log"
            if phase not in paths and p.is_file():
                paths[phase] = p
    title = f"{sample.run_id} · {sample.task} #{sample.sample}"
    segments = _phase_segments(paths)
    notices: dict[str, str] = {}
    if not segments:
        if sample.build_error:
            segments.append(Segment(Phase.INSTALL, "build error",
                                    TextLines(sample.build_error, "build_error")))
        container = _container_log(sample)
        if container is not None:
            try:
                segments.append(Segment(None, "container", LineIndex(container)))
            except LogOpenError as exc:
                notices["open"] = str(exc)
        elif sample.error:
            segments.append(Segment(None, "harness error", TextLines(sample.error, "error")))
        if not segments:
            raise NoLogError(
                "No deployment log for this sample: the RepoGenesis harness keeps none. Save "
                f"the container output (--verbose) as {sample.task}.log beside its result "
                "file to replay it." if sample.source_file is not None and not sample.logs
                else "No deployment log was recorded for this sample.")
    return DeploymentLog(title, segments, sample=sample, folder=sample_dir, notices=notices)


def open_log_path(path: Path) -> DeploymentLog:
    """A log file, or a sample folder (``logs/<phase>.log``, possibly still being written)."""
    path = Path(path)
    if path.is_dir():
        logs = path / "logs" if (path / "logs").is_dir() else path
        paths = {ph: logs / f"{ph.value}.log" for ph in PHASE_ORDER
                 if (logs / f"{ph.value}.log").is_file()}
        if not paths:
            raise NoLogError(f"{path}: no phase logs (install.log, start.log, health.log, "
                             "tests.log) found")
        log = DeploymentLog(str(path), _phase_segments(paths), folder=logs.parent)
    else:
        try:
            src = LineIndex(path)
        except LogOpenError as exc:
            raise NoLogError(str(exc)) from exc
        log = DeploymentLog(str(path), [Segment(None, path.stem, src)])
    return log


def locate_sample_log(target: Path, task: str | None = None, sample: int = 0,
                      run: str | None = None) -> DeploymentLog:
    """What ``inspector replay TARGET [TASK]`` opens.

    TARGET is a log file or a sample folder (opened as is, even while still being written),
    or a runs folder / run folder / RepoGenesis output folder, in which TASK (and ``sample``,
    ``run`` when several runs hold the task) picks the sample. Raises NoLogError.
    """
    target = Path(target)
    if not target.exists():
        raise NoLogError(f"{target}: no such file or folder")
    if task is None:
        return open_log_path(target)
    found = discover_runs(target)
    matches = [s for r in found.named(run) for s in r.samples
               if s.task == task and s.sample == sample]
    if not matches:
        tasks = sorted({s.task for r in found.runs for s in r.samples})
        errors = found.errors
        unusable = (f"; {len(errors)} file(s) could not be loaded, first: {errors[0]}"
                    if errors else "")
        raise NoLogError(f"{target}: no sample {sample} of task {task!r}"
                         + (f" in a run matching {run!r}" if run else "")
                         + (f" (tasks: {', '.join(tasks)})" if tasks else " (no runs found)")
                         + unusable)
    if len(matches) > 1:
        runs = ", ".join(sorted(m.run_id for m in matches))
        raise NoLogError(f"{task!r} is in several runs ({runs}); pick one with --run")
    s = matches[0]
    return open_sample_log(s, s.source_file.parent if s.source_file else None)
