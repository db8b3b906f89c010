"""A golden test reading ``tests/../README.md`` reads the generated repo's file, as in a stock
run (where the tests are copied into the repo), though the suite runs from a staged copy: the
repo's data files are linked beside it, never its code or pytest configuration (local backend;
the Docker backend's test is in tests/sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import Outcome
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host.venvs import VenvCache

pytestmark = pytest.mark.slow

TEST = """\
import os

HERE = os.path.dirname(os.path.dirname(__file__))


def test_readme_sections():
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as fh:
        assert "## Service Information" in fh.read()


def test_no_code_beside_the_suite():
    assert not os.path.exists(os.path.join(HERE, "conftest.py"))
    assert not os.path.exists(os.path.join(HERE, "app.py"))
"""


def test_the_repos_readme_is_read_beside_the_staged_suite(tmp_path: Path,
                                                           venv_cache: Path) -> None:
    task_root = tmp_path / "tasks" / "repo" / "readme"
    (task_root / "tests").mkdir(parents=True)
    (task_root / "README.md").write_text("# readme\n\nPort: 18098\n\n| GET | / | ok |\n")
    (task_root / "tests" / "test_readme.py").write_text(TEST)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# The agent's readme\n\n## Service Information\n")
    (repo / "app.py").write_text("x = 1\n")
    (repo / "conftest.py").write_text("raise SystemExit('never loaded')\n")
    (repo / "start.sh").write_text("exec python -m http.server 18098 --bind 127.0.0.1\n")
    (repo / "requirements.txt").write_text("")
    tasks, _ = load_tasks(tmp_path / "tasks")
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    result = evaluate_sample(backend, SampleJob("r", tasks["readme"], 0, repo,
                                                tmp_path / "out", Limits(startup=10, tests=60)))
    assert {c.id: c.outcome for c in result.tests.cases} == {
        "tests/test_readme.py::test_readme_sections": Outcome.PASSED,
        "tests/test_readme.py::test_no_code_beside_the_suite": Outcome.PASSED,
    }, result.tests.cases
