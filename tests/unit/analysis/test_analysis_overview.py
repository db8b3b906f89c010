"""The overview behind the Analysis tab and ``analyze --runs``: tiers and their names, which
runs pair best, cancellation, the tasks table's sorting and filtering, and what each plot
draws — on the bundled real runs and on small hand-made ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual_plotext.plot import Plot

from inspector.services.analysis.compare import compare_runs
from inspector.services.analysis.outcomes import RunOutcomes, SampleOutcome
from inspector.services.analysis.overview import (
    Cancelled,
    build_overview,
    tier_sort_key,
)
from inspector.services.analysis.overview_load import (
    labels_folder_for,
    overview_of_folder,
    read_labels,
)
from inspector.ui.analysis import plots
from inspector.ui.analysis.task_rows import sorted_rows, task_rows


def _run(key: str, agent: str, results: dict[str, list[bool]]) -> RunOutcomes:
    samples = tuple(
        SampleOutcome(key, key, agent, "m", task, i, "python", "flask", ok, int(ok), 1)
        for task, oks in results.items() for i, ok in enumerate(oks))
    return RunOutcomes(key, key, agent, "m", "python", "ours", samples)


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def bundled(sample_runs: Path):  # type: ignore[no-untyped-def]
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        old = os.environ.get("GENESIS_INSPECTOR_CACHE")
        os.environ["GENESIS_INSPECTOR_CACHE"] = cache
        try:
            labels = read_labels(labels_folder_for(sample_runs)).input
            yield overview_of_folder(sample_runs, labels)
        finally:
            if old is None:
                os.environ.pop("GENESIS_INSPECTOR_CACHE", None)
            else:
                os.environ["GENESIS_INSPECTOR_CACHE"] = old


def test_tiers_order_easiest_first_and_never_mix_scales() -> None:
    names = ["spec high", "Hard", "other", "spec low", "Easy", "Medium", "spec medium"]
    assert sorted(names, key=tier_sort_key) == ["Easy", "Medium", "Hard", "spec low",
                                                "spec medium", "spec high", "other"]


def test_bundled_overview_tiers_every_task_by_its_spec(bundled) -> None:  # type: ignore[no-untyped-def]
    # six runs: the four stock copies are twins of four of them; dash Java's 3 samples are
    # not evaluable (no Maven repository reachable): in no figure
    assert len(bundled.runs) == 6 and bundled.samples == 36 and bundled.not_evaluable == 3
    assert bundled.not_evaluable_note().startswith("3 of 39 samples not evaluable")
    assert len(bundled.tasks) == 14
    # no reference implementation is bundled: each tier is the README's spec tier
    assert set(bundled.tiers.values()) == {"spec low", "spec medium", "spec high"}
    assert bundled.tiers["WebPan"] == "spec high"  # 707 words, 13 endpoints
    assert bundled.tiers["flask"] == "spec low"  # 221 words, 3 endpoints
    assert bundled.tier_names() == ["spec low", "spec medium", "spec high"]
    assert "14 task(s) by spec complexity" in bundled.tier_source
    assert bundled.categories is not None and bundled.categories.labelled == 9  # per sample


def test_pairs_prefer_different_agents_then_more_common_tasks() -> None:
    a = _run("a", "Atlas", {"t1": [True], "t2": [False], "t3": [True]})
    a2 = _run("a2", "Atlas", {"t1": [True], "t2": [False], "t3": [True]})  # a re-run
    b = _run("b", "Dash", {"t1": [False], "t2": [False]})
    c = _run("c", "Relay", {"t9": [True]})
    ov = build_overview(Path("."), [a, a2, b, c], {})
    pairs = [(x.key, y.key, n) for x, y, n in ov.pairable()]
    assert pairs == [("a", "b", 2), ("a2", "b", 2), ("a", "a2", 3)]  # c shares nothing


def test_build_overview_stops_when_cancelled() -> None:
    run = _run("a", "Atlas", {"t1": [True]})
    with pytest.raises(Cancelled):
        build_overview(Path("."), [run], {}, cancelled=lambda: True)


def test_task_rows_sort_and_filter(bundled) -> None:  # type: ignore[no-untyped-def]
    rows = task_rows(bundled)
    by_words = [r.task for r in sorted_rows(rows, "words", True)[:2]]
    assert by_words == ["WebPan", "synapse"]  # 707 and 632 words
    # the Java tasks' only samples are not evaluable: no row for a figure over nothing
    assert [r.task for r in rows if r.matches("JAVA")] == []
    assert {r.task for r in rows if r.matches("flask spec low")} == {
        "flask", "Multilingual", "quote-board", "todo-service", "url-shortener"}
    flask = next(r for r in rows if r.task == "flask")
    # atlas, dash and relay tried it; the stock copies of two of them are not more runs
    assert (flask.runs, flask.samples, flask.pass_at_1) == (3, 3, 1.0)


def _drawn(painter, *args) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    plt = Plot()
    plt.plotsize(100, 30)
    caption = painter(plt, *args)
    return re.sub(r"\x1b\[[0-9;]*m", "", plt.build()), caption


def test_plots_draw_what_they_say(bundled) -> None:  # type: ignore[no-untyped-def]
    text, caption = _drawn(plots.draw_tier_pass, bundled)
    assert "Pass@1 (%) by difficulty tier" in text and "spec medium" in text
    assert "not drawn" not in caption  # six runs (stock copies are twins), all drawn
    text, caption = _drawn(plots.draw_cost_vs_pass, bundled)
    assert "not recorded" in text and "cost_usd" in caption
    text, _ = _drawn(plots.draw_framework_pass, bundled)
    assert "fastapi" in text and "springboot" not in text  # Java: not evaluable


def test_paired_plot_names_few_tasks_and_counts_wins() -> None:
    a = _run("a", "Atlas", {"alpha": [True], "beta": [True], "gamma": [False]})
    b = _run("b", "Dash", {"alpha": [False], "beta": [True], "gamma": [True]})
    text, caption = _drawn(plots.draw_paired, compare_runs(a, b))
    assert "alpha" in text and "gamma" in text
    assert caption == "A better on 1 task(s), B on 1, equal on 1."


def test_cost_plot_draws_a_point_per_recording_run() -> None:
    from inspector.model.results.sample import Generation

    gen = Generation(30.0, 1000, 500, 0.02)
    s = SampleOutcome("a", "a", "Atlas", "m", "t", 0, "python", "flask", True, 1, 1, gen)
    run = RunOutcomes("a", "a", "Atlas", "m", "python", "ours", (s,))
    other = _run("b", "Dash", {"t": [False]})
    ov = build_overview(Path("."), [run, other], {})
    text, caption = _drawn(plots.draw_cost_vs_pass, ov)
    assert "median cost per sample (USD)" in text
    assert caption == "1 run(s) record it; 1 do not"


def test_a_hostile_task_name_is_plotted_with_its_markers() -> None:
    """plotext's output is read back as ANSI: a raw ESC in a name would vanish (and take the
    text after it along); the plot shows the same ASCII markers as every other surface."""
    a = _run("a", "Atlas", {"t\x1b[2Jx\x07": [True], "beta": [True]})
    b = _run("b", "Dash", {"t\x1b[2Jx\x07": [False], "beta": [True]})
    text, _ = _drawn(plots.draw_paired, compare_runs(a, b))
    assert "t<ESC>[2J" in text
    assert "\x1b[2J" not in text and "\x07" not in text
