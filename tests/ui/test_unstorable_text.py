"""The app's index finishes over text no encoding can store (issue 27, part 5): a lone
surrogate in a task name is shown as U+FFFD, a run folder whose name is not valid UTF-8 is a
problem naming it; the "Indexing runs" line goes away and the other runs are listed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import unstorable_runs
from textual.widgets import Static

from inspector.ui.app import InspectorApp

from .conftest import settle


async def test_the_index_finishes_and_names_what_it_cannot_store(
        make_app: Callable[..., InspectorApp], tmp_path: Path) -> None:
    root = unstorable_runs.build(tmp_path / "data")
    app = make_app(root, labels_dir=tmp_path / "labels")
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        await pilot.pause(0.2)
        screen = app.main_screen
        assert not screen.query_one("#index-bar").has_class("busy")
        assert [r.run_id for r in screen.runs] == [unstorable_runs.SOURCE.name]
        assert unstorable_runs.SHOWN_TASK in {s.task for s in screen.samples}
        problems = str(screen.query_one("#problems", Static).render())
        assert "x<U+DCFF>" in problems and "not indexed" in problems, problems
