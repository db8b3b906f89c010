"""Shadowing modules in the real Docker sandbox (issue 27): a module named as an optional import
of the test runner's own libraries (``requests`` tries ``chardet``), at the repo root or written
by ``start.sh``, never forges a pass (fixtures: ``tests/fixtures/hostile/shadow``; every repo
answers 500 to everything; on the code before issue 27 the black-box ones passed)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from inspector.model.runs.runformat import load_run
from inspector.services.suite.reach import SHADOWING
from tests.tiny_index import add_project, bridge_gateway, serve

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
FORGE, SHADOW = HOSTILE / "forge", HOSTILE / "shadow"


def _evaluate(tmp_path: Path, tasks: Path, task: str, repos: list[str],  # type: ignore[no-untyped-def]
              env: dict[str, str] | None = None, requirements: str | None = None):
    preds = []
    for name in repos:
        pred = tmp_path / f"pred-{name}"
        shutil.copytree(SHADOW / "repos" / name, pred / task)
        if requirements is not None:
            (pred / task / "requirements.txt").write_text(requirements)
        preds += ["--predictions", str(pred)]
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks", str(tasks), *preds,
         "--out", str(out), "--backend", "docker", "--jobs", "2", "--startup-timeout", "10",
         "--quiet"], capture_output=True, text=True, timeout=900,
        env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache"), **(env or {})})
    assert proc.returncode == 0, proc.stderr
    run, _ = load_run(out)
    return {s.sample: s for s in run.samples}, out


def test_a_black_box_suite_never_imports_the_repo(docker_client, tmp_path: Path) -> None:
    samples, out = _evaluate(tmp_path, FORGE / "tasks", "guarded-items",
                             ["root_chardet", "start_writes"])
    assert sorted(samples) == [0, 1]
    for s in samples.values():
        assert s.deployment.success, s.deployment.message
        assert not s.passed and s.tests.passed == 0, (s.sample, s.tests.cases)
        assert all(c.outcome.value == "failed" and "500" in c.message
                   for c in s.tests.cases), s.tests.cases
    log = next(out.rglob("install.log")).read_text()
    assert "black-box suite" in log


def test_a_white_box_root_shadowing_the_runner_is_refused_the_honest_one_runs(docker_client,
                                                          tmp_path: Path) -> None:
    samples, _ = _evaluate(tmp_path, SHADOW / "tasks", "ledger-items",
                           ["wb_root_chardet", "wb_start_writes", "wb_installed"])
    for n, when in ((0, "as generated"), (1, "after start.sh")):
        s = samples[n]
        assert not s.passed and s.tests.passed == 0, (n, s.tests.cases)
        found = [f for f in s.tampering or () if f.kind == SHADOWING]
        assert found and found[0].deliberate, (n, s.tampering)
        assert "chardet" in found[0].detail and when in found[0].detail, found[0].detail
    # the honest white-box repo: its app is importable, its broken service fails the rest
    outcomes = {c.id.rsplit("::", 1)[-1]: c.outcome.value for c in samples[2].tests.cases}
    assert outcomes == {"test_limit_is_ten": "passed", "test_health": "failed",
                        "test_items_start_empty": "failed"}, outcomes
    assert not [f for f in samples[2].tampering or () if f.kind == SHADOWING]


def test_a_package_installing_a_shadowing_module_never_reaches_the_runner(
        docker_client, tmp_path: Path) -> None:
    """The repo's requirement ``charset-shim`` (from an index the install container reaches)
    installs the forger as ``chardet`` into /opt/venv, which this white-box suite may import
    from: the runner's own ``requests`` never gets it, the broken service fails its tests."""
    add_project(tmp_path / "index", "charset-shim", "0.1",
                {"chardet.py": (SHADOW / "payload" / "forger.py").read_text()})
    gateway = bridge_gateway(docker_client)
    # a requirements text unique to this run: its own sample image, removed at the end
    reqs = f"charset-shim==0.1\n# {time.time_ns()}\n"
    try:
        with serve(tmp_path / "index", gateway) as index:
            samples, out = _evaluate(tmp_path, SHADOW / "tasks", "ledger-items",
                                     ["wb_installed"], {"PIP_EXTRA_INDEX_URL": index,
                                                        "PIP_TRUSTED_HOST": gateway}, reqs)
        s = samples[0]
        assert s.deployment.success, s.deployment.message
        outcomes = {c.id.rsplit("::", 1)[-1]: c.outcome.value for c in s.tests.cases}
        assert outcomes == {"test_limit_is_ten": "passed", "test_health": "failed",
                            "test_items_start_empty": "failed"}, outcomes
        install = next(out.rglob("install.log")).read_text()
        assert "charset-shim" in install and "white-box suite" in install
    finally:
        for tag in {t for t in re.findall(r"genesis-inspector/sample:\w+",
                                          "".join(p.read_text() for p in
                                                  tmp_path.rglob("install.log")))}:
            with contextlib.suppress(Exception):
                docker_client.images.remove(tag, force=True)
