"""The analysis services: tasks with and without a reference implementation, the paper's
folder rules, the metrics cache, predictions layouts and the process pool."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.services.analysis.cache import MetricsCache
from inspector.services.analysis.oracle import oracle_metrics_for
from inspector.services.analysis.samples import analyze_code, code_metrics_many
from inspector.services.analysis.tasks import analyze_tasks

ROOT = Path(__file__).resolve().parents[3]
TASKS = ROOT / "sample_runs" / "tasks"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog index and the metrics cache go to a temporary folder, never the user's."""
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path_factory.mktemp("cache")))


APP = "def f(x):\n    if x > 0:\n        return 1\n    return 0\n"


def test_tasks_with_and_without_an_oracle(tmp_path: Path) -> None:
    oracle = tmp_path / "oracle"
    (oracle / "flask").mkdir(parents=True)
    (oracle / "flask" / "app.py").write_text(APP)
    report = analyze_tasks(TASKS, oracle)
    by = {t.name: t for t in report.tasks}
    assert len(by) == 22
    flask = by["flask"]
    d = flask.difficulty
    # 4 LOC, complexity 1 + If + Compare = 3, 1 file, 1 function; no README in the oracle:
    # the task's README gives the paper's endpoint count, 5: GET /health, POST /echo,
    # GET /sum, and the regex (no word boundary, case-insensitive) also matches "put
    # conventions" in "input/output conventions" (l.5) and "put is" in l.46
    assert d.metrics is not None
    assert (d.metrics.loc, d.metrics.complexity, d.metrics.files, d.metrics.functions,
            d.metrics.api_endpoints) == (4, 3, 1, 1, 5)
    assert d.metrics.endpoint_lines == (5, 15, 29, 46, 48)
    assert (d.label, d.score) == ("Easy", 2.0)
    assert flask.oracle == oracle / "flask"
    eve = by["eve"]
    assert eve.difficulty.label == "Unclassified" and eve.difficulty.score is None
    assert str(oracle) in eve.difficulty.note and "spec score" in eve.difficulty.note
    assert eve.tier == eve.spec.tier == "low"


def test_paper_folder_rules(tmp_path: Path) -> None:
    py = tmp_path / "py"
    for sub in ("", "data/", "venv/", "logs/", "tests/"):
        (py / sub).mkdir(parents=True, exist_ok=True)
        (py / sub / "m.py").write_text(APP)
    o = oracle_metrics_for(py, "python")
    assert o.files == 2 and o.test_files == 1  # m.py and tests/m.py
    java = tmp_path / "java" / "src" / "main" / "java" / "com" / "x"
    for sub in ("", "data/"):  # a Java package named data is source, not data
        (java / sub).mkdir(parents=True, exist_ok=True)
        (java / sub / "A.java").write_text("class A { void a() { if (true) {} } }\n")
    (tmp_path / "java" / "README.md").write_text("## API\n- GET /a\n- post /b/{id}\n")
    o = oracle_metrics_for(tmp_path / "java", "java")
    assert (o.files, o.functions, o.classes, o.complexity) == (2, 2, 2, 4)
    assert (o.api_endpoints, o.endpoint_lines) == (2, (2, 3))


def _repos(root: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        repo = root / f"r{i}"
        repo.mkdir(parents=True)
        (repo / "app.py").write_text(APP * (i + 1))
        out.append(repo)
    return out


def test_cache_serves_unchanged_repos_and_notices_edits(tmp_path: Path) -> None:
    repos = _repos(tmp_path / "repos", 3)
    cache_file = tmp_path / "cache.json"
    first, cached = code_metrics_many([(r, "python") for r in repos], 1, MetricsCache(cache_file))
    assert cached == 0 and cache_file.is_file()
    again, cached = code_metrics_many([(r, "python") for r in repos], 1,
                                      MetricsCache(cache_file))
    assert cached == 3 and again == first
    (repos[0] / "app.py").write_text(APP + "def g():\n    return 2\n")
    after, cached = code_metrics_many([(r, "python") for r in repos], 1,
                                      MetricsCache(cache_file))
    assert cached == 2
    m0 = after[repos[0]]
    assert not isinstance(m0, str) and m0.functions == 2


def test_broken_cache_file_is_ignored(tmp_path: Path) -> None:
    cache_file = tmp_path / "cache.json"
    cache_file.write_text("{not json")
    repos = _repos(tmp_path / "repos", 1)
    got, cached = code_metrics_many([(repos[0], None)], 1, MetricsCache(cache_file))
    assert cached == 0 and not isinstance(got[repos[0]], str)
    assert len(MetricsCache(cache_file)) == 1


def test_pool_gives_the_same_figures(tmp_path: Path) -> None:
    repos = _repos(tmp_path / "repos", 17)
    serial, _ = code_metrics_many([(r, "python") for r in repos], 1)
    pooled, _ = code_metrics_many([(r, "python") for r in repos], 2)
    assert serial == pooled
    assert [serial[r].functions for r in repos] == list(range(1, 18))  # type: ignore[union-attr]


def test_predictions_layouts(tmp_path: Path) -> None:
    run = tmp_path / "root" / "predictions" / "repo_readme_0101_zed_m1_Python"
    for task in ("alpha", "beta"):
        (run / task).mkdir(parents=True)
        (run / task / "app.py").write_text(APP)
    for path in (tmp_path / "root", tmp_path / "root" / "predictions", run):
        report = analyze_code(path, use_cache=False, jobs=1)
        assert [(s.run_id, s.task) for s in report.samples] == [
            ("repo_readme_0101_zed_m1_Python", "alpha"), ("repo_readme_0101_zed_m1_Python",
                                                          "beta")], path
        assert all(s.metrics and s.metrics.language == "python" for s in report.samples)


def test_bundled_runs_share_repos(tmp_path: Path) -> None:
    report = analyze_code(ROOT / "sample_runs", jobs=1, cache_path=tmp_path / "c.json")
    # one sample per repo: the stock-layout copies are twins of their runs, not more samples
    assert len(report.samples) == report.repos > 0
    java = [s for s in report.samples if s.task == "spark-dashboard-backend"]
    assert java and all(s.metrics and s.metrics.language == "java" for s in java)
    assert not [s for s in report.samples if s.error]


def test_oracle_folder_inside_the_task(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "repo" / "flask"
    shutil.copytree(TASKS / "repo" / "flask", task)
    (task / "oracle").mkdir()
    (task / "oracle" / "app.py").write_text(APP)
    (t,) = analyze_tasks(tmp_path / "tasks").tasks
    assert t.oracle == task / "oracle"
    assert (t.difficulty.label, t.difficulty.score) == ("Easy", 2.0)


def test_bundled_java_repos_as_oracles() -> None:
    java_run = ROOT / "sample_runs/predictions/repo_readme_1125_dash_m2-mini_Java"
    by = {t.name: t for t in analyze_tasks(TASKS, java_run).tasks}
    for name in ("javalin-task-manager", "spark-dashboard-backend", "springboot-chat-gateway"):
        d = by[name].difficulty
        assert d.metrics is not None and d.metrics.language == "java"
        java_files = [p for p in (java_run / name).rglob("*.java") if "target" not in p.parts]
        assert d.metrics.files == len(java_files)
        assert d.score == round(sum(b.points for b in d.bands), 2)
        assert d.label in ("Easy", "Medium", "Hard")
    spark = by["spark-dashboard-backend"].difficulty.metrics
    assert spark is not None and (spark.functions, spark.classes) == (21, 3)
