"""Filters over sample entries: what users ask to narrow a corpus by."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from inspector.model.results.entries import RunEntry, SampleEntry

ANY = ""

LabelState = Callable[[str], str]
"""``label_state(sample_id)`` -> ``"labelled"`` or ``"unlabelled"``."""


def no_labels(sample_id: str) -> str:
    """Label state when no label store is attached: every failure is unlabelled."""
    return "unlabelled"


@dataclass(frozen=True, slots=True)
class SampleFilter:
    """Every field narrows; ``ANY`` ("") means no constraint.

    ``text`` matches case-insensitively against task, sample id, agent, model, framework and
    the failure message; words are ANDed, ``-word`` excludes, ``/regex/`` is a regex.
    """

    text: str = ""
    language: str = ANY
    framework: str = ANY
    verdict: str = ANY  # a Verdict value, or "failing" for every non-passed sample
    phase: str = ANY  # install / start / health / deploy, or "none"
    label: str = ANY  # "labelled" / "unlabelled"
    run_key: str = ANY

    @property
    def active(self) -> bool:
        return any((self.text.strip(), self.language, self.framework, self.verdict, self.phase,
                    self.label, self.run_key))

    def with_(self, **changes: str) -> SampleFilter:
        return replace(self, **changes)

    def describe(self) -> str:
        """A short human summary such as ``lang=python outcome=failing "yaml"``."""
        parts = []
        for name, value in (("lang", self.language), ("framework", self.framework),
                            ("outcome", self.verdict), ("phase", self.phase),
                            ("label", self.label)):
            if value:
                parts.append(f"{name}={value}")
        if self.text.strip():
            parts.append(f'"{self.text.strip()}"')
        return " ".join(parts) or "no filter"

    def predicate(self, label_state: LabelState = no_labels) -> Callable[[SampleEntry], bool]:
        """A fast test for one entry (compiles the text query once)."""
        text_tests = _text_tests(self.text)

        def match(e: SampleEntry) -> bool:
            if self.run_key and e.run_key != self.run_key:
                return False
            if self.language and e.language != self.language:
                return False
            if self.framework and e.framework != self.framework:
                return False
            if self.verdict:
                if self.verdict == "failing":
                    if not e.verdict.is_failure:
                        return False
                elif e.verdict.value != self.verdict:
                    return False
            if self.phase:
                if self.phase == "none":
                    if e.failed_phase:
                        return False
                elif e.failed_phase != self.phase:
                    return False
            if self.label and (not e.verdict.is_failure
                               or label_state(e.sample_id) != self.label):
                return False
            if text_tests:
                hay = " ".join((e.task, e.sample_id, e.agent, e.model, e.framework,
                                e.message)).lower()
                return all(t(hay) for t in text_tests)
            return True

        return match

    def apply(self, entries: Iterable[SampleEntry],
              label_state: LabelState = no_labels) -> list[SampleEntry]:
        match = self.predicate(label_state)
        return [e for e in entries if match(e)]


def _text_tests(text: str) -> list[Callable[[str], bool]]:
    tests: list[Callable[[str], bool]] = []
    for word in text.split():
        if len(word) > 2 and word.startswith("/") and word.endswith("/"):
            try:
                rx = re.compile(word[1:-1], re.IGNORECASE)
            except re.error:
                tests.append(_has(word.lower()))
                continue
            tests.append(_matches(rx))
        elif word.startswith("-") and len(word) > 1:
            tests.append(_lacks(word[1:].lower()))
        else:
            tests.append(_has(word.lower()))
    return tests


def _has(word: str) -> Callable[[str], bool]:
    return lambda haystack: word in haystack


def _lacks(word: str) -> Callable[[str], bool]:
    return lambda haystack: word not in haystack


def _matches(rx: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda haystack: rx.search(haystack) is not None


def run_matches(run: RunEntry, text: str) -> bool:
    """Runs-table filter: every word must occur in the run's id, agent, model or language."""
    hay = " ".join((run.run_id, run.agent, run.model, run.language, run.format,
                    run.short_format, run.status or "")).lower()
    return all(w.lower() in hay for w in text.split())


def facet_values(entries: Iterable[SampleEntry]) -> dict[str, list[str]]:
    """Distinct values per filterable field, for the filter bar's choices."""
    langs: set[str] = set()
    frameworks: set[str] = set()
    phases: set[str] = set()
    for e in entries:
        langs.add(e.language)
        frameworks.add(e.framework)
        if e.failed_phase:
            phases.add(e.failed_phase)
    return {"language": sorted(x for x in langs if x),
            "framework": sorted(x for x in frameworks if x),
            "phase": sorted(phases)}
