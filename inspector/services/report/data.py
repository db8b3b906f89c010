"""What the HTML report shows, loaded and capped: plain data, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.model.labels.agreement import AgreementReport
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.results.verdict import Verdict
from inspector.model.untrusted.shown_paths import PathScope
from inspector.services.analysis.overview import CategoryTables
from inspector.services.figures.corrected import Corrections
from inspector.services.figures.health import HealthReport
from inspector.services.figures.metrics import RunMetrics
from inspector.services.report.caps import Caps, Cut


@dataclass(frozen=True, slots=True)
class RunColumn:
    """One run: its summary figures and how its column is headed."""

    metrics: RunMetrics
    failing: int
    """Samples that did not pass."""
    labelled: int
    """Failing samples with at least one label."""


@dataclass(frozen=True, slots=True)
class CellSample:
    """One sample in a matrix cell."""

    sample_id: str
    sample: int
    verdict: Verdict
    passed: int
    total: int
    failed_phase: str
    collection_errors: int
    anchor: str
    """The sample's section ("" when the caps left it out)."""


@dataclass(frozen=True, slots=True)
class FailingTest:
    """One failing test as embedded: id and outcome whole, message and traceback cut."""

    test_id: str
    outcome: str
    message: Cut
    traceback: Cut


@dataclass(frozen=True, slots=True)
class SampleLabel:
    """One label of a failing sample or of one of its tests, as its section shows it."""

    test: str
    """The test it is about ("" for the sample)."""
    who: str
    """The annotator, or "adjudication (by NAME)"."""
    category: str
    confidence: str
    reason: str
    """The annotator's note, else the reason given with the label's last change."""
    confirmation: str = ""
    """The causal re-run kept with it ("supports: <outcome>"), "" when none."""
    suggestion: tuple[str, str, str] | None = None
    """The suggestion it was made with: category, confidence, reason."""
    final: tuple[str | None, str] | None = None
    """The item's final category (None: unresolved) and why ("adjudicated", "agreed", …),
    on its first label."""

    @property
    def size(self) -> int:
        return len(self.reason) + sum(map(len, self.suggestion or ()))


@dataclass(frozen=True, slots=True)
class SampleDetail:
    """A failing sample's section: why it failed, its failing tests and its log's tail."""

    anchor: str
    sample_id: str
    run_id: str
    task: str
    sample: int
    verdict: Verdict
    passed: int
    total: int
    headline: str
    """The deployment's or the suite's own message (cut), "" when none."""
    tests: tuple[FailingTest, ...]
    tests_left_out: int
    log: Cut | None
    log_missing: str
    """Why there is no log ("" when there is one)."""
    replay: str
    """The command that replays the whole log."""
    labels: tuple[SampleLabel, ...] = ()

    @property
    def size(self) -> int:
        """Characters of untrusted text embedded (what :attr:`Caps.detail_chars` counts)."""
        n = len(self.headline) + sum(len(t.test_id) + len(t.message.text)
                                     + len(t.traceback.text) for t in self.tests)
        return n + (len(self.log.text) if self.log else 0) + sum(x.size for x in self.labels)


@dataclass(frozen=True, slots=True)
class Plot:
    """A figure as inline SVG (``svg`` "" when there is none, ``skipped`` saying why)."""

    name: str
    description: str
    svg: str = ""
    skipped: str = ""


@dataclass(frozen=True, slots=True)
class Labels:
    """The labels folder's tables and agreement (each None when there is nothing to show)."""

    folder: str
    taxonomy: Taxonomy | None
    categories: CategoryTables | None
    agreement: AgreementReport | None
    problems: tuple[str, ...] = ()


@dataclass
class ReportInput:
    """Everything the page shows, in the order it shows it."""

    title: str
    path: str
    """The runs folder as the user named it (used in the commands the page suggests)."""
    runs: list[RunColumn]
    tasks: list[str]
    cells: dict[tuple[str, int], list[CellSample]]
    """(task, run index) -> its samples, by sample number."""
    health: HealthReport | None
    labels: Labels | None
    plots: list[Plot]
    details: list[SampleDetail]
    failing_samples: int
    """Failing samples over every run (those with a section or not)."""
    caps: Caps = field(default_factory=Caps)
    notes: list[str] = field(default_factory=list)
    """Problems met while loading (shown, never fatal)."""
    tier_source: str = ""
    corrected: Corrections | None = None
    """Figures with the tests labelled 'not-model' left out (docs/errata.md); None without
    labels."""
    paths: PathScope = field(default_factory=PathScope)
    """How the page shows absolute paths (the runs folder and the runs, relative)."""
