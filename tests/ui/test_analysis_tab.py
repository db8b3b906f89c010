"""The Analysis tab driven with Pilot: plots drawn from the bundled runs, the tasks table
sorted and filtered, and a paired comparison of two runs chosen in the selects."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input, Select, Static, TabbedContent
from textual_plotext import PlotextPlot

from inspector.ui.panes.analysis import AnalysisPane

from .conftest import settle

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"


def _text(app, selector: str) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(selector, Static).render())


def _tasks(table: DataTable) -> list[str]:
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


def _plot_text(app, plot_id: str) -> str:  # type: ignore[no-untyped-def]
    plot = app.screen.query_one(f"#{plot_id}", PlotextPlot)
    return "".join(seg.text for line in plot.render_lines(plot.region.reset_offset)
                   for seg in line)


async def test_analysis_tab_plots_tasks_and_comparison(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await settle(app, pilot)
        pane = app.screen.query_one(AnalysisPane)
        assert pane.overview is not None
        summary = _text(app, "#analysis-summary")
        # six runs: the four stock copies are twins of four of them; the bundled labels
        # rolled up per sample: 9 labelled samples; dash Java's 3 samples are not evaluable
        # (no Maven repository): in no figure, said so
        assert "6 runs, 36 samples, 14 tasks, 9 labelled samples." in summary
        assert "3 of 39 samples not evaluable" in summary
        assert "14 task(s) by spec complexity" in summary  # no reference implementation here

        # the plots: tiers on the x axis, runs in the legend, cost said to be unrecorded
        tiers = _plot_text(app, "tier-plot")
        assert "spec low" in tiers and "spec high" in tiers and "Forge (m1-large)" in tiers
        assert "not recorded" in _plot_text(app, "cost-plot")
        assert "Architectural" in _plot_text(app, "category-plot")
        assert "django" in _plot_text(app, "framework-plot")

        # tasks: 14 rows by name (no Java task has an evaluable sample); sorted by pass@1
        # with a header click
        app.screen.query_one("#analysis-views", TabbedContent).active = "analysis-tasks"
        await settle(app, pilot)
        table = app.screen.query_one("#tasks-table", DataTable)
        assert table.row_count == 14
        assert _tasks(table)[:3] == ["django-rest-framework-crud", "eve", "flask"]
        app.screen.query_one("#tasks-filter", Input).value = "fastapi"
        await settle(app, pilot)
        assert "UserManagement_2" in _tasks(table) and "flask" not in _tasks(table)
        app.screen.query_one("#tasks-filter", Input).value = ""
        await settle(app, pilot)
        columns = list(table.columns.values())
        x = sum(c.get_render_width(table) for c in columns[:-1]) + 2
        await pilot.click("#tasks-table", offset=(x, 0))  # the pass@1 header
        await settle(app, pilot)
        view = pane.tasks_view
        assert view.sort_column == "pass@1" and not view.descending
        assert "pass@1 ▲" in str(columns[-1].label)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        shares = [str(r[-1]) for r in rows]
        assert shares[-3:] == ["100%", "100%", "100%"]  # django-crud, eve, flask: every run
        table.focus()
        await pilot.press("S")
        await settle(app, pilot)
        assert [str(table.get_row_at(i)[-1]) for i in range(3)] == ["100%"] * 3

        # compare: the default pair is two different agents on the same eight tasks
        app.screen.query_one("#analysis-views", TabbedContent).active = "analysis-compare"
        await settle(app, pilot)
        stats = _text(app, "#compare-stats")
        assert f"A: {ATLAS}" in stats and f"B: {DASH}" in stats
        assert "8 common tasks" in stats
        # one task only atlas passes, none only dash: exact two-sided p = min(1, 2 * 0.5)
        assert "1 only A, 0 only B, p = 1.0000" in stats
        assert "Pass@1 A − B: +12.5 pp" in stats
        # what 8 tasks could detect at all (mean pass@1 43.75%): 2.8016 * sqrt(2pq/8)
        assert "Minimum detectable difference in pass@1 over these 8 tasks: 69.5 pp" in \
            " ".join(stats.split())
        relay_key = next(r.key for r in pane.overview.runs if r.run_id == RELAY)
        app.screen.query_one("#compare-b", Select).value = relay_key
        await settle(app, pilot)
        stats = _text(app, "#compare-stats")
        assert f"B: {RELAY}" in stats and "8 common tasks" in stats
        assert "McNemar" in stats and "Pass@1 A − B: +" in stats


async def test_analysis_follows_new_labels(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Label files changed on disk (here: every annotator's file and the adjudication
    removed) are what the next analysis shows."""
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await settle(app, pilot)
        before = _text(app, "#analysis-summary")
        assert "9 labelled samples" in before
        labels = tmp_path / "labels" / "annotators"
        for f in sorted(labels.glob("*.json")):
            f.unlink()
        (labels.parent / "adjudication.json").unlink()
        app.screen.analysis_pane.data_changed()
        await settle(app, pilot)
        after = _text(app, "#analysis-summary")
        assert "labelled samples" not in after
        assert "no labels yet" in _plot_text(app, "category-plot")


async def test_export_writes_tables_and_figures_of_what_is_shown(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.dialogs.prompt import PromptScreen

    app = make_app()
    out = tmp_path / "paper"
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await settle(app, pilot)
        app.screen.query_one("#analysis-views", TabbedContent).active = "analysis-compare"
        await settle(app, pilot)
        app.screen.query_one("#analysis-views Tabs").focus()
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        field = app.screen.query_one(Input)
        assert field.value.endswith("analysis-sample_runs")  # a default beside the user
        field.value = str(out)
        await pilot.press("enter")
        await settle(app, pilot)
        index = (out / "index.md").read_text()
        for name in ("tables/pass_at_1_by_tier.csv", "tables/pass_at_1_by_tier.tex",
                     "figures/pass_at_1_by_tier.svg", "figures/compare_differences.png",
                     "tables/compare_stats.md"):
            assert (out / name).is_file(), name
            assert name in index
        assert ATLAS in (out / "tables" / "compare_stats.md").read_text()
        messages = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Wrote ") and str(out) in m for m in messages)
