"""Per-test failure triage: the items a failing sample is made of, their roots, and what is
suggested for each.

A *failure item* is one failing test of a sample, or the sample itself when it has no test to
blame (a failed deployment, a suite that did not run or collected partially). Items sharing one
cause form a *root group*: 23 setup errors from one fixture crash, every test after the service
died. The annotator labels the group's root once and the group follows (:attr:`Label.follows
<inspector.model.labels.label_file.Label.follows>`); a label on a member overrides.

A :class:`TestSuggestion` is what the suggestion engine proposes for one item: a category of
the taxonomy or ``None`` (unsure: :attr:`competing` holds the readings it could not choose
between), a confidence in ``[0, 1]``, the rule that decided, a reason that names its evidence
(README line numbers, ``file:line`` in the repo and the suite), and the anchors themselves.
:class:`Confirmation` is the outcome of a causal re-run with a remedy applied (evidence only;
the recorded run never changes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.model.labels.label_file import Anchor, ItemRef

UNSURE_BELOW = 0.55
"""A suggestion whose confidence is below this is shown as "unsure" (category ``None``)."""

# Kinds of failure item.
TEST = "test"  # a failing (failed / error) test case
DEPLOY_FAILED = "deploy_failed"  # the service never became healthy
SUITE_NOT_RUN = "suite_not_run"  # no test ran (all skipped, nothing collected, runner crash)
SUITE_INCOMPLETE = "suite_incomplete"  # some test files did not collect
ITEM_KINDS = (TEST, DEPLOY_FAILED, SUITE_NOT_RUN, SUITE_INCOMPLETE)


@dataclass(frozen=True, slots=True)
class FailureItem:
    """One thing an annotator labels: a failing test, or a sample-level failure."""

    sample: str  # sample id: run/task/index
    test_id: str | None  # pytest node id; None for a sample-level item
    kind: str  # one of ITEM_KINDS
    message: str = ""  # first line of what failed
    file: str | None = None  # test file (relative to the repo) when known
    line: int | None = None

    @property
    def ref(self) -> ItemRef:
        return ItemRef(self.sample, self.test_id)

    @property
    def key(self) -> str:
        return self.ref.key


@dataclass(frozen=True, slots=True)
class RootGroup:
    """Items of one sample sharing one cause; ``root`` is the item labelled for the group."""

    root: FailureItem
    members: tuple[FailureItem, ...]  # downstream items, root excluded
    why: str = ""  # how the members were tied to the root ("same fixture error at …")

    @property
    def items(self) -> tuple[FailureItem, ...]:
        return (self.root, *self.members)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a failure: a category (``None`` = no category at all), how strongly the
    evidence supports it (``weight`` in ``[0, 1]``), the rule and the reason."""

    category: str
    weight: float
    rule: str
    reason: str
    anchors: tuple[Anchor, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "weight": round(self.weight, 3), "rule": self.rule,
                "reason": self.reason}


# Kinds of mechanical remedy a causal re-run can apply.
INSTALL_TEST_PACKAGE = "install_test_package"  # a package the suite imports but nobody installs
ADD_TASK_FILE = "add_task_file"  # a task file the harness does not copy (README.md, pytest.ini)
RUN_ALONE = "run_alone"  # run the failing test alone (pollution between tests)
RUN_AS_SCRIPT = "run_as_script"  # a script-style suite run the way its README says
INSTALL_REPO_PACKAGE = "install_repo_package"  # a package the repo imports, missing from its reqs
REMEDY_KINDS = (INSTALL_TEST_PACKAGE, ADD_TASK_FILE, RUN_ALONE, RUN_AS_SCRIPT,
                INSTALL_REPO_PACKAGE)


@dataclass(frozen=True, slots=True)
class Remedy:
    """A mechanical change that would remove a suspected cause: ``target`` is the package
    (pip requirement), the task file (path relative to the task) or the test id; ``tests`` the
    tests whose outcome decides (empty: the whole suite)."""

    kind: str  # one of REMEDY_KINDS
    target: str
    tests: tuple[str, ...] = ()

    def describe(self) -> str:
        return {
            INSTALL_TEST_PACKAGE: f"install {self.target} for the tests",
            ADD_TASK_FILE: f"add the task's {self.target} the harness does not copy",
            RUN_ALONE: f"run {self.target} alone",
            RUN_AS_SCRIPT: f"run {self.target} as its README says",
            INSTALL_REPO_PACKAGE: f"install {self.target} with the repo's requirements",
        }.get(self.kind, f"{self.kind} {self.target}")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "target": self.target, "tests": list(self.tests),
                "description": self.describe()}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A causal re-run: the remedy applied in a fresh sandbox and what happened."""

    remedy: str  # e.g. "install pandas for the tests", "run the test alone"
    supports: bool | None  # whether the outcome supports the suggestion (None: inconclusive)
    outcome: str  # "with pandas installed, 64 tests collect; 37 pass"
    passed: int = 0
    failed: int = 0
    collected: int = 0
    backend: str = ""  # docker | local
    log: str | None = None  # path of the re-run's log, relative to the run folder

    def to_json(self) -> dict[str, Any]:
        return {"remedy": self.remedy, "supports": self.supports, "outcome": self.outcome,
                "passed": self.passed, "failed": self.failed, "collected": self.collected,
                "backend": self.backend, "log": self.log}


@dataclass(frozen=True, slots=True)
class TestSuggestion:
    """The suggestion for one failure item (see the module docstring)."""

    __test__ = False  # not a pytest test class

    item: FailureItem
    category: str | None  # None: no suggestion ("unsure" when competing readings exist)
    confidence: float
    rule: str
    reason: str
    anchors: tuple[Anchor, ...] = ()
    root: str | None = None  # key of the item's root; None when the item is a root
    competing: tuple[Reading, ...] = ()  # the readings weighed (best first)
    confirmation: Confirmation | None = None
    remedy: Remedy | None = None  # a mechanical remedy a causal re-run could try

    @property
    def unsure(self) -> bool:
        return self.category is None and bool(self.competing)

    @property
    def is_root(self) -> bool:
        return self.root is None

    def to_json(self) -> dict[str, Any]:
        return {
            "sample": self.item.sample, "test_id": self.item.test_id, "kind": self.item.kind,
            "category": self.category, "unsure": self.unsure,
            "confidence": round(self.confidence, 3), "rule": self.rule, "reason": self.reason,
            "anchors": [a.to_json() for a in self.anchors], "root": self.root,
            "competing": [r.to_json() for r in self.competing],
            "remedy": self.remedy.to_json() if self.remedy else None,
            "confirmation": self.confirmation.to_json() if self.confirmation else None,
        }


@dataclass(frozen=True, slots=True)
class SampleTriage:
    """Every item of one sample with its root group and suggestion."""

    sample: str
    groups: tuple[RootGroup, ...]
    suggestions: tuple[TestSuggestion, ...] = field(default=())

    def for_item(self, key: str) -> TestSuggestion | None:
        for s in self.suggestions:
            if s.item.key == key:
                return s
        return None
