"""Evidence an annotator can attach to a label without typing: the suggestion's anchors, the
failing tests, and the telling lines of each phase's log."""

from __future__ import annotations

import re

from inspector.model.labels import Anchor, Suggestion
from inspector.model.logs import parse_log_line
from inspector.model.results import SampleResult

_TELLING = re.compile(
    r"(Error\b|Error:|Exception|Traceback|No matching distribution|Could not find a version|"
    r"exited with code|not open after|Address already in use|Killed|FAILED|refused)")
_MAX_BYTES = 2_000_000


def log_evidence(sample: SampleResult, per_phase: int = 8) -> list[Anchor]:
    """Up to ``per_phase`` telling lines of each phase's log, as log anchors (1-based lines)."""
    out: list[Anchor] = []
    for phase, path in sample.logs.items():
        found = 0
        seen: set[str] = set()
        try:
            with open(path, "rb") as fh:
                data = fh.read(_MAX_BYTES)
        except OSError:
            continue
        for number, raw in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            text = parse_log_line(raw).text.strip()
            if not text or not _TELLING.search(text) or text in seen:
                continue
            if text.startswith(("File ", "raise ", "^")):
                continue
            seen.add(text)
            out.append(Anchor.log(phase.value, number, text))
            found += 1
            if found >= per_phase:
                break
    return out


def evidence_candidates(sample: SampleResult, suggestion: Suggestion | None = None,
                        max_tests: int = 25) -> list[Anchor]:
    """Everything worth pointing at, most telling first, without duplicates."""
    out: list[Anchor] = []
    if suggestion is not None:
        out.extend(suggestion.evidence)
    out.extend(Anchor.for_test(c.id) for c in sample.failing_tests[:max_tests])
    out.extend(log_evidence(sample))
    unique: list[Anchor] = []
    for a in out:
        if a not in unique:
            unique.append(a)
    return unique
