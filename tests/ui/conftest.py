"""UI test fixtures: an app on the bundled runs with its own index, config and cache."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from inspector.config import load_settings
from inspector.ui.app import InspectorApp
from inspector.ui.messages import OpenSample
from inspector.ui.screens.sample import SampleScreen
from tests.settle import settle

__all__ = ["settle"]  # the UI tests import it from here


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the developer's config, themes or index."""
    config = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(config))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    return config


@pytest.fixture
def make_app(tmp_path: Path, sample_runs: Path) -> Callable[..., InspectorApp]:
    def make(root: Path | None = None, **kwargs: object) -> InspectorApp:
        kwargs.setdefault("watch", False)
        if root is None and "labels_dir" not in kwargs:  # never write into the checkout
            labels = tmp_path / "labels"
            if not labels.exists():
                shutil.copytree(sample_runs / "labels", labels)
            kwargs["labels_dir"] = labels
        return InspectorApp(root or sample_runs, settings=load_settings(),
                            **kwargs)  # type: ignore[arg-type]

    return make


async def open_sample(app: InspectorApp, pilot: object, sample_id: str) -> SampleScreen:
    """Open ``sample_id`` (``run/task/sample``) as the runs table does; its sample screen."""
    await settle(app, pilot)
    entry = app.catalog.find_sample(sample_id)
    assert entry is not None, sample_id
    app.post_message(OpenSample(entry.key))
    await settle(app, pilot)
    assert isinstance(app.screen, SampleScreen)
    return app.screen
