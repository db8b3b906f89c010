"""Real-Docker fixtures. No engine or no base image is a test FAILURE, never a skip: CI
(`.ci/run`) starts dockerd and runs `inspector sandbox init` before the tests.

The engine may be shared with other programs (another checkout's tests, a developer's
inspector): a test looks only at the sandboxes it started, by this process's owner label or by
a sample key holding :data:`RUN` (unique to this test process), never at all of them, and
removes only images it built under a tag unique to it."""

from __future__ import annotations

import os
import secrets
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.model import Task
from inspector.services.deploy.backend import Limits
from inspector.services.deploy.choose import backend_factory, find_target
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.sandbox.base_image import BASE_IMAGE, base_image_id
from inspector.services.sandbox.engine import EngineUnavailable, connect

RUN = f"t{os.getpid()}-{secrets.token_hex(3)}"
"""Part of every run id a test here gives its samples: another test process on the same engine
(an xdist worker, another checkout) never has the same sample keys."""
STARTUP = 60.0
"""Startup bound for a service that must start: seconds it may take on a loaded machine (it
costs nothing when it starts at once). A test of a service that never answers sets its own."""

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


@pytest.fixture(scope="session")
def docker_client():  # type: ignore[no-untyped-def]
    try:
        client = connect()
    except EngineUnavailable as exc:
        pytest.fail(f"Docker tests need an engine: {exc}", pytrace=False)
    if base_image_id(client) is None:
        pytest.fail(f"{BASE_IMAGE} is missing: run `inspector sandbox init` first",
                    pytrace=False)
    return client


@pytest.fixture(scope="session")
def docker_pool(docker_client, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[DeploymentPool]:  # type: ignore[no-untyped-def]
    """One pool for the session, so tests on the same sample share a warm sandbox."""
    pool = DeploymentPool(backend_factory(False), work_root=tmp_path_factory.mktemp("reruns"),
                          limits=Limits(install=600, startup=15, tests=120))
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def forge_todo(sample_runs: Path) -> Target:
    return find_target(sample_runs / "runs", "todo-service", 0, FORGE)


def make_repo(root: Path, name: str, server: str, start: str | None = None,
              test: str = "", port: int = 18090) -> Target:
    """A tiny generated repo (stdlib server) with a golden test, as a deployable Target."""
    repo = root / name / "repo"
    tests = root / name / "tests"
    repo.mkdir(parents=True)
    tests.mkdir(parents=True)
    (repo / "requirements.txt").write_text("")
    (repo / "server.py").write_text(textwrap.dedent(server))
    (repo / "start.sh").write_text(start or "python server.py\n")
    (tests / "test_service.py").write_text(textwrap.dedent(test or f"""
        import urllib.request

        def test_health():
            r = urllib.request.urlopen("http://127.0.0.1:{port}/health", timeout=5)
            assert r.status == 200
    """))
    task = Task(name=name, language="python", framework="any", port=port, readme="",
                root=None, tests_dir=tests)
    return Target(f"fixture-{RUN}", task, 0, repo)
