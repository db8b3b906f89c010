"""Shared fixtures: the bundled sample data, an isolated venv cache for real deployments; the
test tiers' markers (docker, browser, cluster, slow)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"


@pytest.fixture(scope="session")
def sample_runs() -> Path:
    return SAMPLE_RUNS


DEVELOPER_CACHE = os.environ.get("GENESIS_INSPECTOR_CACHE")
"""The developer's own cache folder, if set when the tests started (a warm venv cache)."""


@pytest.fixture(scope="session")
def venv_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One virtualenv cache for the whole session (real pip installs are slow: share them).

    Always a ``…/venvs`` folder, so its parent works as ``GENESIS_INSPECTOR_CACHE`` for a CLI
    subprocess. Honours ``GENESIS_INSPECTOR_CACHE`` when set so developers can keep a warm cache."""
    if DEVELOPER_CACHE:
        return Path(DEVELOPER_CACHE) / "venvs"
    return tmp_path_factory.mktemp("cache") / "venvs"


@pytest.fixture(scope="session", autouse=True)
def own_user_dirs(venv_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test process its own cache (:func:`venv_cache`'s parent) and config: tests run in
    parallel (pytest-xdist) and beside other checkouts' tests, and none may read or write the
    developer's config or another process's index cache. A test may still set its own."""
    config = tmp_path_factory.mktemp("config") / "config.toml"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GENESIS_INSPECTOR_CACHE", str(venv_cache.parent))
        mp.setenv("GENESIS_INSPECTOR_CONFIG", str(config))
        yield venv_cache.parent


# The test tiers (issue 29): markers given by where a test lives and what it uses, so a test
# file never has to remember them. `make check` runs the fast tier, everything not marked.
TESTS = ROOT / "tests"
_BY_FOLDER = {"sandbox": ("docker",), "browser": ("browser",), "integration": ("slow",)}
_BY_FILE = {"test_cluster_ray.py": ("cluster", "slow")}
_BY_FIXTURE = {"docker_client": "docker", "docker_cluster": "docker", "browser": "browser",
               "ray_cluster": "cluster"}


def tier_markers(path: Path, fixtures: Iterable[str]) -> set[str]:
    """The tier markers of a test at ``path`` that uses ``fixtures`` (their closure)."""
    try:
        parts = path.relative_to(TESTS).parts
    except ValueError:
        return set()
    marks = set(_BY_FOLDER.get(parts[0], ())) if len(parts) > 1 else set()
    marks.update(_BY_FILE.get(parts[-1], ()))
    marks.update(m for f, m in _BY_FIXTURE.items() if f in fixtures)
    return marks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    grouped = config.pluginmanager.hasplugin("xdist")
    for item in items:
        for name in sorted(tier_markers(item.path, getattr(item, "fixturenames", ()))):
            item.add_marker(name)
        if grouped and "slow" in item.keywords:
            # real local deployments listen on their task's fixed port (the same task in two
            # tests, a Ray cluster's samples): under xdist --dist loadgroup, one after another
            item.add_marker(pytest.mark.xdist_group("local-ports"))
