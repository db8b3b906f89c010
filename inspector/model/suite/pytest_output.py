"""What pytest's console output says about a run that did not run (fully): its rootdir, what
its exit code means, and the first real cause line with the file:line it points at."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from inspector.model.results.outcomes import Outcome
from inspector.model.results.sample import SuiteCause, TestCase

EXIT_MEANINGS = {
    0: "no test failed",
    1: "some tests failed",
    2: "interrupted (pytest.exit(), Ctrl-C, or a collection error without "
       "--continue-on-collection-errors)",
    3: "pytest internal error (a plugin or hook raised)",
    4: "pytest usage error (bad arguments or ini options, a path not found, or a conftest.py "
       "that failed to import)",
    5: "no tests collected",
}
"""pytest's documented exit codes."""

Locate = Callable[[str], str | None]
"""Maps a path as pytest printed it to a path relative to the repo root (None: not ours)."""

_ROOTDIR = re.compile(r"^\s*rootdir: (?P<path>.+?)(?:, (?:configfile|inifile|testpaths):.*)?$")
_CONFTEST = re.compile(r"^ImportError while loading conftest '(?P<path>.+)'\.?\s*$")
_COLLECTING = re.compile(r"^_+ ERROR collecting (?P<id>.+?) _+$")
_SECTION_END = re.compile(r"^(?:_{3,} |={3,}|-{3,} )")
_FRAMES = (re.compile(r"^(?P<path>[^\s\"'<>][^:\"'<>]*?):(?P<line>\d+): "),
           re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)'))
_BANG = re.compile(r"^!{3,} (?P<text>.+?) !{3,}$")
_WARN = re.compile(r"^\s*(?P<path>\S+?):(?P<line>\d+): PytestCollectionWarning: (?P<text>.+)$")
_SKIP_AT = re.compile(r"^(?P<path>\S+?\.py):(?P<line>\d+): ")
_COLLECTED_NONE = re.compile(r"^collect(?:ing \.\.\. collected|ed) 0 items\b")
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")  # colour codes, e.g. a lone reset


def exit_meaning(code: int | None) -> str:
    """What pytest's exit ``code`` means, in a few words."""
    if code is None:
        return "did not finish (timed out or cancelled)"
    return EXIT_MEANINGS.get(code, f"unknown pytest exit code {code} (killed or crashed?)")


def rootdir_of(lines: Sequence[str]) -> str | None:
    """The rootdir pytest reported (the last ``rootdir:`` line), as printed; None if absent."""
    for text in reversed(lines):
        m = _ROOTDIR.match(text)
        if m:
            return m.group("path").strip()
    return None


def _e_line(block: Sequence[str]) -> str:
    """The last ``E   …`` line that names an exception (else the last ``E`` line)."""
    e_lines = [t[1:].strip() for t in block if t.startswith("E ") and t[1:].strip()]
    for text in reversed(e_lines):
        if re.match(r"^[\w.]+(?:Error|Exception|Exit|Interrupt|Warning)\b", text):
            return text
    return e_lines[-1] if e_lines else ""


def _where(block: Sequence[str], locate: Locate) -> tuple[str | None, int | None]:
    """The deepest frame of ``block`` that lies in the repo (or the task's tests)."""
    found: tuple[str | None, int | None] = (None, None)
    for text in block:
        for pattern in _FRAMES:
            for m in pattern.finditer(text[1:].strip() if text.startswith("E ") else text):
                rel = locate(m.group("path"))
                if rel:
                    found = (rel, int(m.group("line")))
    return found


def _block(lines: Sequence[str], start: int) -> list[str]:
    out = []
    for text in lines[start + 1:]:
        if not text.strip() or _SECTION_END.match(text):
            break
        out.append(text)
    return out


def _conftest(lines: Sequence[str], locate: Locate) -> SuiteCause | None:
    for i, text in enumerate(lines):
        m = _CONFTEST.match(text)
        if m:
            block = _block(lines, i)
            path = m.group("path")
            file, line = _where(block, locate)
            return SuiteCause("conftest_error", _e_line(block) or text.strip(),
                              f"ImportError while loading conftest {locate(path) or path}",
                              file or locate(path), line)
    return None


def _collection(lines: Sequence[str], cases: Sequence[TestCase], locate: Locate
                ) -> SuiteCause | None:
    for c in cases:
        if c.outcome.is_failure and c.message.strip() == "collection failure":
            block = c.traceback.splitlines()
            file, line = _where(block, locate)
            return SuiteCause("collection_error", c.first_message_line,
                              f"ERROR collecting {c.file or c.id}", file or c.file, line)
    for i, text in enumerate(lines):
        m = _COLLECTING.match(text)
        if m:
            block = _block(lines, i)
            file, line = _where(block, locate)
            text_ = _e_line(block) or next((b.strip() for b in block if b.strip()), "")
            return SuiteCause("collection_error", text_, f"ERROR collecting {m.group('id')}",
                              file or locate(m.group("id")), line)
    return None


def _usage(lines: Sequence[str], locate: Locate) -> SuiteCause | None:
    for i, text in enumerate(lines):
        if not text.startswith("ERROR: "):
            continue
        message = text[len("ERROR: "):].strip()
        file = None
        if message.startswith("usage:"):
            rest = lines[i + 1:i + 6]
            message = next((r.split(": error: ", 1)[1] for r in rest if ": error: " in r),
                           message)
            for r in rest:
                m = re.match(r"^\s+(?:inifile|configfile): (?P<path>\S.*)$", r)
                if m:
                    file = locate(m.group("path").strip())
        return SuiteCause("usage_error", message, "pytest usage error", file)
    return None


def _internal(lines: Sequence[str], locate: Locate) -> SuiteCause | None:
    block = [t for t in lines if t.startswith("INTERNALERROR>")]
    if not block:
        return None
    body = [t[len("INTERNALERROR>"):].rstrip() for t in block]
    text = next((b.strip() for b in reversed(body)
                 if b.strip() and not b.startswith((" ", "\t")) and
                 not b.strip().startswith("Traceback")), body[-1].strip())
    file, line = _where(body, locate)
    return SuiteCause("internal_error", text, "pytest internal error", file, line)


def _interrupted(lines: Sequence[str], locate: Locate) -> SuiteCause | None:
    for i, text in enumerate(lines):
        m = _BANG.match(text)
        if m:
            file, line = _where(lines[max(0, i - 3):i], locate)
            return SuiteCause("interrupted", m.group("text").strip(), "pytest was interrupted",
                              file, line)
    return None


def _not_collectable(lines: Sequence[str], locate: Locate) -> SuiteCause | None:
    for text in lines:
        m = _WARN.match(text)
        if m:
            return SuiteCause("not_collectable", m.group("text").strip(),
                              "pytest could not collect a test class",
                              locate(m.group("path")), int(m.group("line")))
    return None


def _all_skipped(cases: Sequence[TestCase], locate: Locate) -> SuiteCause | None:
    """Every collected test skipped (typically a fixture that skips all when the service does
    not answer some URL): the most common reason, and where the first such skip was raised."""
    run = [c for c in cases if c.id]
    if not run or any(c.outcome is not Outcome.SKIPPED for c in run):
        return None
    reason, count = Counter(c.message or "no reason given" for c in run).most_common(1)[0]
    first = next(c for c in run if (c.message or "no reason given") == reason)
    m = _SKIP_AT.match(first.traceback or "")
    file, line = (locate(m.group("path")), int(m.group("line"))) if m else (None, None)
    share = f"{count} of {len(run)}" if count < len(run) else f"all {count}"
    return SuiteCause("all_skipped", f"{share} tests skipped: {reason}",
                      "pytest skipped every test (the stock harness counts none of them)",
                      file, line)


def find_cause(lines: Sequence[str], exit_code: int | None, cases: Sequence[TestCase] = (),
               locate: Locate = lambda path: None, phase_message: str = ""
               ) -> SuiteCause | None:
    """The first real reason a suite did not run (fully), from pytest's console ``lines`` (out
    and err, in order), its JUnit ``cases`` and its exit code; None when nothing explains it.

    ``locate`` turns printed paths into repo-relative ones; ``phase_message`` is the test
    phase's own message (used for a run that timed out or crashed without saying why).
    """
    finders: tuple[Callable[[], SuiteCause | None], ...] = (
        lambda: _conftest(lines, locate), lambda: _usage(lines, locate),
        lambda: _internal(lines, locate),
        lambda: _collection(lines, cases, locate),
        lambda: _interrupted(lines, locate),
        lambda: _all_skipped(cases, locate))
    for finder in finders:
        cause = finder()
        if cause is not None:
            return cause
    counted = [c for c in cases if c.id]
    if exit_code == 5 or (exit_code == 0 and not counted):
        warn = _not_collectable(lines, locate)
        if warn is not None:
            return warn
        seen = any(_COLLECTED_NONE.match(t) for t in lines)
        return SuiteCause("no_tests", "collected 0 items" if seen else "no tests ran",
                          "pytest collected no tests (exit 5)")
    if exit_code is None:
        return SuiteCause("timeout", phase_message or "the test run did not finish",
                          "no result from pytest")
    if exit_code not in EXIT_MEANINGS or (not counted and exit_code != 0):
        tail = next((text for t in reversed(lines) if (text := _ESCAPES.sub("", t).strip())),
                    "")
        return SuiteCause("crashed", tail or f"pytest exited with code {exit_code} and printed "
                          "nothing", f"pytest exit {exit_code}: {exit_meaning(exit_code)}")
    return None
