"""Shared fixtures: the bundled sample data, an isolated venv cache for real deployments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"


@pytest.fixture(scope="session")
def sample_runs() -> Path:
    return SAMPLE_RUNS


@pytest.fixture(scope="session")
def venv_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One virtualenv cache for the whole session (real pip installs are slow: share them).

    Always a ``…/venvs`` folder, so its parent works as ``GENESIS_INSPECTOR_CACHE`` for a CLI
    subprocess. Honours ``GENESIS_INSPECTOR_CACHE`` when set so developers can keep a warm cache."""
    if os.environ.get("GENESIS_INSPECTOR_CACHE"):
        return Path(os.environ["GENESIS_INSPECTOR_CACHE"]) / "venvs"
    return tmp_path_factory.mktemp("cache") / "venvs"
