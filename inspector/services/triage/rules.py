"""Rule families: each reads one kind of evidence about a root failure item and returns weighed
:class:`~inspector.model.failures.triage.Reading` s (possibly none). :mod:`.combine` decides.

* ``evidence/*`` — the exception-reading rules of :mod:`..label_suggest` (install errors,
  missing modules, cross-module names, framework wiring, ports, harness errors), on the item's
  own message and traceback (and the deployment's logs for a sample-level item);
* ``suite/*`` — what the static audit of the golden suite found that matches this failure (a
  task file the harness does not copy, a test dependency nobody installs, an undocumented URL);
* ``test-bug/*`` — the test's own code fails before it checks anything (a name it never
  imports);
* ``spec/*`` — the failing assertion against the README's contract (:mod:`.spec_rules`);
* ``~cross-sample/*`` — how the other samples of the corpus did on the same test.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model import SampleResult, Task, TestCase
from inspector.model.failures import facts as ff
from inspector.model.failures.assertion_reader import expectation_of
from inspector.model.failures.text import NO_MODULE as _NO_MODULE
from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    DEPLOY_FAILED,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    FailureItem,
    Reading,
    Remedy,
)
from inspector.model.labels.label_file import Anchor
from inspector.model.suite.contact import may_contact_service
from inspector.services.repo.pymodules import IMPORT_ALIASES, is_stdlib
from inspector.services.suite.audit import (
    HARNESS_CONVENTION,
    MISSING_DEPENDENCY,
    SuiteAudit,
    SuiteIssue,
)
from inspector.services.triage.conventions import ConventionIndex
from inspector.services.triage.corpus import CorpusIndex
from inspector.services.triage.exception_rules import SampleContext, suggest
from inspector.services.triage.no_item_rules import no_item_readings

NOT_MODEL = "not-model"

EVIDENCE_WEIGHTS = {"not-model": 0.9, "dependency": 0.85, "cross-file": 0.85,
                    "architectural": 0.8, "other": 0.6}
"""Weight of an exception-reading rule's category: these rules quote the decisive line."""

_NAME_ERROR = re.compile(r"NameError: name '(?P<name>\w+)' is not defined")
_FILE_NOT_FOUND = re.compile(
    r"(?:FileNotFoundError|No such file or directory)[^']*'(?P<path>[^']+)'")


@dataclass
class ItemEvidence:
    """What the rules read about one root item."""

    sample: SampleResult
    task: Task | None
    item: FailureItem
    case: TestCase | None
    audit: SuiteAudit | None
    corpus: CorpusIndex | None
    conventions: ConventionIndex | None = None
    files: SuiteFiles = field(default_factory=lambda: SuiteFiles())  # one per triage pass
    remedies: list[Remedy] = field(default_factory=list)
    _expectation: list[ff.Expectation | None] = field(default_factory=list, repr=False)

    @property
    def text(self) -> str:
        if self.case is None:
            return self.item.message
        return f"{self.case.message}\n{self.case.traceback}"

    def suite_sources(self) -> dict[str, str]:
        """Every golden test file of the task (suite-relative path -> text)."""
        if self.task is None or self.task.root is None:
            return {}
        root = self.task.root
        return {rel: text for rel in self.files.tests(root)
                if (text := self.files.text(root, rel)) is not None}

    def suite_source(self, rel: str) -> str | None:
        if self.task is None or self.task.root is None:
            return None
        return self.files.text(self.task.root, rel)


MAX_SUITE_FILES = 200
MAX_SUITE_BYTES = 1_000_000


class SuiteFiles:
    """The task files the rules read (golden tests, conftest), read once per triage pass and
    shared by every item of every sample; and the label rules' context of the sample being
    triaged (its logs and repository), shared by that sample's items."""

    def __init__(self) -> None:
        self._texts: dict[Path, str | None] = {}
        self._tests: dict[Path, list[str]] = {}
        self._sample: SampleContext | None = None
        self.memo: dict[object, object] = {}  # what a rule family reads once per sample

    def sample_context(self, sample: SampleResult, readme: str | None,
                       audit: SuiteAudit | None) -> SampleContext:
        """The label rules' context for ``sample`` (kept for the latest sample only)."""
        if self._sample is None or not self._sample.is_for(sample, readme, audit):
            self._sample = SampleContext(sample, readme, audit)
        return self._sample

    def text(self, root: Path, rel: str) -> str | None:
        path = root / rel
        if path not in self._texts:
            text = None
            try:
                if path.is_file() and path.stat().st_size < MAX_SUITE_BYTES:
                    text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = None
            self._texts[path] = text
        return self._texts[path]

    def tests(self, root: Path) -> list[str]:
        """Task-relative paths of the suite's ``test_*.py`` files (at most 200)."""
        if root not in self._tests:
            tests = root / "tests"
            try:
                found = sorted(tests.rglob("test_*.py"))[:MAX_SUITE_FILES] \
                    if tests.is_dir() else []
            except OSError:
                found = []
            self._tests[root] = [p.relative_to(root).as_posix() for p in found]
        return self._tests[root]


# ------------------------------------------------------------------- evidence (exceptions)

def evidence_readings(ev: ItemEvidence) -> list[Reading]:
    """The exception-reading rules of :func:`..label_suggest.suggest` on this item."""
    readme = ev.task.readme if ev.task else None
    found = suggest(ev.sample, ev.item.test_id, task_readme=readme, audit=ev.audit,
                    context=ev.files.sample_context(ev.sample, readme, ev.audit))
    if found is None:
        return []
    if ev.item.test_id is not None and ev.sample.deployment.success and _about_deployment(found):
        return []  # a deployment rule cannot explain a test of a service that came up
    if found.category != NOT_MODEL and not service_failure_can_explain(ev, found.reason):
        return []  # the service's own error, but this test saw the service answer otherwise
    weight = EVIDENCE_WEIGHTS.get(found.category, 0.6)
    _remedy_from_evidence(ev, found.category, found.rule, found.reason)
    return [Reading(found.category, weight, f"evidence/{found.rule}", found.reason,
                    found.evidence)]


_EXCEPTION_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception))\b")
_TEXT_KINDS = (ff.CONTAINS, ff.VALUE)


def expectation(ev: ItemEvidence) -> ff.Expectation | None:
    """What the failing test expected, from its message, traceback and golden source (read
    once per item: every rule family asks)."""
    if ev.case is None or ev.item.test_id is None:
        return None
    if not ev._expectation:
        test_file = ev.item.test_id.split("::")[0]
        ev._expectation.append(expectation_of(
            ev.item.test_id, ev.case.message, ev.case.traceback, ev.suite_source(test_file),
            test_file, None, conftest_sources(ev)))
    return ev._expectation[0]


def conftest_sources(ev: ItemEvidence) -> dict[str, str]:
    """The suite's conftest files (where fixtures build requests), path -> text."""
    return {rel: text for rel in ("tests/conftest.py", "conftest.py")
            if (text := ev.suite_source(rel)) is not None}


def service_failure_can_explain(ev: ItemEvidence, reason: str) -> bool:
    """Whether an error of the service (a crash in its log, a failed start) can explain this
    test's failure: not when the test saw the service answer a definite non-error status or a
    text of its own, nor, when the service never came up, when the test cannot have reached
    it (:func:`~inspector.model.suite.contact.may_contact_service`); always when the error
    shows in the test's own output."""
    if ev.item.test_id is None or ev.case is None:
        return True
    name = _EXCEPTION_NAME.search(reason)
    if name is not None and name.group(1) in ev.text:
        return True  # the test's own traceback shows it (a white-box call, a fixture)
    exp = expectation(ev)
    if exp is None or exp.kind in (ff.CONNECTION, ff.UNKNOWN) or exp.where != ff.IN_TEST:
        return True
    if exp.kind == ff.STATUS and isinstance(exp.actual, int) and not isinstance(exp.actual, bool):
        return exp.actual >= 500
    if exp.kind in _TEXT_KINDS and exp.request is not None and isinstance(exp.actual, str):
        return False  # the service answered with a text of its own: it did not crash
    if ev.sample.deployment.success:
        return True
    # never came up: it explains no test that cannot have reached it
    source = ev.suite_source(ev.item.test_id.split("::")[0])
    return source is None or may_contact_service(source, ev.item.test_id) is not False


def _about_deployment(found: object) -> bool:
    anchors = getattr(found, "evidence", ())
    return bool(anchors) and all(a.kind == "log" and a.phase in ("install", "start", "health")
                                 for a in anchors)


def _remedy_from_evidence(ev: ItemEvidence, category: str, rule: str, reason: str) -> None:
    m = _NO_MODULE.search(reason)
    if category == "dependency" and m and ev.item.kind == DEPLOY_FAILED:
        ev.remedies.append(Remedy(INSTALL_REPO_PACKAGE, _dist_for(m["name"])))
        return
    m = _NO_MODULE.search(ev.text) or m
    if category == NOT_MODEL and rule.startswith("golden-suite-") and m and \
            _third_party(m["name"], ev):
        # a golden test imports a package nobody installs for the tests
        ev.remedies.append(Remedy(INSTALL_TEST_PACKAGE, _dist_for(m["name"])))


def _third_party(module: str, ev: ItemEvidence) -> bool:
    """Neither the standard library nor a module of the task's suite (a helper in tests/)."""
    top = module.split(".")[0]
    if is_stdlib(top) or top in ("conftest", "tests"):
        return False
    root = ev.task.root if ev.task is not None else None
    return root is None or not any((root / "tests" / f"{top}{ext}").exists()
                                   for ext in (".py", ""))


def _dist_for(module: str) -> str:
    top = module.split(".")[0]
    aliases = IMPORT_ALIASES.get(top, ())
    return aliases[0] if aliases else top


# ------------------------------------------------------------------- suite audit

def suite_readings(ev: ItemEvidence) -> list[Reading]:
    """Audit findings that explain this failure."""
    if ev.audit is None:
        return no_item_readings(ev)
    out: list[Reading] = []
    text = ev.text
    test_file = (ev.item.test_id or "").split("::")[0] or None
    for issue in ev.audit.defects:
        why = _issue_explains(issue, ev, text, test_file)
        if why is None:
            continue
        weight, detail = why
        anchors = tuple(Anchor.task_file(e.file, e.line, e.text) for e in issue.evidence[:3])
        out.append(Reading(NOT_MODEL, weight, f"suite/{issue.cause.replace(' ', '-')}",
                           f"{detail}: {issue.explain()}", anchors))
        if issue.cause == MISSING_DEPENDENCY and issue.modules:
            ev.remedies.append(Remedy(INSTALL_TEST_PACKAGE, _dist_for(issue.modules[0])))
        elif issue.cause == HARNESS_CONVENTION and issue.files and _read_file(issue):
            ev.remedies.append(Remedy(ADD_TASK_FILE, _read_file(issue) or ""))
    return out + no_item_readings(ev)


def _read_file(issue: SuiteIssue) -> str | None:
    m = re.search(r"read the task's (\S+?),", issue.summary)
    return m.group(1) if m else None


def _issue_explains(issue: SuiteIssue, ev: ItemEvidence, text: str, test_file: str | None
                    ) -> tuple[float, str] | None:
    m = _NO_MODULE.search(text)
    if m and issue.modules and (m["name"] in issue.modules
                                or m["name"].split(".")[0] in issue.modules):
        return 0.9, f"the test fails importing {m['name']}, which the audit explains"
    read = _read_file(issue)
    if read and test_file and test_file in issue.files:
        f = _FILE_NOT_FOUND.search(text)
        if f and f["path"].endswith(read):
            return 0.9, f"the test cannot open {read}"
        if read.lower() in text.lower() or ev.case is not None:
            return 0.75, f"the test checks {read}, a task file"
    if ev.item.test_id is None and issue.files and any(
            f in text or f.split("/")[-1] in text for f in issue.files):
        return 0.85, "the suite's failure comes from a file the audit names"
    if ev.item.test_id is None and "skipped" in text and "unreachable" in issue.cause:
        return 0.8, "every test was skipped by a fixture that waits for an undocumented URL"
    return None


# ------------------------------------------------------------------- the test's own bugs

def test_bug_readings(ev: ItemEvidence) -> list[Reading]:
    """The test's own code raises before checking the service: a name it never defines."""
    if ev.case is None:
        return []
    m = _NAME_ERROR.search(ev.text)
    if not m:
        return []
    test_file = ev.item.test_id.split("::")[0] if ev.item.test_id else None
    source = ev.suite_source(test_file) if test_file else None
    if source is None:
        return []
    name = m["name"]
    if _defines(source, name):
        return []
    line = _first_use(source, name)
    anchors = (Anchor.task_file(test_file, line[0], line[1]),) if line and test_file else ()
    where = f"{test_file}:{line[0]}" if line else test_file
    return [Reading(NOT_MODEL, 0.9, "test-bug/undefined-name",
                    f"the golden test uses {name!r} ({where}) but never imports or defines it "
                    "— no implementation can make it pass", anchors)]


def _defines(source: str, name: str) -> bool:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return True  # cannot tell: do not accuse the test
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name.split(".")[0]) == name for a in node.names):
                return True
        elif isinstance(node, ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            if node.name == name or any(a.arg == name for a in args):
                return True
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
            return True
    return False


def _first_use(source: str, name: str) -> tuple[int, str] | None:
    pat = re.compile(rf"\b{re.escape(name)}\b")
    for i, line in enumerate(source.splitlines(), 1):
        if pat.search(line) and not line.lstrip().startswith("#"):
            return i, line.strip()
    return None


# ------------------------------------------------------------------- cross-sample

def independence_weight(independent: int) -> float:
    """How strongly other samples failing a test alike point at the test: by how many
    independent sources (another agent or model) agree, saturating; samples of the sample's
    own source alone are weak evidence (an agent repeats its own mistakes)."""
    return 0.15 + 0.45 * (1 - 0.5 ** independent)


def _strength(independent: int) -> str:
    return "weak" if independent <= 1 else "moderate" if independent <= 3 else "strong"


def cross_sample_readings(ev: ItemEvidence) -> list[Reading]:
    """The same test across the corpus's other samples, weighed by their independence."""
    if ev.corpus is None or ev.item.test_id is None or ev.case is None:
        return []
    history = ev.corpus.history(ev.sample.task, ev.item.test_id)
    others = history.others(ev.sample.sample_id)
    if not others:
        return []
    passes = history.passes(ev.sample.sample_id)
    same = history.same_failure(ev.sample.sample_id, ev.case.first_message_line)
    if passes:
        names = ", ".join(sorted({s.agent for s in passes}))
        return [Reading(NOT_MODEL, -0.2, "~cross-sample/passed-elsewhere",
                        f"{len(passes)} of {len(others)} other sample(s) pass this test "
                        f"({names}): it can be passed")]
    if not same or len(same) != len(others):
        return []
    own = ev.corpus.source(ev.sample.sample_id)
    sources = sorted({s.source for s in same} - {own})
    independent = len(sources)
    mine = sum(1 for s in same if s.source == own)
    parts = [f"{independent} other agent/model(s): {', '.join(sources)}"] if independent else []
    if mine:
        parts.append(f"{mine} sample(s) of this sample's own agent, not independent")
    return [Reading(NOT_MODEL, independence_weight(independent), "cross-sample/fails-alike",
                    f"every other sample ({len(same)}) fails it the same way and none passes; "
                    f"{_strength(independent)} evidence: {'; '.join(parts)}")]
