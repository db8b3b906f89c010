"""Snapshots of each main screen in a dark and a light theme.

Review changes with the HTML report pytest-textual-snapshot writes on failure; update with
``pytest tests/snapshots --snapshot-update`` only after looking at it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config import load_settings
from inspector.ui.app import InspectorApp
from inspector.ui.messages import OpenSample
from tests.settle import settle

SIZE = (160, 42)
FORGE = "repo_readme_1118_forge_m1-large_Python"
THEMES = ["genesis-dark", "genesis-light"]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))


def _app(sample_runs: Path, theme: str) -> InspectorApp:
    return InspectorApp(sample_runs, settings=load_settings(), theme=theme, watch=False)


async def _settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every worker done, then eight renders in a row (0.8 s) the same (five in a row was seen
    to be too few on a loaded machine)."""
    await settle(pilot.app, pilot, still=8)


def _tab(key: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        if key:
            await pilot.press(key)
            await _settle(pilot)

    return run_before


@pytest.mark.parametrize("theme", THEMES)
def test_runs_overview(snap_compare, sample_runs: Path, theme: str) -> None:
    """Four runs with metrics; the highlighted run's detail below (stock vs strict figures)."""
    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=_tab(""))


@pytest.mark.parametrize("theme", THEMES)
def test_samples_list(snap_compare, sample_runs: Path, theme: str) -> None:
    """24 samples, failures first, coloured outcomes, quote-board flagged ⚠, filter bar."""
    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=_tab("2"))


@pytest.mark.parametrize("theme", THEMES)
def test_matrix(snap_compare, sample_runs: Path, theme: str) -> None:
    """Tasks x runs with one glyph and ratio per cell, legend above."""
    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=_tab("3"))


@pytest.mark.parametrize("theme", THEMES)
def test_benchmark_health(snap_compare, sample_runs: Path, theme: str) -> None:
    """The quote-board collection error with its evidence and suspected cause."""
    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=_tab("4"))


@pytest.mark.parametrize("theme", THEMES)
def test_analysis_plots(snap_compare, sample_runs: Path, theme: str) -> None:
    """Pass@1 by spec tier per run, category mix per agent, cost not recorded, frameworks."""
    assert snap_compare(_app(sample_runs, theme), terminal_size=(160, 50),
                        run_before=_tab("5"))


@pytest.mark.parametrize("theme", THEMES)
def test_sample_view(snap_compare, sample_runs: Path, theme: str) -> None:
    """README on the left; failing tests first with the traceback and its reference."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        entry = pilot.app.catalog.find_sample(f"{FORGE}/todo-service/0")
        pilot.app.post_message(OpenSample(entry.key))
        await _settle(pilot)

    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_sample_files(snap_compare, sample_runs: Path, theme: str) -> None:
    """Endpoints table; the PATCH handler opened, highlighted, at routes.py:48."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        entry = pilot.app.catalog.find_sample(f"{FORGE}/todo-service/0")
        pilot.app.post_message(OpenSample(entry.key, file="routes.py", line=48))
        await _settle(pilot)
        await pilot.press("e")
        await _settle(pilot)

    assert snap_compare(_app(sample_runs, theme), terminal_size=SIZE, run_before=run_before)


def _replay(sample_runs: Path, theme: str, *, demo: bool = False):  # type: ignore[no-untyped-def]
    from inspector.services.logs.deployment_log import locate_sample_log
    from inspector.ui.replay_app import ReplayApp

    log = locate_sample_log(sample_runs / "runs" / FORGE, "todo-service")
    return ReplayApp(log, settings=load_settings(), theme=theme)


def _replay_to_tests(filter_keys: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        screen = pilot.app.screen
        while getattr(screen, "indexing", True):
            await pilot.pause(0.02)
            screen = pilot.app.screen
        await _settle(pilot)
        await pilot.press("t", *"tests", "enter")
        await pilot.pause()
        await pilot.press(*(["right"] * 30))
        if filter_keys:
            await pilot.press(*filter_keys)
        await _settle(pilot)

    return run_before


@pytest.mark.parametrize("theme", THEMES)
def test_replay_screen(snap_compare, sample_runs: Path, theme: str) -> None:
    """Replay paused 30 lines into the tests phase: timeline with the failed phase and
    playhead, coloured pytest results, failure output, status line."""
    assert snap_compare(_replay(sample_runs, theme), terminal_size=SIZE,
                        run_before=_replay_to_tests())


def test_replay_screen_filtered(snap_compare, sample_runs: Path) -> None:
    """The same replay with only error lines kept, and the hidden count in the status."""
    assert snap_compare(_replay(sample_runs, "genesis-dark"), terminal_size=SIZE,
                        run_before=_replay_to_tests(("E",)))


@pytest.mark.parametrize("theme", THEMES)
def test_labelling_screen(snap_compare, sample_runs: Path, theme: str) -> None:
    """Review queue in blind mode: the suggestion with its reason, evidence to attach, the
    category keys in their colours, others' labels hidden."""
    app = InspectorApp(sample_runs, settings=load_settings(), theme=theme, watch=False,
                       annotator="zoe", blind=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_tab_then("2", "L"))


@pytest.mark.parametrize("theme", THEMES)
def test_disagreement_queue(snap_compare, sample_runs: Path, theme: str) -> None:
    """Three disagreements between ana and ben, one adjudicated, with the notes and evidence
    of the highlighted one."""
    app = InspectorApp(sample_runs, settings=load_settings(), theme=theme, watch=False,
                       annotator="carla")
    assert snap_compare(app, terminal_size=SIZE, run_before=_tab_then("2", "D"))


def _tab_then(*keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _settle(pilot)
        for key in keys:
            await pilot.press(key)
            await _settle(pilot)

    return run_before


def test_runs_overview_at_80x24(snap_compare, sample_runs: Path) -> None:
    """An 80x24 terminal: every run in view with its four figures (ids elided in the
    middle), a shorter detail below."""
    assert snap_compare(_app(sample_runs, "genesis-dark"), terminal_size=(80, 24),
                        run_before=_tab(""))
