"""How much of each untrusted text the report embeds, so a 10,000-sample corpus stays small.

Detail sections exist only for failing samples, at most :attr:`Caps.sections` of them and
:attr:`Caps.detail_chars` characters in all; inside one, the failing tests, their messages and
tracebacks and the deployment log's tail are cut, each with a note saying what was left out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Caps:
    """Limits of what one report embeds."""

    sections: int = 2_000
    """Sample sections (failing samples) in the whole report."""
    detail_chars: int = 3_000_000
    """Characters of test messages, tracebacks and log lines over every section."""
    tests_per_sample: int = 5
    message_chars: int = 400
    traceback_lines: int = 20
    traceback_chars: int = 2_000
    log_lines: int = 30
    log_chars: int = 3_000
    section_estimate: int = 6_000
    """Characters a full section takes, about: more failing cells than the budget holds at
    that size make the per-sample caps :meth:`compact`."""
    findings: int = 300
    """Benchmark-health findings and tampering rows (each)."""
    disagreements: int = 100


    def fit(self, cells: int) -> Caps:
        """These caps, or :meth:`compact` ones when ``cells`` failing cells (one section
        each) would not fit in :attr:`detail_chars` at :attr:`section_estimate`; then only
        each cell's first failing sample gets a section."""
        if cells * self.section_estimate <= self.detail_chars:
            return self
        return replace(self.compact(), sections=min(self.sections, cells))

    def compact(self) -> Caps:
        """Per-sample caps small enough for about one section per failing cell of a large
        corpus: the first failing test, a short traceback and log tail."""
        return replace(self, tests_per_sample=1, message_chars=min(self.message_chars, 200),
                       traceback_lines=min(self.traceback_lines, 5),
                       traceback_chars=min(self.traceback_chars, 500),
                       log_lines=min(self.log_lines, 8), log_chars=min(self.log_chars, 800))


@dataclass(frozen=True, slots=True)
class Cut:
    """A text as embedded and what was left out of it ("" when nothing)."""

    text: str
    note: str = ""
    mark: int = -1
    """The line of ``text`` to highlight (the first error), -1 when none."""


def head(text: str, max_chars: int) -> Cut:
    """The first ``max_chars`` characters of ``text``."""
    if len(text) <= max_chars:
        return Cut(text)
    return Cut(text[:max_chars] + "…", f"first {max_chars:,} of {len(text):,} characters")


def tail_lines(lines: list[str], max_lines: int, max_chars: int, total: int | None = None,
               what: str = "lines") -> Cut:
    """The last lines of ``lines`` (of ``total`` in all, default ``len(lines)``), at most
    ``max_lines`` lines and ``max_chars`` characters (a last line longer than that keeps its
    end)."""
    total = len(lines) if total is None else total
    kept: list[str] = []
    size = 0
    cut_line = False
    for line in reversed(lines[-max_lines:] if max_lines > 0 else []):
        if size + len(line) + 1 > max_chars:
            if not kept:
                kept.append("…" + line[-max(1, max_chars - 1):])
                cut_line = True
            break
        kept.append(line)
        size += len(line) + 1
    kept.reverse()
    if len(kept) == total and not cut_line:
        return Cut("\n".join(kept))
    note = f"last {len(kept):,} of {total:,} {what}"
    return Cut("\n".join(kept), note + (" (its end only)" if cut_line else ""))


def around(lines: list[str], first: int, at: int, total: int, max_chars: int) -> Cut:
    """``lines`` (lines ``first``… of ``total``) around line ``at`` (the first error, a
    number in the whole log), at most ``max_chars`` characters: the end farther from ``at``
    gives way first, and ``at`` alone keeps its start."""
    k = min(max(0, at - first), len(lines) - 1)
    lo, hi = 0, len(lines)
    size = sum(len(line) + 1 for line in lines)
    while size > max_chars and hi - lo > 1:
        if hi - 1 - k >= k - lo:
            hi -= 1
            size -= len(lines[hi]) + 1
        else:
            size -= len(lines[lo]) + 1
            lo += 1
    kept = lines[lo:hi]
    if size > max_chars:
        kept = [kept[0][:max(1, max_chars - 1)] + "…"]
    where = f"line {at + 1:,}"
    if lo == 0 and hi == len(lines) and first == 0 and len(lines) == total:
        return Cut("\n".join(kept), f"all {total:,} lines; the first error: {where}", k)
    return Cut("\n".join(kept), f"lines {first + lo + 1:,}–{first + hi:,} of {total:,}, "
               f"around the first error ({where})", k - lo)
