"""Real RepoGenesis tasks evaluated end to end by the local backend, against the bundled run.

Three layouts the stock harness meets on the real benchmark:

* UserManagement_2: the golden suite has its own ``tests/pytest.ini`` (pytest's rootdir becomes
  ``tests/``), yet every test id is recorded relative to the repo root;
* StructuredDataConvertor: four of its five test files import pandas, which the task lists only
  in its root ``requirements.txt`` — a file the harness never copies — so those files cannot be
  collected unless the agent happened to need pandas too;
* a task with a root ``pytest.ini`` (``pythonpath = tests``) whose tests (a package, with
  ``tests/__init__.py``) do ``from conftest import ...``: the harness copies only ``tests/``,
  so the suite cannot run.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.runformat import load_run
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host.venvs import VenvCache

pytestmark = pytest.mark.slow

RUN = "repo_readme_1125_atlas_m2-large_Python"


@pytest.fixture(scope="module")
def backend(venv_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> LocalBackend:
    return LocalBackend(allow_exec=True, cache=VenvCache(venv_cache),
                        work_root=tmp_path_factory.mktemp("work"))


@pytest.fixture(scope="module")
def real_tasks(sample_runs: Path) -> dict[str, Task]:
    tasks, _ = load_tasks(sample_runs / "tasks")
    return tasks


def _evaluate(backend: LocalBackend, task: Task, repo: Path, out: Path):  # noqa: ANN202
    job = SampleJob(RUN, task, 0, repo, out, Limits(startup=30, tests=240))
    return evaluate_sample(backend, job)


def _recorded(sample_runs: Path, task: str):  # noqa: ANN202
    run, _ = load_run(sample_runs / "runs" / RUN)
    return next(s for s in run.samples if s.task == task)


def test_tests_pytest_ini_suite_ids_are_repo_relative(backend, real_tasks, sample_runs: Path,
                                                      tmp_path: Path) -> None:
    task = real_tasks["UserManagement_2"]
    assert (task.tests_dir / "pytest.ini").is_file()
    fresh = _evaluate(backend, task, sample_runs / "predictions" / RUN / task.name, tmp_path)
    recorded = _recorded(sample_runs, task.name)
    assert fresh.deployment.success
    assert fresh.tests.rootdir == "tests"
    ids = [c.id for c in fresh.tests.cases]
    assert len(ids) == task.expected_tests == 31
    for test_id in ids:
        file = test_id.split("::", 1)[0]
        assert file.startswith("tests/") and (task.root / file).is_file(), test_id
    # the same verdict for every test as the bundled run recorded
    assert {c.id: c.outcome for c in fresh.tests.cases} == \
        {c.id: c.outcome for c in recorded.tests.cases}


def test_suite_that_cannot_collect_names_its_cause(backend, real_tasks, sample_runs: Path,
                                                    tmp_path: Path) -> None:
    task = real_tasks["StructuredDataConvertor"]
    repo = sample_runs / "predictions" / RUN / task.name
    assert "pandas" not in (repo / "requirements.txt").read_text().lower()
    fresh = _evaluate(backend, task, repo, tmp_path)
    recorded = _recorded(sample_runs, task.name)
    assert fresh.deployment.success
    assert fresh.tests.collection_errors == recorded.tests.collection_errors == 4
    errors = sorted(c.id for c in fresh.tests.cases if c.outcome is Outcome.ERROR
                    and "::" not in c.id)
    assert errors == ["tests/test_convert.py", "tests/test_convert_batch.py",
                      "tests/test_integration.py", "tests/test_performance.py"]
    cause = fresh.tests.cause
    assert cause is not None and "No module named 'pandas'" in cause.text
    assert cause.file and cause.file.startswith("tests/test_") and cause.line


def test_root_pytest_ini_task_fails_as_under_the_stock_harness(backend, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = tmp_path / "tasks" / "repo" / "users"
    (root / "tests").mkdir(parents=True)
    (root / "README.md").write_text(f"# Users\n\n- **Port**: {port}\n\n- `GET /` - index\n")
    (root / "pytest.ini").write_text("[pytest]\npythonpath = tests\n")
    (root / "tests" / "__init__.py").write_text("")  # a package: conftest is not on sys.path
    (root / "tests" / "conftest.py").write_text(
        f"BASE_URL = 'http://127.0.0.1:{port}'\n")
    (root / "tests" / "test_index.py").write_text(
        "import requests\nfrom conftest import BASE_URL\n\n\n"
        "def test_index():\n    assert requests.get(BASE_URL + '/', timeout=5).ok\n")
    repo = tmp_path / "predictions" / "users"
    repo.mkdir(parents=True)
    (repo / "requirements.txt").write_text("")
    (repo / "start.sh").write_text(f"exec python -m http.server {port} --bind 127.0.0.1\n")
    tasks, _ = load_tasks(tmp_path / "tasks")
    result = _evaluate(backend, tasks["users"], repo, tmp_path / "out")
    assert result.deployment.success
    assert not result.passed and result.tests.passed == 0
    assert result.tests.collection_errors == 1
    assert result.tests.cause is not None
    assert "No module named 'conftest'" in result.tests.cause.text
    assert result.tests.cause.file == "tests/test_index.py"
    assert "conftest" in result.logs[Phase.TESTS].read_text()
