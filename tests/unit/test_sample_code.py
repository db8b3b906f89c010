"""One sample's code metrics for the sample view (:mod:`inspector.services.analysis.sample_code`)
on real bundled repos: figures counted by hand, the cache, the task's reference implementation
beside them, and a broken repo's files reported as skipped, never raised."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.model.benchmark.tasks import load_task
from inspector.services.analysis.sample_code import measure_isolated, sample_code_metrics

ROOT = Path(__file__).resolve().parents[2]
FORGE = ROOT / "sample_runs/predictions/repo_readme_1118_forge_m1-large_Python"
RELAY = ROOT / "sample_runs/predictions/repo_readme_1119_relay_open_coder-7b_Python"
TASKS = ROOT / "sample_runs/tasks/repo"


def test_a_bundled_repo_is_measured_then_served_from_the_cache(tmp_path: Path) -> None:
    """forge's url-shortener, counted by hand: app.py has 4 route functions (health 1,
    shorten 3: an ``if`` and an ``or``, stats 2, follow 2), codes.py 2 (generate_code 2: a
    comprehension, is_valid_url 3: an ``if`` and an ``and``), storage.py one class with 4
    methods (__init__ 1, add 2: a ``while``, get 1, hit 2: an ``if``)."""
    repo = FORGE / "url-shortener"
    issues: list = []
    task = load_task(TASKS / "url-shortener", issues)
    cache = tmp_path / "code-metrics.json"
    first = sample_code_metrics(repo, "python", task, cache_path=cache)
    m = first.metrics
    assert m is not None and not first.error and not first.cached
    assert (m.files, m.functions, m.classes) == (3, 10, 1)
    assert (m.cyclomatic, m.max_cyclomatic) == (19, 3)
    assert m.cognitive is not None and m.cognitive > 0 and not m.skipped
    assert [f.file for f in first.top_files(2)] == ["app.py", "storage.py"]
    # the bundled task has no reference implementation
    assert first.reference_folder is None and first.reference is None
    assert first.difficulty is None
    assert cache.is_file()

    second = sample_code_metrics(repo, "python", task, cache_path=cache)
    assert second.cached and second.metrics == m
    # measured in this process (no worker), the same figures
    here = sample_code_metrics(repo, "python", task, use_cache=False, isolated=False)
    assert here.metrics == m and not here.cached


def test_a_worker_that_overruns_is_an_error_never_a_hang(tmp_path: Path) -> None:
    repo = FORGE / "url-shortener"
    [got] = measure_isolated([(repo, "python")], timeout=0.001)
    assert got == f"{repo}: measuring took longer than 0.001 s"


def test_the_tasks_reference_implementation_is_measured_beside_the_repo(tmp_path: Path) -> None:
    """A task with an ``oracle/`` folder (here forge's repo as the reference): relay's repo
    gets its own figures, the reference column forge's, and the paper's difficulty."""
    task_dir = tmp_path / "url-shortener"
    shutil.copytree(TASKS / "url-shortener", task_dir)
    shutil.copytree(FORGE / "url-shortener", task_dir / "oracle")
    task = load_task(task_dir, [])
    assert task is not None
    got = sample_code_metrics(RELAY / "url-shortener", None, task,
                              cache_path=tmp_path / "cache.json")
    assert got.metrics is not None and got.reference is not None
    assert got.reference_folder == task_dir / "oracle"
    assert (got.reference.files, got.reference.functions, got.reference.classes) == (3, 10, 1)
    assert got.metrics.functions != got.reference.functions
    assert got.difficulty is not None and got.difficulty.label == "Easy"


def test_unparseable_and_binary_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FORGE / "url-shortener", repo)
    cache = tmp_path / "cache.json"
    before = sample_code_metrics(repo, "python", None, cache_path=cache)
    (repo / "broken.py").write_text("def f(:\n    return 1\n")
    (repo / "blob.py").write_bytes(b"\0\1\2binary")
    after = sample_code_metrics(repo, "python", None, cache_path=cache)
    assert not after.cached  # a new file: never served stale
    m = after.metrics
    assert m is not None and before.metrics is not None
    assert m.files == before.metrics.files + 1  # broken.py counts its SLOC only
    assert m.functions == before.metrics.functions
    assert any(n.startswith("broken.py: syntax error at line 1") for n in m.notes)
    assert [(s.file, s.reason) for s in m.skipped] == [("blob.py", "binary file (NUL bytes)")]


def test_a_missing_repo_is_an_error_naming_it(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    got = sample_code_metrics(gone, "python", None, cache_path=tmp_path / "c.json")
    assert got.metrics is None and got.error == f"{gone}: not a folder"
    none = sample_code_metrics(None, None, None, use_cache=False)
    assert none.metrics is None and "names no repository" in none.error
