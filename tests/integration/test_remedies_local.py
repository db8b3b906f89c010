"""Causal re-runs with the local backend (allowed explicitly), on a copy of a real sample."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from inspector.model.failures.triage import INSTALL_TEST_PACKAGE, RUN_ALONE, Remedy
from inspector.services.deploy.choose import find_target
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.warm import DeploymentPool
from inspector.services.host.ports import port_open
from inspector.services.host.venvs import VenvCache
from inspector.services.triage.remedies import confirm

pytestmark = pytest.mark.slow

ATLAS = "repo_readme_1125_atlas_m2-large_Python"


def test_a_polluted_test_passes_alone_on_a_fresh_local_deployment(
        sample_runs: Path, venv_cache: Path, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(sample_runs / "runs" / ATLAS, root / "runs" / ATLAS)
    shutil.copytree(sample_runs / "predictions" / ATLAS, root / "predictions" / ATLAS)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    target = find_target(root / "runs", "UserManagement_2", 0, ATLAS)
    result = target.recorded.source_file  # type: ignore[union-attr]
    recorded = hashlib.sha256(result.read_bytes()).hexdigest()  # type: ignore[union-attr]
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    lines: list[str] = []
    try:
        c = confirm(Remedy(RUN_ALONE, "test_user_registration_success"), target, pool, "local",
                    on_line=lambda s, t: lines.append(t))
    finally:
        pool.close()
    assert c.supports is True, c.outcome
    assert c.outcome == ("run alone on a fresh deployment, test_user_registration_success "
                         "passes (it failed in the recorded run)")
    assert (c.passed, c.failed, c.collected, c.backend) == (1, 0, 1, "local")
    assert c.log is not None and (root / "runs" / ATLAS / c.log).is_file()
    assert any("1 passed" in t for t in lines)
    assert hashlib.sha256(result.read_bytes()).hexdigest() == recorded  # type: ignore[union-attr]
    assert not port_open(target.task.port or 8080), "the service is gone"
    assert not list(tmp_path.glob("gi-UserManagement_2-*")), "the session folder is removed"


def test_pandas_goes_into_the_local_test_runner_only(sample_runs: Path, venv_cache: Path,
                                                     tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(sample_runs / "runs" / ATLAS, root / "runs" / ATLAS)
    shutil.copytree(sample_runs / "predictions" / ATLAS, root / "predictions" / ATLAS)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    target = find_target(root / "runs", "StructuredDataConvertor", 0, ATLAS)
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    try:
        c = confirm(Remedy(INSTALL_TEST_PACKAGE, "pandas", ("tests/test_convert.py",)), target,
                    pool, "local")
    finally:
        pool.close()
    assert c.supports is True, c.outcome
    assert c.outcome == ("with pandas installed for the tests, the 1 test file that did not "
                         f"collect now collects: 11 tests, {c.passed} pass")
    assert c.collected == 11 and c.passed >= 10, "only the large-file test fails (NameError)"
    venvs = {v: (v / ".genesis-complete").read_text(errors="replace")
             for v in venv_cache.iterdir() if (v / ".genesis-complete").is_file()}
    repo_reqs = (target.repo / "requirements.txt").read_text()
    [repo_venv] = [v for v, text in venvs.items() if text == repo_reqs]
    # the runner's, apart: the stock test packages, the task's test requirements (none), pandas
    runners = {v: json.loads((v / ".genesis-complete").read_text())["requirements"]
               for v in venv_cache.with_name("runner-venvs").iterdir()
               if (v / ".genesis-complete").is_file()}
    [runner] = [v for v, text in runners.items()
                if text.split() == ["pytest", "requests", "httpx", "pandas"]]

    def has_pandas(venv: Path) -> bool:
        return bool(list(venv.glob("lib/python*/site-packages/pandas")))

    assert has_pandas(runner) and not has_pandas(repo_venv), "the repo's venv has no pandas"
