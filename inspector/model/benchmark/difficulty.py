"""RepoGenesis task difficulty (Easy / Medium / Hard) from a reference implementation's metrics.

Source: the RepoGenesis repository's ``analyze_difficulty.py`` (Python) and
``analyze_java_difficulty.py`` (Java), summarised in ``../shared/reference/
repogenesis-harness.md`` §6. The paper scores a task on its golden-oracle implementation (test
files included), never on predictions. The composite score is the sum of five bands (possible
range 2.0–10.0); a band gives the points of the first threshold the value is strictly above:

=====================  ========================================  ===================================
metric                 Python                                    Java
=====================  ========================================  ===================================
LOC                    >1500: 2.5, >900: 1.5, >500: 1.0, 0.5      same
complexity             >500: 3.0, >300: 2.0, >200: 1.2, 0.6       same
files (.py / .java)    >20: 1.5, >12: 1.0, >5: 0.6, 0.3           >15: 1.5, >8: 1.0, >5: 0.6, 0.3
API endpoints          >12: 1.5, >8: 1.0, >5: 0.6, 0.3            >15: 1.5, >10: 1.0, >6: 0.6, 0.3
functions + classes    >100: 1.5, >60: 1.0, >40: 0.6, 0.3         >100: 1.5, >80: 1.0, >50: 0.6, 0.3
=====================  ========================================  ===================================

Label: score ≥ 7.0 → Hard, ≥ 4.5 → Medium, else Easy; a task without an oracle → Unclassified
(then the README's spec-complexity score, :mod:`.spec_complexity`, is what we can say).

The metrics themselves (how LOC, complexity, functions... are counted on the oracle) follow the
paper's own definitions; :mod:`inspector.services.analysis.oracle` computes them. The README's
API endpoints are the paper's count too: unique matches of :data:`PAPER_ENDPOINT_RE` in the
oracle's ``README.md`` (as written, so ``GET /x`` and ``get /x`` are two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

EASY, MEDIUM, HARD, UNCLASSIFIED = "Easy", "Medium", "Hard", "Unclassified"
HARD_AT = 7.0
MEDIUM_AT = 4.5

# (threshold, points) in decreasing threshold order, and the points below every threshold.
Band = tuple[tuple[tuple[float, float], ...], float]
LOC_BAND: Band = (((1500, 2.5), (900, 1.5), (500, 1.0)), 0.5)
COMPLEXITY_BAND: Band = (((500, 3.0), (300, 2.0), (200, 1.2)), 0.6)
BANDS: dict[str, dict[str, Band]] = {
    "python": {
        "loc": LOC_BAND,
        "complexity": COMPLEXITY_BAND,
        "files": (((20, 1.5), (12, 1.0), (5, 0.6)), 0.3),
        "api_endpoints": (((12, 1.5), (8, 1.0), (5, 0.6)), 0.3),
        "functions_classes": (((100, 1.5), (60, 1.0), (40, 0.6)), 0.3),
    },
    "java": {
        "loc": LOC_BAND,
        "complexity": COMPLEXITY_BAND,
        "files": (((15, 1.5), (8, 1.0), (5, 0.6)), 0.3),
        "api_endpoints": (((15, 1.5), (10, 1.0), (6, 0.6)), 0.3),
        "functions_classes": (((100, 1.5), (80, 1.0), (50, 0.6)), 0.3),
    },
}
# The paper's README endpoint count (case-insensitive; ``set`` of the matches as written).
PAPER_ENDPOINT_RE = re.compile(r"(?:POST|GET|PUT|DELETE|PATCH)\s+[/\w\-{}:]+", re.I)


@dataclass(frozen=True, slots=True)
class OracleMetrics:
    """A reference implementation's metrics, counted as the paper counts them."""

    language: str  # "python" | "java"
    files: int  # .py / .java files (the paper's python_files / java_files)
    loc: int
    complexity: int
    functions: int
    classes: int
    api_endpoints: int
    tokens: int = 0  # whitespace-split tokens (Python only in the paper; not scored)
    test_files: int = 0  # files with 'test' in their path (Python only; not scored)
    endpoint_lines: tuple[int, ...] = ()  # README lines of the counted endpoint matches
    skipped: tuple[tuple[str, str], ...] = ()  # (file, reason) left out of the counts

    def to_json(self) -> dict[str, object]:
        return {"language": self.language, "files": self.files, "loc": self.loc,
                "complexity": self.complexity, "functions": self.functions,
                "classes": self.classes, "api_endpoints": self.api_endpoints,
                "tokens": self.tokens, "test_files": self.test_files,
                "endpoint_lines": list(self.endpoint_lines),
                "skipped": [{"file": f, "reason": r} for f, r in self.skipped]}


@dataclass(frozen=True, slots=True)
class BandScore:
    """One metric's contribution: its value, the threshold it cleared (None: below all)."""

    metric: str
    value: int
    points: float
    above: float | None


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A task's RepoGenesis difficulty; ``label`` Unclassified (score None) without an oracle."""

    label: str
    score: float | None = None
    bands: tuple[BandScore, ...] = ()
    metrics: OracleMetrics | None = None
    note: str = ""
    source: str = field(default="RepoGenesis analyze_difficulty.py / "
                                 "analyze_java_difficulty.py (harness reference §6)")

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "score": self.score,
                "bands": [{"metric": b.metric, "value": b.value, "points": b.points,
                           "above": b.above} for b in self.bands],
                "metrics": self.metrics.to_json() if self.metrics else None,
                "note": self.note}


def band_points(value: float, band: Band) -> tuple[float, float | None]:
    """(points, threshold cleared) of ``value`` in ``band``: the first threshold it is
    strictly greater than, else the floor points (threshold None)."""
    steps, floor = band
    for threshold, points in steps:
        if value > threshold:
            return points, threshold
    return floor, None


def label_for(score: float) -> str:
    """Hard at ≥ 7.0, Medium at ≥ 4.5, else Easy (the paper's cut-offs)."""
    if score >= HARD_AT:
        return HARD
    return MEDIUM if score >= MEDIUM_AT else EASY


def classify(metrics: OracleMetrics) -> Difficulty:
    """The paper's composite score and label for ``metrics``."""
    bands = BANDS["java" if metrics.language == "java" else "python"]
    values = {"loc": metrics.loc, "complexity": metrics.complexity, "files": metrics.files,
              "api_endpoints": metrics.api_endpoints,
              "functions_classes": metrics.functions + metrics.classes}
    scored = []
    for name, band in bands.items():
        points, above = band_points(values[name], band)
        scored.append(BandScore(name, values[name], points, above))
    score = round(sum(b.points for b in scored), 2)
    return Difficulty(label_for(score), score, tuple(scored), metrics)


def unclassified(note: str = "no reference implementation: the spec score is used") -> Difficulty:
    return Difficulty(UNCLASSIFIED, note=note)


def paper_endpoints(readme: str) -> tuple[int, tuple[int, ...]]:
    """The paper's API endpoint count of ``readme`` and the (1-based) lines of first matches."""
    seen: dict[str, int] = {}
    for m in PAPER_ENDPOINT_RE.finditer(readme):
        seen.setdefault(m.group(0), readme.count("\n", 0, m.start()) + 1)
    return len(seen), tuple(sorted(set(seen.values())))
