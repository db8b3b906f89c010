"""A requirement whose build poisons the test runner, on the local backend (issue 27, item 2).

The sdist of ``tests/fixtures/hostile/poison/sdist`` is served from a PEP 503 index on
loopback; its ``setup.py`` writes a pass-everything pytest plugin into every venv it can reach
under the evaluation's cache. Boxed (``uid``/``userns``) it reaches nothing but the venv being
built; without a box (``none``) it writes into the test runner's venv, and the runner's digest
catches that before the tests run (a finding, a rebuilt runner). Either way, broken services
evaluated after it fail their tests.
"""

from __future__ import annotations

import io
import runpy
import shutil
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.model import Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.runner_env import RUNNERS
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host import confine
from inspector.services.host.venvs import VenvCache
from tests.tiny_index import serve

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
POISON = HOSTILE / "poison"


@pytest.fixture(scope="module")
def task() -> Task:
    tasks, _ = load_tasks(HOSTILE / "forge" / "tasks")
    return tasks["guarded-items"]


@pytest.fixture
def poison_index(tmp_path: Path) -> Iterator[str]:
    """``genesis-poison`` 1.0, an sdist only, on a PEP 503 simple index on loopback."""
    project = tmp_path / "index" / "simple" / "genesis-poison"
    project.mkdir(parents=True)
    name = "genesis_poison-1.0"
    with tarfile.open(project / f"{name}.tar.gz", "w:gz") as tar:
        files = {"setup.py": (POISON / "sdist" / "setup.py").read_bytes(),
                 "PKG-INFO": b"Metadata-Version: 2.1\nName: genesis-poison\nVersion: 1.0\n"}
        for rel, data in files.items():
            info = tarfile.TarInfo(f"{name}/{rel}")
            info.size, info.mtime, info.mode = len(data), 1_700_000_000, 0o644
            tar.addfile(info, io.BytesIO(data))
    (project / "index.html").write_text(
        f'<!DOCTYPE html><html><body><a href="{name}.tar.gz">{name}.tar.gz</a></body></html>\n')
    with serve(tmp_path / "index") as index:
        yield index


@pytest.mark.parametrize("mode", ["auto", "none"])
def test_a_requirement_cannot_poison_the_test_runner(mode: str, task: Task, tmp_path: Path,
                                                     poison_index: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", poison_index)
    monkeypatch.setenv("GENESIS_POISON_ROOT", str(cache))
    (tmp_path / "work").mkdir()
    backend = LocalBackend(allow_exec=True, cache=VenvCache(cache / "venvs"),
                           work_root=tmp_path / "work", isolation=mode)
    # a requirements file only its owner may read still installs in the box
    poisoner = shutil.copytree(POISON / "repos" / "poisoner", tmp_path / "poisoner")
    (poisoner / "requirements.txt").chmod(0o600)
    results = []
    for n, repo in enumerate((POISON / "repos" / "broken", poisoner,
                              POISON / "repos" / "broken")):
        job = SampleJob("r", task, n, repo, tmp_path / f"out{n}", Limits(startup=10, tests=60))
        result = evaluate_sample(backend, job)
        assert result.deployment.success, (n, result.deployment.message)
        results.append(result)
    for n, result in enumerate(results):
        assert not result.passed, n
        assert (result.tests.passed, result.tests.failed) == (0, 2), (n, result.tests)
    # the build ran: it installed its probe, saying who it ran as and what it wrote
    probes = list((cache / "venvs").glob("*/lib/python*/site-packages/genesis_poison_probe.py"))
    assert len(probes) == 1
    probe = runpy.run_path(str(probes[0]))
    own = str(probes[0].parent)
    assert probe["ROOT"] == str(cache)
    plugins = sorted(str(p.parent) for p in cache.glob("*/*/lib/python*/site-packages/"
                                                        "genesis_forge.py"))
    kinds = [[(f.kind, f.deliberate) for f in r.tampering] for r in results]
    if backend.isolation == "none":
        # unboxed, the build wrote the plugin into the runner's venv: the digest caught it
        # before the tests ran, the runner was rebuilt, and the finding is on that sample
        assert len(probe["WRITTEN"]) >= 2 and own in probe["WRITTEN"]
        assert kinds == [[], [("runner_env_changed", True)], []]
        # (and into the other repo's venv: unboxed, it can) the rebuilt runner is clean
        assert own in plugins and not [p for p in plugins if f"/{RUNNERS}/" in p]
        # poisoned between two processes (a new backend on the same cache): the digest in
        # its marker catches it when the runner is taken from the cache
        for site in cache.glob(f"{RUNNERS}/*/lib/python*/site-packages"):
            (site / "genesis_forge.py").write_text("")
        fresh = LocalBackend(allow_exec=True, cache=VenvCache(cache / "venvs"),
                             work_root=tmp_path / "work", isolation=mode)
        job = SampleJob("r", task, 3, POISON / "repos" / "broken", tmp_path / "out3",
                        Limits(startup=10, tests=60))
        result = evaluate_sample(fresh, job)
        assert (result.tests.passed, result.tests.failed) == (0, 2)
        assert [(f.kind, f.deliberate) for f in result.tampering] == [
            ("runner_env_changed", False)]
        assert not list(cache.glob(f"{RUNNERS}/*/lib/python*/site-packages/genesis_forge.py"))
    else:
        # boxed, the build ran without privileges and saw no venv but the one being built
        assert probe["UID"] != 0 or confine.isolation() == "userns"
        assert probe["WRITTEN"] == [own] and probe["TRIED"] == [own]
        assert kinds == [[], [], []]
        assert plugins == [own]
