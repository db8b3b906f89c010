"""A sample's tampering findings, recorded or scanned when needed, and how they are summed up.

Findings are reported on the sample and never change its verdict: nothing here reads or
writes outcomes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from inspector.model import Run, SampleResult, Task
from inspector.model.repo.tampering import TamperFinding
from inspector.model.untrusted.safe_text import sanitize_field
from inspector.services.repo.tree_signature import repo_tree_signature
from inspector.services.tamper.scan import scan_repo

KIND_LABELS = {
    "root_conftest": "root conftest.py", "conftest": "conftest.py",
    "pytest_config": "pytest configuration", "pytest_plugin": "pytest plugin",
    "sitecustomize": "sitecustomize", "pth_file": ".pth file", "start_script": "start script",
    "golden_modified": "golden tests modified", "report_replaced": "test report replaced",
    "tests_rewritten": "tests rewritten", "runner_env_changed": "test runner changed",
    "plugin_injection": "plugin injected from a repo module",
    "hidden_payload": "hidden code payload", "shadowing_module": "module shadowing a runner import",
    "shadowing_refused": "golden run refused: the root shadows a runner import",
    "maven_skip_tests": "Maven skips the tests", "maven_failures_ignored":
    "Maven ignores test failures", "maven_test_selection": "Surefire test selection",
    "maven_test_dirs": "test folders moved", "maven_reports": "Surefire reports re-routed",
    "maven_listener": "Surefire listener", "maven_extension": "Maven extension",
    "junit_config": "JUnit configuration", "junit_service": "JUnit service registration",
    "maven_unreadable": "unreadable Maven file",
}
_CACHE_SIZE = 4096
_cache: OrderedDict[tuple[str, str, str], tuple[TamperFinding, ...]] = OrderedDict()
_lock = threading.Lock()


def ordered(findings: Iterable[TamperFinding]) -> tuple[TamperFinding, ...]:
    """Unique findings, deliberate ones first, then in the order found."""
    unique = list(dict.fromkeys(findings))
    return tuple(sorted(unique, key=lambda f: not f.deliberate))


def scan_cached(repo: Path, golden_tests: Path | None = None) -> tuple[TamperFinding, ...]:
    """:func:`scan_repo`, remembered per repo for this process (runs share predictions) while
    the repo's tree is unchanged (a file added or written is scanned again)."""
    key = (str(repo), str(golden_tests or ""), repo_tree_signature([str(repo)]))
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    found = ordered(scan_repo(repo, golden_tests))
    with _lock:
        _cache[key] = found
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def sample_tampering(s: SampleResult, task: Task | None = None) -> tuple[TamperFinding, ...]:
    """The sample's findings: as recorded by the evaluation, else found by scanning its repo
    (stock reports and older runs record none); () when neither is possible."""
    if s.tampering is not None:
        return ordered(s.tampering)
    if s.repo_path is None:
        return ()
    return scan_cached(s.repo_path, task.tests_dir if task else None)


@dataclass(frozen=True, slots=True)
class TamperedSample:
    """A sample with tampering findings."""

    sample_id: str
    run_id: str
    task: str
    findings: tuple[TamperFinding, ...]

    @property
    def deliberate(self) -> bool:
        return any(f.deliberate for f in self.findings)

    def to_json(self) -> dict[str, object]:
        return {"sample": self.sample_id, "deliberate": self.deliberate,
                "findings": [f.to_json() for f in self.findings]}


def tampered(items: Iterable[TamperedSample]) -> list[TamperedSample]:
    """Samples with findings, deliberate ones first, then by sample id."""
    return sorted((t for t in items if t.findings),
                  key=lambda t: (not t.deliberate, t.sample_id))


def summary_line(samples: list[TamperedSample]) -> str:
    """``N samples with tampering attempts, M deliberate`` (or that none was found)."""
    if not samples:
        return "none found in the generated repos"
    n = len(samples)
    m = sum(t.deliberate for t in samples)
    return (f"{n} sample{'' if n == 1 else 's'} with tampering attempts, {m} deliberate "
            f"({kept_out_note(f for t in samples for f in t.findings)})")


def in_effect(f: TamperFinding) -> bool:
    """A Java build setting: the golden run is the repo's own ``mvn test``, so it is in effect
    there (unless its detail says it has none), unlike what a Python repo holds."""
    return f.kind.startswith(("maven_", "junit_")) and "; no effect: " not in f.detail


def kept_out_note(findings: Iterable[TamperFinding]) -> str:
    """How the findings bear on the verdicts: kept out, or (Maven settings) in effect."""
    if any(in_effect(f) for f in findings):
        return ("Python findings kept out of the golden test runs; Maven/JUnit settings are in "
                "effect in them: check those verdicts")
    return "kept out of the golden test runs; verdicts unaffected"


def kind_label(kind: str) -> str:
    """A finding's kind as shown: our wording for the kinds we know; any other (a recorded
    ``result.json`` may hold anything) as one line of visible text (``<ESC>``, ``<LF>``)."""
    known = KIND_LABELS.get(kind)
    return known if known is not None else sanitize_field(kind.replace("_", " "), 200)


def finding_line(f: TamperFinding, max_chars: int = 2000) -> str:
    """One line for a finding: ``deliberate root conftest.py: conftest.py:10: …``.

    Every field is untrusted (findings are read back from ``result.json``): the line holds no
    control, bidi or invisible character and no line break (they are shown as ``<ESC>``, ``<LF>``,
    ``<U+202E>``), whether it goes to a terminal, a pipe, the app or a report."""
    return (f"{'deliberate ' if f.deliberate else ''}{kind_label(f.kind)}: "
            f"{sanitize_field(f.detail, max_chars)}")


def run_tampering(run: Run) -> list[TamperedSample]:
    """The run's samples with tampering attempts, deliberate first."""
    return tampered(TamperedSample(s.sample_id, s.run_id, s.task,
                                   sample_tampering(s, run.tasks.get(s.task)))
                    for s in run.samples)
