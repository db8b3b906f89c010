"""Benchmark health: candidate defects of the *benchmark* that agents must not be blamed for.

The analysis reads plain records (``SuiteRecord`` per sample, ``TestRecord`` per test case), so a
caller can feed it from the loaded model (``records_from_samples``/``records_from_runs``) or
stream it from a database. It is one pass over each iterable: O(samples) memory for the suites,
O(distinct tests + failing records of never-passing tests) for the tests.

Kinds of finding, in order of severity:

* ``collection_error``: the same test file fails to collect in >= ``min_samples`` deployed
  samples (e.g. it imports an internal module the README never mentions).
* ``zero_collected``: deployed samples whose suite counted no test at all (one is enough: a
  suite fact, not a verdict on a test).
* ``never_passes``: a test no deployed sample of any run passes, with >= ``min_samples``
  deployed samples that ran it.
* ``fewer_than_expected``: deployed samples counting fewer than ``INCOMPLETE_RATIO`` of the
  tests the golden suite has (one is enough, as for ``zero_collected``).
* ``suite_defect``: found by reading the golden suite (:mod:`.suite_audit`), for a task with
  samples in the runs, when no finding above already names it as its suspected cause.

Suspected causes come from the task's suite audit when the caller passes one (the import the
error names, an unreachable URL, a non-collectable file), else from the message alone.

Beside the defects, the report lists the samples with **tampering attempts** (what a generated
repo holds or did to reach into its own golden test run, :mod:`.tamper`), deliberate ones
first: not defects of the benchmark, but results to read with care. The golden runs kept the
attempts out, so verdicts stand.

Samples that did not deploy are never evidence: their failures say nothing about the tests.
Test records of samples without a ``SuiteRecord`` are ignored too (their deployment is
unknown) and counted in ``HealthReport.unmatched_tests``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from inspector.model import Run, SampleResult
from inspector.model.results.outcomes import INCOMPLETE_RATIO
from inspector.services.suite.audit import (
    HARNESS_CONVENTION,
    MISSING_DEPENDENCY,
    NON_COLLECTABLE,
    UNDOCUMENTED_MODULE,
    UNREACHABLE_URL,
    SuiteAudit,
    SuiteIssue,
)
from inspector.services.tamper.findings import TamperedSample, tampered

KINDS = ("collection_error", "zero_collected", "never_passes", "fewer_than_expected",
         "suite_defect")
_RANK = {kind: i for i, kind in enumerate(KINDS)}
MAX_EXAMPLES = 5
_RAN = frozenset({"passed", "failed", "error"})

# Third-party packages golden suites import themselves: missing => a test-environment defect.
TEST_PACKAGES = frozenset({
    "requests", "httpx", "aiohttp", "pytest", "pytest_asyncio", "pytest_httpx", "anyio",
    "websocket", "websockets", "jsonschema", "hypothesis", "faker", "freezegun", "responses",
    "respx", "urllib3",
})


@dataclass(frozen=True, slots=True)
class TestRecord:
    """One test case of one sample; ``message`` is its first, most telling error line."""

    __test__ = False

    task: str
    run_id: str
    sample_id: str
    test_id: str
    outcome: str  # "passed" | "failed" | "error" | "skipped"
    message: str = ""


@dataclass(frozen=True, slots=True)
class SuiteRecord:
    """How one sample's test suite went.

    ``collection_messages`` holds one entry per file that failed to collect, written
    ``"<file>: <message>"`` (e.g. ``"tests/test_x.py: ModuleNotFoundError: No module named 'a'"``);
    an entry without a ``.py`` file before the first ``": "`` is taken as a bare message.
    """

    task: str
    run_id: str
    sample_id: str
    deployed: bool
    suite_status: str  # "ran" | "incomplete" | "not_run"
    total: int
    expected: int | None = None
    collection_errors: int = 0
    collection_messages: tuple[str, ...] = ()
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class HealthFinding:
    """One candidate benchmark defect.

    ``test_id`` is the test (``never_passes``) or the test file (``collection_error``), else
    None. ``share`` is the fraction of the ``samples`` showing ``common_error`` (the raw message
    of its first example). ``examples`` are sample ids. ``suspected_cause`` is a short label
    (also explained in ``detail``) or "".
    """

    task: str
    kind: str
    test_id: str | None
    samples: int
    runs: int
    common_error: str
    share: float
    examples: tuple[str, ...]
    detail: str
    suspected_cause: str = ""


@dataclass(frozen=True, slots=True)
class NotEvaluableSample:
    """A sample the infrastructure left without a verdict: neither the agent's failure nor
    evidence about the benchmark; in no figure."""

    sample_id: str
    kind: str
    reason: str
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class HealthReport:
    """Findings sorted by severity, plus what the analysis saw."""

    findings: tuple[HealthFinding, ...] = ()
    samples: int = 0
    deployed_samples: int = 0
    test_records: int = 0
    unmatched_tests: int = 0
    min_samples: int = 2
    tampering: tuple[TamperedSample, ...] = ()  # samples with tampering attempts
    not_evaluable: tuple[NotEvaluableSample, ...] = ()  # no verdict: the infrastructure's

    def not_evaluable_line(self) -> str:
        """"3 samples not evaluable (dependency_repository_unreachable 3): …", or ''."""
        if not self.not_evaluable:
            return ""
        kinds = Counter(n.kind for n in self.not_evaluable)
        k = len(self.not_evaluable)
        return (f"{k} sample{'s' if k != 1 else ''} not evaluable ("
                + ", ".join(f"{kind} {c}" for kind, c in sorted(kinds.items()))
                + "): the infrastructure, not the agent, left them without a verdict; in no "
                "figure and never evidence of a benchmark defect")

    @property
    def deliberate_tampering(self) -> int:
        return sum(t.deliberate for t in self.tampering)

    def by_task(self) -> dict[str, list[HealthFinding]]:
        out: dict[str, list[HealthFinding]] = {}
        for f in self.findings:
            out.setdefault(f.task, []).append(f)
        return out

    def by_kind(self, kind: str) -> list[HealthFinding]:
        return [f for f in self.findings if f.kind == kind]

    def suspect_tests(self) -> set[tuple[str, str]]:
        """(task, test id or test file) of every finding about one test or file."""
        return {(f.task, f.test_id) for f in self.findings if f.test_id is not None}

    def suspect_tasks(self) -> set[str]:
        return {f.task for f in self.findings}


def tampering_check(samples: Iterable[TamperedSample]) -> tuple[TamperedSample, ...]:
    """Samples with tampering attempts, deliberate first (then by sample id)."""
    return tuple(tampered(samples))


# --------------------------------------------------------------------------- normalisation

_NORMALISERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I), "<uuid>"),
    (re.compile(r"\b0x[0-9a-f]+\b", re.I), "0x<addr>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<time>"),
    (re.compile(r"(?:/private)?(?:/var/folders|/tmp|/var/tmp)(?:/[^\s'\":,)]*)?"), "<tmp>"),
    (re.compile(r"[A-Za-z]:\\[^\s'\"]*?\\Temp\\[^\s'\":,)]*", re.I), "<tmp>"),
    (re.compile(r"\bline \d+"), "line <n>"),
    (re.compile(r"(\.py):\d+\b"), r"\1:<n>"),
    (re.compile(r"\b(port[=: ]\s*)\d+", re.I), r"\1<port>"),
    (re.compile(r"\b((?:127\.0\.0\.1|localhost|0\.0\.0\.0)):\d+"), r"\1:<port>"),
    (re.compile(r"\bpid[=: ]\s*\d+", re.I), "pid <n>"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|seconds)\b"), "<duration>"),
    (re.compile(r"(['\"])-?\d+(?:\.\d+)?\1"), r"\1<n>\1"),
    (re.compile(r"\b\d{6,}\b"), "<n>"),
    (re.compile(r"\s+"), " "),
)


def normalise_message(message: str) -> str:
    """The message with volatile parts (addresses, temp paths, line numbers, ports, uuids,
    timestamps, durations, quoted and long numbers) replaced, so one error seen in different
    samples or runs groups together. Status codes and short numbers are kept."""
    text = message.strip()
    for pattern, repl in _NORMALISERS:
        text = pattern.sub(repl, text)
    return text.strip()[:300]


class _Messages:
    """Counts of normalised messages, remembering the first raw message of each."""

    __slots__ = ("counts", "first")

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def add(self, message: str) -> None:
        key = normalise_message(message)
        self.counts[key] += 1
        self.first.setdefault(key, message.strip())

    def common(self) -> tuple[str, int]:
        """(raw display message, count) of the most frequent; ties go to the first seen."""
        if not self.counts:
            return "", 0
        key, n = self.counts.most_common(1)[0]
        return self.first[key], n


# ----------------------------------------------------------------------------- heuristics

_NO_MODULE = re.compile(r"No module named ['\"]([\w.]+)['\"]")
_CANNOT_IMPORT = re.compile(r"cannot import name ['\"](\w+)['\"] from ['\"]([\w.]+)['\"]")
_FIXTURE = re.compile(r"fixture ['\"](\w+)['\"] not found")


def _documented(module: str, readme: str) -> bool:
    path = module.replace(".", "/")
    last = module.rsplit(".", 1)[-1]
    return any(v in readme for v in (module, path, f"{path}.py", f"{last}.py"))


_UNREACHABLE = re.compile(
    r"Connection refused|ConnectionError|Max retries exceeded|Failed to establish a new "
    r"connection|NameResolutionError|Name or service not known|ConnectTimeout|"
    r"Service not available|server is not available", re.I)


def _from_issue(issue: SuiteIssue | None) -> tuple[str, str]:
    return (issue.cause, issue.explain()) if issue is not None else ("", "")


def suspected_cause(message: str, readme: str | None = None,
                    audit: SuiteAudit | None = None) -> tuple[str, str]:
    """(label, explanation) of a modest guess at why a golden test cannot pass, or ("", "").

    With the task's ``audit`` the error is matched to what reading the suite found, with its
    evidence: the issue explaining the module a ``No module named``/``cannot import name``
    error names (harness convention, missing test dependency, undocumented internal module),
    an unreachable URL for a connection error or a skip, a non-collectable suite for a suite
    that ran nothing. Without one, or when it explains nothing:

    * ``No module named 'conftest'`` → ``harness convention``: the suite imports its own
      conftest as a module, which needs tests/ on sys.path (a root pytest.ini's
      ``pythonpath``, never copied by the harness);
    * a missing well-known test package (``requests``, ``pytest_asyncio``…) →
      ``missing test dependency``;
    * any other missing module, or a name imported from one, that the README (when given) does
      not mention → ``undocumented internal module``;
    * ``fixture 'x' not found`` → ``missing fixture``.
    """
    m_mod = _NO_MODULE.search(message)
    m_name = _CANNOT_IMPORT.search(message)
    if audit is not None:
        module = m_mod.group(1) if m_mod else m_name.group(2) if m_name else None
        if module is not None and (issue := audit.for_module(module)) is not None:
            return _from_issue(issue)
        if module is None and _UNREACHABLE.search(message):
            found = _from_issue(audit.first(UNREACHABLE_URL))
            if found[0]:
                return found
    if m_mod:
        module = m_mod.group(1)
        if module.split(".")[0] == "conftest":
            return (HARNESS_CONVENTION,
                    f"the golden tests import their own '{module}' as a module, which works "
                    "only with tests/ on sys.path (e.g. a root pytest.ini with pythonpath = "
                    "tests); the harness copies only tests/ and runs pytest from the repo root")
        if module.split(".")[0] in TEST_PACKAGES:
            return (MISSING_DEPENDENCY,
                    f"the golden tests import '{module}', a test package missing from the test "
                    "environment (tests/requirements.txt?)")
        if readme is None:
            return (UNDOCUMENTED_MODULE,
                    f"the golden tests import '{module}', an internal module of the generated "
                    "repo; unless the README documents it, agents cannot know to create it")
        if not _documented(module, readme):
            return (UNDOCUMENTED_MODULE,
                    f"the golden tests import '{module}', which the task README does not "
                    "document, so agents cannot know to create it")
        return "", ""
    if m_name:
        name, module = m_name.group(1), m_name.group(2)
        if module.split(".")[0] not in TEST_PACKAGES and (
                readme is None or name not in readme):
            return (UNDOCUMENTED_MODULE,
                    f"the golden tests import '{name}' from '{module}', which the task README "
                    "does not document — agents cannot be expected to provide it")
        return "", ""
    if m := _FIXTURE.search(message):
        return ("missing fixture",
                f"the golden tests use a fixture '{m.group(1)}' that no conftest provides")
    return "", ""


def _suite_cause(message: str, readme: str | None, audit: SuiteAudit | None
                 ) -> tuple[str, str]:
    """The suspected cause of a suite that ran nothing or too little: the message's, else
    what the audit found that stops a whole suite."""
    found = suspected_cause(message, readme, audit) if message else ("", "")
    if not found[0] and audit is not None:
        found = _from_issue(audit.first(NON_COLLECTABLE, HARNESS_CONVENTION, UNREACHABLE_URL,
                                        MISSING_DEPENDENCY, UNDOCUMENTED_MODULE))
    return found


# ------------------------------------------------------------------------------- analysis


class _TestAgg:
    """Running evidence about one (task, test id) over deployed samples."""

    __slots__ = ("passed", "samples", "runs", "messages", "examples", "last_sample",
                 "failing_samples")

    def __init__(self) -> None:
        self.passed = False
        self.samples = 0
        self.runs: set[str] = set()
        self.messages = _Messages()
        self.examples: list[str] = []
        self.last_sample = ""
        self.failing_samples: list[int] = []


class _SuiteAgg:
    """Affected deployed samples of one (task, kind[, file])."""

    __slots__ = ("samples", "runs", "messages", "examples", "with_collection_errors")

    def __init__(self) -> None:
        self.samples = 0
        self.runs: set[str] = set()
        self.messages = _Messages()
        self.examples: list[str] = []
        self.with_collection_errors = 0

    def add(self, suite: SuiteRecord, message: str | None) -> None:
        self.samples += 1
        self.runs.add(suite.run_id)
        if message is not None:
            self.messages.add(message)
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(suite.sample_id)
        self.with_collection_errors += suite.collection_errors > 0


_FILE_MESSAGE = re.compile(r"^(\S+?\.py)(?:::\S*)?: (.*)$", re.S)


def split_collection_message(entry: str) -> tuple[str, str]:
    """``"tests/t.py: Error: x"`` → ``("tests/t.py", "Error: x")``; ``("", entry)`` otherwise."""
    m = _FILE_MESSAGE.match(entry.strip())
    return (m.group(1), m.group(2).strip()) if m else ("", entry.strip())


def analyse_health(suites: Iterable[SuiteRecord], tests: Iterable[TestRecord], *,
                   min_samples: int = 2, readmes: Mapping[str, str] | None = None,
                   audits: Mapping[str, SuiteAudit] | None = None) -> HealthReport:
    """Candidate benchmark defects in the evaluations described by ``suites`` and ``tests``.

    ``suites`` is consumed first, then ``tests``, each exactly once. ``readmes`` (task → README
    text) sharpens the "undocumented module" heuristic; without it any missing non-test module
    is suspected. ``audits`` (task → :class:`SuiteAudit`) tells causes apart with evidence and
    adds ``suite_defect`` findings for the tasks the suites cover.
    """
    min_samples = max(1, min_samples)
    # sample key -> index among deployed samples, or -1 for a sample that did not deploy
    samples: dict[tuple[str, str, str], int] = {}
    n_deployed = 0
    collection: dict[tuple[str, str], _SuiteAgg] = {}
    zero: dict[str, _SuiteAgg] = {}
    all_skipped: dict[str, int] = {}  # task -> samples whose every collected test was skipped
    fewer: dict[str, _SuiteAgg] = {}
    expected_of: dict[str, int] = {}
    task_samples: dict[str, _SuiteAgg] = {}
    for s in suites:
        task_samples.setdefault(s.task, _SuiteAgg()).add(s, None)
        key = (s.task, s.run_id, s.sample_id)
        if not s.deployed:
            samples.setdefault(key, -1)
            continue
        if samples.get(key, -1) < 0:
            samples[key] = n_deployed
            n_deployed += 1
        first_message = None
        files_seen: set[str] = set()
        for entry in s.collection_messages:
            file, message = split_collection_message(entry)
            first_message = first_message or message
            if file in files_seen:
                continue
            files_seen.add(file)
            collection.setdefault((s.task, file), _SuiteAgg()).add(s, message)
        if s.collection_errors and not s.collection_messages:
            collection.setdefault((s.task, ""), _SuiteAgg()).add(s, None)
        if s.total == 0:
            zero.setdefault(s.task, _SuiteAgg()).add(s, first_message)
            if s.skipped:
                all_skipped[s.task] = all_skipped.get(s.task, 0) + 1
        elif s.expected and s.total < s.expected * INCOMPLETE_RATIO:
            fewer.setdefault(s.task, _SuiteAgg()).add(s, first_message)
            expected_of[s.task] = max(expected_of.get(s.task, 0), s.expected)

    aggs: dict[tuple[str, str], _TestAgg] = {}
    any_pass: set[int] = set()
    n_tests = unmatched = 0
    for t in tests:
        n_tests += 1
        index = samples.get((t.task, t.run_id, t.sample_id))
        if index is None:
            unmatched += 1
            continue
        if index < 0:
            continue
        if t.outcome not in _RAN:
            continue
        agg = aggs.get((t.task, t.test_id))
        if agg is None:
            agg = aggs[(t.task, t.test_id)] = _TestAgg()
        if t.outcome == "passed":
            any_pass.add(index)
            if not agg.passed:
                agg.passed = True
                agg.messages = _Messages()
                agg.examples = []
                agg.failing_samples = []
            continue
        if agg.passed or agg.last_sample == t.sample_id:
            continue
        agg.last_sample = t.sample_id
        agg.samples += 1
        agg.runs.add(t.run_id)
        agg.messages.add(t.message)
        agg.failing_samples.append(index)
        if len(agg.examples) < MAX_EXAMPLES:
            agg.examples.append(t.sample_id)

    readmes = readmes or {}
    audits = audits or {}
    findings: list[HealthFinding] = []
    for (task, file), sagg in collection.items():
        if sagg.samples < min_samples:
            continue
        findings.append(_collection_finding(task, file, sagg, readmes.get(task),
                                            audits.get(task)))
    for task, sagg in zero.items():
        cause, why = _suite_cause(sagg.messages.common()[0], readmes.get(task),
                                  audits.get(task))
        findings.append(_finding(
            task, "zero_collected", None, sagg,
            f"In {_n(sagg.samples, 'deployed sample')} the suite counted no test at all: "
            + (("every collected test was skipped" if all_skipped.get(task) == sagg.samples else
                f"every test was skipped in {all_skipped[task]} of them, the others crashed, "
                "were cut short or collected nothing") if all_skipped.get(task) else
               "the test run crashed, was cut short or collected nothing")
            + " (infrastructure or suite defect, not a failing agent)."
            + (f" Suspected cause: {cause}: {why}." if cause else ""), cause))
    for (task, test_id), agg in aggs.items():
        if agg.passed or agg.samples < min_samples:
            continue
        findings.append(_never_passes_finding(task, test_id, agg, any_pass, readmes.get(task),
                                              audits.get(task)))
    for task, sagg in fewer.items():
        coll = ""
        if sagg.with_collection_errors:
            who = ("It" if sagg.samples == 1 else
                   "All of them" if sagg.with_collection_errors == sagg.samples else
                   f"{sagg.with_collection_errors} of them")
            coll = f" {who} had collection errors."
        cause, why = _suite_cause(sagg.messages.common()[0], readmes.get(task),
                                  audits.get(task))
        findings.append(_finding(
            task, "fewer_than_expected", None, sagg,
            f"In {_n(sagg.samples, 'deployed sample')} the suite counted fewer than "
            f"{INCOMPLETE_RATIO:.0%} of the {expected_of.get(task, 0)} tests the golden suite "
            f"has, so part of it never ran.{coll}"
            + (f" Suspected cause: {cause}: {why}." if cause else ""), cause))
    findings.extend(_audit_findings(findings, task_samples, audits))
    findings.sort(key=lambda f: (_RANK[f.kind], -f.samples, f.task, f.test_id or ""))
    return HealthReport(tuple(findings), samples=len(samples), deployed_samples=n_deployed,
                        test_records=n_tests, unmatched_tests=unmatched,
                        min_samples=min_samples)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _same_error(count: int, samples: int) -> str:
    if count == samples:
        return ", always with the same error." if samples > 1 else "."
    return f", {count} of them with the most common error."


def _finding(task: str, kind: str, test_id: str | None, agg: _SuiteAgg | _TestAgg,
             detail: str, cause: str = "") -> HealthFinding:
    common, count = agg.messages.common()
    return HealthFinding(
        task=task, kind=kind, test_id=test_id, samples=agg.samples, runs=len(agg.runs),
        common_error=common, share=round(count / agg.samples, 4) if agg.samples else 0.0,
        examples=tuple(agg.examples), detail=detail, suspected_cause=cause)


def _audit_findings(findings: list[HealthFinding], task_samples: Mapping[str, _SuiteAgg],
                    audits: Mapping[str, SuiteAudit]) -> list[HealthFinding]:
    """A ``suite_defect`` finding per blocking audit issue of a task the suites cover that
    no other finding already gives as its suspected cause."""
    out: list[HealthFinding] = []
    for task, agg in task_samples.items():
        audit = audits.get(task)
        if audit is None:
            continue
        named = " ".join(f.detail for f in findings if f.task == task)
        for issue in audit.defects:
            if issue.summary in named:
                continue
            out.append(HealthFinding(
                task=task, kind="suite_defect",
                test_id=issue.files[0] if issue.files else None, samples=agg.samples,
                runs=len(agg.runs), common_error=str(issue.evidence[0]) if issue.evidence
                else "", share=1.0, examples=tuple(agg.examples),
                detail=(f"Found by reading the golden suite (it concerns all "
                        f"{_n(agg.samples, 'sample')} of this task): {issue.cause}: "
                        f"{issue.explain()}."),
                suspected_cause=issue.cause))
    return out


def _collection_finding(task: str, file: str, agg: _SuiteAgg, readme: str | None,
                        audit: SuiteAudit | None = None) -> HealthFinding:
    common, _ = agg.messages.common()
    cause, why = suspected_cause(common, readme, audit)
    what = f"{file} fails" if file else "Test files fail"
    detail = (f"{what} to collect in {_n(agg.samples, 'deployed sample')} across "
              f"{_n(len(agg.runs), 'run')}"
              + (f": {common}." if common else " (no message recorded).")
              + (f" Suspected cause: {cause}: {why}." if cause else ""))
    return _finding(task, "collection_error", file or None, agg, detail, cause)


def _never_passes_finding(task: str, test_id: str, agg: _TestAgg, any_pass: set[int],
                          readme: str | None, audit: SuiteAudit | None = None
                          ) -> HealthFinding:
    common, count = agg.messages.common()
    cause, why = suspected_cause(common, readme, audit)
    broken = sum(1 for i in agg.failing_samples if i not in any_pass)
    detail = (f"No deployed sample passes this test: it failed in {_n(agg.samples, 'sample')} "
              f"across {_n(len(agg.runs), 'run')}"
              + (_same_error(count, agg.samples) if common else ".")
              + (f" Suspected cause: {cause}: {why}." if cause else "")
              + (f" In {broken} of these samples no test passed at all (a broken service "
                 "is weaker evidence against the test)." if broken else ""))
    return _finding(task, "never_passes", test_id, agg, detail, cause)


# ------------------------------------------------------------------------------- adapters


def _is_collection_case(case_id: str, message: str) -> bool:
    return message.strip() == "collection failure" or "::" not in case_id


def records_from_samples(samples: Iterable[SampleResult]
                         ) -> tuple[list[SuiteRecord], list[TestRecord]]:
    """Records of loaded samples. Collection failures (pytest's ``collection failure`` cases)
    become ``SuiteRecord.collection_messages``, not test records. Counts-only samples (stock
    RepoGenesis reports) give a suite record and no test records."""
    suites: list[SuiteRecord] = []
    tests: list[TestRecord] = []
    for s in samples:
        messages: list[str] = []
        for case in s.tests.cases:
            if case.outcome == "error" and _is_collection_case(case.id, case.message):
                messages.append(f"{case.file or case.id}: {case.first_message_line}")
                continue
            tests.append(TestRecord(s.task, s.run_id, s.sample_id, case.id, str(case.outcome),
                                    case.first_message_line if case.outcome.is_failure else ""))
        suites.append(SuiteRecord(
            task=s.task, run_id=s.run_id, sample_id=s.sample_id,
            deployed=s.deployment.success, suite_status=str(s.tests.status),
            total=s.tests.total, expected=s.tests.expected,
            collection_errors=max(s.tests.collection_errors, len(messages)),
            collection_messages=tuple(messages)))
    return suites, tests


def _predictions_key(run: Run) -> str | None:
    if not run.source.predictions_dir:
        return None
    base = run.source.path if run.source.path.is_dir() else run.source.path.parent
    try:
        return str((base / run.source.predictions_dir).resolve())
    except OSError:  # pragma: no cover - defensive
        return str(Path(run.source.predictions_dir))


def records_from_runs(runs: Iterable[Run]) -> tuple[list[SuiteRecord], list[TestRecord]]:
    """Records of every sample of ``runs``, skipping counts-only runs (stock reports) of the same
    predictions as a run with per-test results: they are the same evaluation seen twice and
    would double the evidence."""
    runs = list(runs)
    covered = {_predictions_key(r) for r in runs if r.has_test_cases} - {None}
    keep = [r for r in runs if r.has_test_cases or _predictions_key(r) not in covered]
    return records_from_samples(s for r in keep for s in r.samples)
