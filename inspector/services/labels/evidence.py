"""Evidence an annotator can attach to a label without typing: the suggestion's anchors, the
failing tests, and the telling lines of each phase's log."""

from __future__ import annotations

import re

from inspector.model.labels.label_file import Anchor, Suggestion
from inspector.model.results.sample import SampleResult
from inspector.services.triage.exception_rules import log_lines

_TELLING = re.compile(
    r"(Error\b|Error:|Exception|Traceback|No matching distribution|Could not find a version|"
    r"exited with code|not open after|Address already in use|Killed|FAILED|refused)")


def log_evidence(sample: SampleResult, per_phase: int = 8) -> list[Anchor]:
    """Up to ``per_phase`` telling lines of each phase's log, as log anchors (1-based lines,
    counted as the suggestion rules count them)."""
    out: list[Anchor] = []
    for phase, path in sample.logs.items():
        seen: set[str] = set()
        for number, line in log_lines(path):
            text = line.strip()
            if not text or not _TELLING.search(text) or text in seen:
                continue
            if text.startswith(("File ", "raise ", "^")):
                continue
            seen.add(text)
            out.append(Anchor.log(phase.value, number, text))
            if len(seen) >= per_phase:
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
