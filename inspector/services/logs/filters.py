"""Filtering and searching a deployment log without reading it line by line in Python.

A filter keeps the lines matching a text or ``/regex/`` and/or any of a set of levels
(errors, warnings, tracebacks, pip, pytest, harness notes), and can hide demo noise. Scans
run a bytes regex over large raw blocks (C speed) to find *candidate* lines, then parse and
check only those; the result is the sorted global line numbers that stay visible.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from inspector.model.logs.levels import PREFILTER, Level, level_names
from inspector.model.results.outcomes import Phase
from inspector.model.untrusted.safe_text import TRANSLATION
from inspector.services.logs.deployment_log import DeploymentLog, Record, Segment

SCAN_BLOCK = 32 * 1024
"""Bytes per regex call of a scan. Python's ``re`` holds the GIL for a whole call, so a scan
in a worker thread must not search megabytes at once: the app would freeze while it does
(the level prefilter runs at a few MB/s: a 4 MB block froze it for about a second, and a
100 MB line, once yielded whole, for 16 s)."""
SCAN_CLIP = 64 * 1024 + 1
"""A line is scanned up to here: what a record shows of it (``record_from_raw``), plus one
byte so it still counts as cut."""


_MARKER_SAMPLE = " ".join([*TRANSLATION.values(), "<U+0123456789ABCDEF>", "\\x0123456789abcdef"])
"""Every stand-in :func:`~inspector.model.untrusted.safe_text.sanitize` shows, and the
characters of the ``<U+…>``/``\\x…`` forms."""
_MARKED_BYTES = rb"[\x00-\x08\x0b-\x1f\x7f-\xff]"
"""The raw bytes that can show as a stand-in (C0, DEL, and any non-ASCII byte)."""


class FilterError(ValueError):
    """The filter text cannot be used (e.g. an invalid regular expression)."""


@dataclass(frozen=True)
class Query:
    """Text to find: plain (smart case: case-insensitive unless it has capitals) or /regex/."""

    text: str

    @property
    def is_regex(self) -> bool:
        return len(self.text) >= 2 and self.text.startswith("/") and self.text.endswith("/")

    def compile(self) -> re.Pattern[str]:
        """The pattern on line text; raises FilterError for a bad regex."""
        flags = 0 if any(c.isupper() for c in self.text) else re.IGNORECASE
        if self.is_regex:
            try:
                return re.compile(self.text[1:-1], flags)
            except re.error as exc:
                raise FilterError(f"invalid regular expression {self.text}: {exc}") from exc
        return re.compile(re.escape(self.text), flags)

    def prefilter(self) -> re.Pattern[bytes] | None:
        """A bytes pattern matching (a superset of) the raw lines whose text matches, or None
        when no safe one exists (anchors, non-ASCII): then every line is checked."""
        body = self.text[1:-1] if self.is_regex else re.escape(self.text)
        if not body.isascii() or any(a in body for a in ("^", "\\A", "$", "\\Z", "\\b", "\\B",
                                                        "(?", "\\w", "\\W", "\\s", "\\S")):
            return None
        flags = 0 if any(c.isupper() for c in self.text) else re.IGNORECASE
        try:
            raw = re.compile(body.encode(), flags)
        except re.error:
            return None
        if self._may_match_a_marker():
            # a line shows ``<ESC>`` where its bytes hold 0x1b: keep lines with such bytes too
            return re.compile(b"(?:" + raw.pattern + b")|" + _MARKED_BYTES, flags)
        return raw

    def _may_match_a_marker(self) -> bool:
        """Whether a match could take in a stand-in ``sanitize`` shows (``<ESC>``,
        ``<U+200D>``, ``\\x9b``) rather than the line's own bytes: it holds ``<``, ``>`` or
        ``\\``, or it matches inside one of them."""
        if any(c in self.text for c in "<>\\"):
            return True
        try:
            return self.compile().search(_MARKER_SAMPLE) is not None
        except FilterError:
            return True


@dataclass(frozen=True)
class LogFilter:
    """Which lines stay visible. Empty: all of them."""

    query: str = ""
    levels: Level = Level.NONE
    hide_noise: bool = False

    @property
    def empty(self) -> bool:
        return not self.query and not self.levels and not self.hide_noise

    def check(self) -> None:
        """Raise FilterError if the query is unusable."""
        if self.query:
            Query(self.query).compile()

    def describe(self) -> str:
        parts = []
        if self.query:
            parts.append(self.query if Query(self.query).is_regex else repr(self.query))
        if self.levels:
            parts.append("+".join(level_names(self.levels)))
        if self.hide_noise:
            parts.append("noise hidden")
        return ", ".join(parts) or "no filter"

    def matcher(self) -> Callable[[Record], bool]:
        pattern = Query(self.query).compile() if self.query else None
        levels, noise = self.levels, self.hide_noise

        def keep(rec: Record) -> bool:
            if noise and rec.level & Level.NOISE:
                return False
            if levels and not rec.level & levels:
                return False
            return not (pattern is not None and not pattern.search(rec.text))

        return keep


# ---------------------------------------------------------------------- scanning

Progress = Callable[[int, int], None]


def _candidates(log: DeploymentLog, pattern: re.Pattern[bytes] | None, start: int,
                end: int | None, cancelled: Callable[[], bool] | None
                ) -> Iterator[tuple[int, bytes | None, Segment | None]]:
    """Lines in [start, end) whose raw bytes match ``pattern`` (all if None), with their
    bytes taken from the block already read (None: read the line again)."""
    if log.interleaved:
        for line in _interleaved_candidates(log, pattern, start, end, cancelled):
            yield line, None, None
        return
    for first, block, seg in log.iter_blocks(start, end, SCAN_BLOCK, SCAN_CLIP):
        if cancelled is not None and cancelled():
            return
        if pattern is None:
            raws = block.split(b"\n")
            if block.endswith(b"\n"):
                raws.pop()
            for j, raw in enumerate(raws):
                yield first + j, raw, seg
            continue
        line, pos, last = first, 0, -1
        for m in pattern.finditer(block):
            at = m.start()
            line += block.count(b"\n", pos, at)
            pos = at
            if line != last:
                ls = block.rfind(b"\n", 0, at) + 1
                le = block.find(b"\n", at)
                yield line, block[ls:le if le >= 0 else len(block)], seg
                last = line


def _interleaved_candidates(log: DeploymentLog, pattern: re.Pattern[bytes] | None,
                            start: int, end: int | None,
                            cancelled: Callable[[], bool] | None) -> Iterator[int]:
    """Candidates of a log whose phases are interleaved: scan each file, map, sort."""
    stop = len(log) if end is None else end
    found: list[int] = []
    for k, first, block in log.iter_segment_blocks(SCAN_BLOCK, SCAN_CLIP):
        if cancelled is not None and cancelled():
            return
        if pattern is None:
            n = block.count(b"\n") + (not block.endswith(b"\n"))
            found.extend(log.to_global(k, first + j) for j in range(n))
            continue
        line, pos, last = first, 0, -1
        for m in pattern.finditer(block):
            line += block.count(b"\n", pos, m.start())
            pos = m.start()
            if line != last:
                found.append(log.to_global(k, line))
                last = line
    found.sort()
    yield from (g for g in found if start <= g < stop)


def _prefilter(flt: LogFilter) -> re.Pattern[bytes] | None:
    """One bytes pattern for the positive part of the filter (None: check every line)."""
    if flt.query:
        return Query(flt.query).prefilter()
    if flt.levels:
        pats = [PREFILTER[f].pattern for f in Level if f and f in flt.levels and f in PREFILTER]
        if not pats:
            return None
        flags = 0
        for f in Level:
            if f and f in flt.levels and f in PREFILTER:
                flags |= PREFILTER[f].flags & re.IGNORECASE
        return re.compile(b"|".join(b"(?:" + p + b")" for p in pats), flags)
    return None


def scan(log: DeploymentLog, flt: LogFilter, *, start: int = 0, end: int | None = None,
         limit: int | None = None, progress: Progress | None = None,
         cancelled: Callable[[], bool] | None = None,
         where: Callable[[Record], bool] | None = None) -> array[int] | None:
    """Sorted global line numbers in [start, end) that ``flt`` keeps; None if cancelled.

    ``limit`` stops after that many matches (for "first error" and search); ``where`` is an
    extra condition on each record (e.g. its phase).
    """
    flt.check()
    base_keep = flt.matcher()
    keep = base_keep if where is None else (lambda r: base_keep(r) and where(r))
    out: array[int] = array("Q")
    stop = len(log) if end is None else min(end, len(log))
    pattern = _prefilter(flt)
    follow_tb = bool(flt.levels & Level.TRACEBACK)
    done_until = -1
    checked = 0
    for line, raw, seg in _candidates(log, pattern, start, stop, cancelled):
        if line <= done_until:
            continue
        rec = log.record(line) if raw is None or seg is None else log.record_from_raw(
            line, seg, raw)
        if keep(rec):
            out.append(line)
            if limit is not None and len(out) >= limit:
                return out
        done_until = line
        if follow_tb and rec.level & Level.TRACEBACK:
            # the rest of a traceback has no keyword of its own: read on while it lasts
            nxt = line + 1
            while nxt < stop:
                r = log.record(nxt)
                if not r.level & Level.TRACEBACK:
                    break
                if keep(r):
                    out.append(nxt)
                done_until = nxt
                nxt += 1
        checked += 1
        if progress is not None and checked % 4096 == 0:
            progress(line - start, stop - start)
    if cancelled is not None and cancelled():
        return None
    if progress is not None:
        progress(stop - start, stop - start)
    return out


def find(log: DeploymentLog, query: str, origin: int, forward: bool = True,
         cancelled: Callable[[], bool] | None = None) -> int | None:
    """The next (or previous) line after (before) ``origin`` whose text matches ``query``.

    Searching backwards scans windows of growing size towards the start, so a match near
    the cursor is found without reading the whole log. Wraps around once.
    """
    flt = LogFilter(query=query)
    n = len(log)
    if not n:
        return None
    if forward:
        hit = scan(log, flt, start=origin + 1, limit=1, cancelled=cancelled)
        if not hit:
            hit = scan(log, flt, start=0, end=origin + 1, limit=1, cancelled=cancelled)
        return hit[0] if hit else None
    hi, window = origin, 2048
    while hi > 0:
        lo = max(0, hi - window)
        hits = scan(log, flt, start=lo, end=hi, cancelled=cancelled)
        if hits is None:
            return None
        if hits:
            return hits[-1]
        hi, window = lo, window * 4
    hits = scan(log, flt, start=origin, cancelled=cancelled)
    return hits[-1] if hits else None


def first_error(log: DeploymentLog, start: int = 0, end: int | None = None,
                cancelled: Callable[[], bool] | None = None,
                phase: Phase | None = None) -> int | None:
    """The first error or traceback line in [start, end) (of ``phase``'s log if given)."""
    hits = scan(log, LogFilter(levels=Level.ERROR | Level.TRACEBACK), start=start, end=end,
                limit=1, cancelled=cancelled,
                where=None if phase is None else (lambda r: r.phase == phase))
    return hits[0] if hits else None


def failure_line(log: DeploymentLog, cancelled: Callable[[], bool] | None = None
                 ) -> int | None:
    """Where a failing sample's log shows its failure (the replay's "first error" jump and
    the report's log excerpt): the first error or traceback line of the failed phase, else
    that phase's last line; without a failed phase, the first error line anywhere."""
    span = next((s for s in log.phases() if s.failed), None)
    line = first_error(log, cancelled=cancelled, phase=span.phase if span else None)
    if line is None and span is not None:
        line = span.first_line + max(0, span.line_count - 1)
    return line


# ---------------------------------------------------------------------- rows

class Rows:
    """Visible rows of a (possibly filtered) log: row number <-> global line number."""

    def __init__(self, lines: array[int] | None = None, total: int = 0) -> None:
        self.lines = lines
        self.total = total

    @property
    def filtered(self) -> bool:
        return self.lines is not None

    def count(self, upto: int | None = None) -> int:
        """Visible rows among lines [0, upto) (all lines when None)."""
        if self.lines is None:
            return self.total if upto is None else max(0, min(upto, self.total))
        return len(self.lines) if upto is None else bisect_left(self.lines, upto)

    def line(self, row: int) -> int:
        return row if self.lines is None else self.lines[row]

    def row_at_or_before(self, line: int) -> int:
        """The row showing ``line``, or the last visible row before it (0 if none)."""
        if self.lines is None:
            return max(0, line)
        return max(0, bisect_right(self.lines, line) - 1)

    def hidden(self, upto: int | None = None) -> int:
        """Lines hidden by the filter among [0, upto)."""
        if self.lines is None:
            return 0
        n = self.total if upto is None else min(upto, self.total)
        return n - self.count(n)
