"""The local backend's test phase on a suite with its own tests/pytest.ini, for real: ids are
recorded relative to the repo root, and re-running a failing test by its recorded id (or by an
id recorded the old way, relative to tests/) runs it again from the repo root."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from inspector.model import Outcome, Task
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host.venvs import VenvCache
from inspector.services.rerun.runner import rerun, resolve_tests

pytestmark = pytest.mark.slow

TESTS = {
    "pytest.ini": "[pytest]\nmarkers =\n    smoke: smoke tests\n",
    "conftest.py": "import os\nimport pytest\n\n\n@pytest.fixture\ndef base_url():\n"
                   "    return os.environ['API_BASE_URL']\n",
    "test_api.py": "import requests\n\n\nclass TestApi:\n"
                   "    def test_root(self, base_url):\n"
                   "        assert requests.get(base_url + '/', timeout=5).status_code == 200\n\n"
                   "    def test_missing(self, base_url):\n"
                   "        r = requests.get(base_url + '/items/1', timeout=5)\n"
                   "        assert r.status_code == 200\n",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def task_and_repo(tmp_path: Path) -> tuple[Task, Path]:
    port = _free_port()
    root = tmp_path / "tasks" / "repo" / "static-files"
    (root / "tests").mkdir(parents=True)
    (root / "README.md").write_text(f"# Static files\nPort {port}\n\n- GET /items/{{id}}\n")
    for name, text in TESTS.items():
        (root / "tests" / name).write_text(text)
    repo = tmp_path / "predictions" / "static-files"
    repo.mkdir(parents=True)
    (repo / "requirements.txt").write_text("")
    (repo / "start.sh").write_text("exec python -m http.server \"$PORT\" --bind 127.0.0.1\n")
    task = Task("static-files", "python", "any", port, "", root=root,
                tests_dir=root / "tests", expected_tests=2)
    return task, repo


def test_rerun_of_a_tests_pytest_ini_suite_by_recorded_id(task_and_repo, tmp_path: Path,
                                                          venv_cache: Path) -> None:
    task, repo = task_and_repo
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache),
                           work_root=tmp_path)
    job = SampleJob("run", task, 0, repo, tmp_path / "out", Limits(startup=20, tests=120))
    recorded = evaluate_sample(backend, job)
    assert recorded.deployment.success, recorded.deployment.message
    assert recorded.tests.rootdir == "tests"
    assert {c.id: c.outcome for c in recorded.tests.cases} == {
        "tests/test_api.py::TestApi::test_root": Outcome.PASSED,
        "tests/test_api.py::TestApi::test_missing": Outcome.FAILED,
    }
    target = Target("run", task, 0, repo, recorded)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    try:
        ids = resolve_tests(target, ["failures"])
        assert ids == ["tests/test_api.py::TestApi::test_missing"]
        report = rerun(pool, target, ids, "local")
        assert report.deployed
        assert [(t, n.outcome if n else None, c) for t, _, n, c in report.results()] == [
            ("tests/test_api.py::TestApi::test_missing", Outcome.FAILED, "same")]
        # an id recorded the old way (relative to tests/) still re-runs the same test
        old = resolve_tests(target, ["test_api.py::TestApi::test_missing"])
        assert old == ids
        again = rerun(pool, target, old, "local")
        assert again.reused and again.attempts[-1].exit_code == 1
        assert list(again.attempts[-1].cases) == ids
    finally:
        pool.close()
