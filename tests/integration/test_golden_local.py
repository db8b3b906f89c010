"""The golden run reads like a stock run although it runs from a staged copy: test ids,
traceback paths and suite causes are relative to the repo root, for real."""

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


def test_white_box_failures_name_golden_and_repo_files_as_a_stock_run_does(
        tmp_path: Path, venv_cache: Path) -> None:
    task_root = tmp_path / "tasks" / "repo" / "wb"
    (task_root / "tests").mkdir(parents=True)
    (task_root / "README.md").write_text("# wb\n\nPort: 18097\n\n| GET | /health | ok |\n")
    (task_root / "tests" / "test_wb.py").write_text(
        "import os\nfrom app import boom\n\n\ndef test_boom():\n    boom()\n\n\n"
        "def test_runs_in_the_repo_copy():\n    assert os.path.isfile('app.py')\n")
    (task_root / "tests" / "test_broken.py").write_text("import not_a_module\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("def boom():\n    raise ValueError('boom in app')\n")
    (repo / "start.sh").write_text("exec python -m http.server 18097 --bind 127.0.0.1\n")
    (repo / "requirements.txt").write_text("")
    tasks, _ = load_tasks(tmp_path / "tasks")
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    result = evaluate_sample(backend, SampleJob("r", tasks["wb"], 0, repo, tmp_path / "out",
                                                Limits(startup=10, tests=60)))
    cases = {c.id: c for c in result.tests.cases}
    assert set(cases) == {"tests/test_broken.py", "tests/test_wb.py::test_boom",
                          "tests/test_wb.py::test_runs_in_the_repo_copy"}
    assert cases["tests/test_wb.py::test_runs_in_the_repo_copy"].outcome is Outcome.PASSED
    boom = cases["tests/test_wb.py::test_boom"]
    assert boom.outcome is Outcome.FAILED and boom.file == "tests/test_wb.py"
    assert "tests/test_wb.py:6: in test_boom" in boom.traceback
    assert "\napp.py:2: in boom" in boom.traceback
    assert result.tests.rootdir == "." and result.tests.collection_errors == 1
    cause = result.tests.cause
    assert cause is not None and "No module named 'not_a_module'" in cause.text
    assert (cause.file, cause.line) == ("tests/test_broken.py", 1)
