"""RepoGenesis difficulty bands (harness reference §6) at every boundary."""

from __future__ import annotations

import pytest

from inspector.model.benchmark.difficulty import (
    BANDS,
    OracleMetrics,
    band_points,
    classify,
    label_for,
    paper_endpoints,
    unclassified,
)

# (language, metric): [(threshold, points above it)...], points at or below the lowest
EXPECTED = {
    ("python", "loc"): ([(1500, 2.5), (900, 1.5), (500, 1.0)], 0.5),
    ("python", "complexity"): ([(500, 3.0), (300, 2.0), (200, 1.2)], 0.6),
    ("python", "files"): ([(20, 1.5), (12, 1.0), (5, 0.6)], 0.3),
    ("python", "api_endpoints"): ([(12, 1.5), (8, 1.0), (5, 0.6)], 0.3),
    ("python", "functions_classes"): ([(100, 1.5), (60, 1.0), (40, 0.6)], 0.3),
    ("java", "loc"): ([(1500, 2.5), (900, 1.5), (500, 1.0)], 0.5),
    ("java", "complexity"): ([(500, 3.0), (300, 2.0), (200, 1.2)], 0.6),
    ("java", "files"): ([(15, 1.5), (8, 1.0), (5, 0.6)], 0.3),
    ("java", "api_endpoints"): ([(15, 1.5), (10, 1.0), (6, 0.6)], 0.3),
    ("java", "functions_classes"): ([(100, 1.5), (80, 1.0), (50, 0.6)], 0.3),
}


@pytest.mark.parametrize(("language", "metric"), sorted(EXPECTED))
def test_band_at_each_boundary(language: str, metric: str) -> None:
    steps, floor = EXPECTED[(language, metric)]
    band = BANDS[language][metric]
    below = floor
    for threshold, points in reversed(steps):
        assert band_points(threshold, band)[0] == below  # "greater than", not "at least"
        assert band_points(threshold + 1, band) == (points, threshold)
        below = points
    assert band_points(0, band) == (floor, None)


@pytest.mark.parametrize(("score", "label"), [
    (2.0, "Easy"), (4.49, "Easy"), (4.5, "Medium"), (6.99, "Medium"), (7.0, "Hard"),
    (10.0, "Hard")])
def test_label_cut_offs(score: float, label: str) -> None:
    assert label_for(score) == label


def _m(language: str, **kw: int) -> OracleMetrics:
    base = {"files": 0, "loc": 0, "complexity": 0, "functions": 0, "classes": 0,
            "api_endpoints": 0}
    base.update(kw)
    return OracleMetrics(language, **base)  # type: ignore[arg-type]


def test_smallest_and_largest_scores() -> None:
    assert classify(_m("python")).score == 2.0
    assert classify(_m("python")).label == "Easy"
    big = _m("java", files=16, loc=1501, complexity=501, functions=90, classes=11,
             api_endpoints=16)
    d = classify(big)
    assert (d.score, d.label) == (10.0, "Hard")
    assert [(b.metric, b.points) for b in d.bands] == [
        ("loc", 2.5), ("complexity", 3.0), ("files", 1.5), ("api_endpoints", 1.5),
        ("functions_classes", 1.5)]


def test_python_and_java_bands_differ() -> None:
    # 16 files: Python's >12 band (1.0), Java's >15 band (1.5); 13 endpoints: 1.5 vs 1.0
    py = classify(_m("python", files=16, api_endpoints=13))
    java = classify(_m("java", files=16, api_endpoints=13))
    # Python: 0.5 + 0.6 + 1.0 + 1.5 + 0.3; Java: 0.5 + 0.6 + 1.5 + 1.0 + 0.3
    assert py.score == java.score == 3.9
    assert {b.metric: b.points for b in py.bands}["files"] == 1.0
    assert {b.metric: b.points for b in java.bands}["files"] == 1.5


def test_medium_by_hand() -> None:
    # LOC 950 (1.5) + complexity 250 (1.2) + 6 files (0.6) + 9 APIs (1.0) + 45 (0.6) = 4.9
    d = classify(_m("python", loc=950, complexity=250, files=6, api_endpoints=9,
                    functions=40, classes=5))
    assert (d.score, d.label) == (4.9, "Medium")


def test_unclassified_says_the_spec_score_is_used() -> None:
    d = unclassified()
    assert d.label == "Unclassified" and d.score is None
    assert "spec score" in d.note


def test_paper_endpoint_count() -> None:
    readme = "GET /a\nget /a\n\nPOST /b/{id} and POST /b/{id}\nDELETE\n"
    # unique as written: 'GET /a' and 'get /a' are two, the repeated POST one
    assert paper_endpoints(readme) == (3, (1, 2, 4))
