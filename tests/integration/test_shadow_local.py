"""Shadowing modules on the local backend, for real (issue 27): a module named as an optional
import of the test runner's own libraries (``requests`` tries ``chardet``) that forges a pass
from inside pytest, at the repo root, written by ``start.sh``, or installed by a package.

Fixtures: ``tests/fixtures/hostile/shadow`` (see its README). Each repo answers 500 to
everything; its forger walks the garbage collector to pytest's plugin manager and registers a
report wrapper marking every test passed. On the code before issue 27, each passed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host import confine
from inspector.services.host.venvs import VenvCache
from inspector.services.suite.reach import SHADOWING
from tests.tiny_index import add_project, serve

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
FORGE, SHADOW = HOSTILE / "forge", HOSTILE / "shadow"
# the forgers only ever forge inside pytest; start_writes writes into its own repo copy only
MODES = confine.available()


@pytest.fixture(scope="module")
def black_box() -> Task:
    tasks, _ = load_tasks(FORGE / "tasks")
    return tasks["guarded-items"]


@pytest.fixture(scope="module")
def white_box() -> Task:
    tasks, _ = load_tasks(SHADOW / "tasks")
    return tasks["ledger-items"]


def _evaluate(task: Task, repo: Path, out: Path, cache: VenvCache, mode: str | None = None):  # type: ignore[no-untyped-def]
    out.mkdir(parents=True, exist_ok=True)
    backend = LocalBackend(allow_exec=True, cache=cache, work_root=out, isolation=mode)
    job = SampleJob("shadow", task, 0, repo, out / "sample", Limits(startup=10, tests=60))
    return evaluate_sample(backend, job)


def _outcomes(result) -> list[Outcome]:  # type: ignore[no-untyped-def]
    return [c.outcome for c in result.tests.cases]


@pytest.mark.parametrize("repo", ["root_chardet", "start_writes"])
def test_a_black_box_suite_never_imports_the_repo(black_box: Task, repo: str, tmp_path: Path,
                                                  venv_cache: Path) -> None:
    """Every test fails against the broken service, with every isolation: the repo's module
    (at the root, or written by start.sh) is never imported inside pytest."""
    for mode in MODES:
        result = _evaluate(black_box, SHADOW / "repos" / repo, tmp_path / mode,
                           VenvCache(venv_cache), mode)
        assert result.deployment.success, (mode, result.deployment.message)
        assert not result.passed and result.tests.passed == 0, (mode, _outcomes(result))
        assert result.tests.failed == 2, mode
        assert "500" in result.tests.cases[0].message, mode
        assert "black-box suite" in result.logs[Phase.TESTS].parent.joinpath(
            "install.log").read_text()


def test_a_white_box_suite_is_refused_when_the_root_shadows_the_runner(
        white_box: Task, tmp_path: Path, venv_cache: Path) -> None:
    result = _evaluate(white_box, SHADOW / "repos" / "wb_root_chardet", tmp_path,
                       VenvCache(venv_cache))
    assert not result.passed and result.tests.passed == 0
    found = [f for f in result.tampering or () if f.kind == SHADOWING]
    assert found and found[0].deliberate, result.tampering
    assert "chardet" in found[0].detail and "as generated" in found[0].detail


def test_a_shadowing_module_written_by_start_sh_is_refused_before_the_tests(
        white_box: Task, tmp_path: Path, venv_cache: Path) -> None:
    result = _evaluate(white_box, SHADOW / "repos" / "wb_start_writes", tmp_path,
                       VenvCache(venv_cache))
    assert result.deployment.success, result.deployment.message
    assert not result.passed and result.tests.passed == 0
    found = [f for f in result.tampering or () if f.kind == SHADOWING]
    assert found and found[0].deliberate, result.tampering
    assert "after start.sh" in found[0].detail


def test_a_white_box_suite_without_shadowing_imports_the_app(white_box: Task, tmp_path: Path,
                                                             venv_cache: Path) -> None:
    """The honest part still works: ``from app import LIMIT`` passes, the HTTP tests fail."""
    result = _evaluate(white_box, SHADOW / "repos" / "wb_installed", tmp_path,
                       VenvCache(venv_cache))
    by_name = {c.id.rsplit("::", 1)[-1]: c.outcome for c in result.tests.cases}
    assert by_name == {"test_limit_is_ten": Outcome.PASSED, "test_health": Outcome.FAILED,
                       "test_items_start_empty": Outcome.FAILED}, by_name
    assert not [f for f in result.tampering or () if f.kind == SHADOWING]


def test_a_package_installing_a_shadowing_module_never_reaches_the_runner(
        white_box: Task, tmp_path: Path, venv_cache: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The repo's requirements install ``chardet`` (the forger, from a package named
    ``charset-shim`` on an index on loopback) into its environment, which a white-box suite may
    import from: the runner's own ``requests`` still never gets it."""
    repo = tmp_path / "repo"
    shutil.copytree(SHADOW / "repos" / "wb_installed", repo)
    add_project(tmp_path / "index", "charset-shim", "0.1",
                {"chardet.py": (SHADOW / "payload" / "forger.py").read_text()})
    (repo / "requirements.txt").write_text("charset-shim==0.1\n")
    with serve(tmp_path / "index") as index:
        monkeypatch.setenv("PIP_EXTRA_INDEX_URL", index)
        cache = VenvCache(tmp_path / "venvs")
        result = _evaluate(white_box, repo, tmp_path / "out", cache)
    assert result.deployment.success, result.deployment.message
    by_name = {c.id.rsplit("::", 1)[-1]: c.outcome for c in result.tests.cases}
    assert by_name == {"test_limit_is_ten": Outcome.PASSED, "test_health": Outcome.FAILED,
                       "test_items_start_empty": Outcome.FAILED}, by_name
    assert not result.passed
    site = next((tmp_path / "venvs").glob("*/lib/python*/site-packages/chardet.py"))
    assert site.is_file()  # it was installed, and still kept out
