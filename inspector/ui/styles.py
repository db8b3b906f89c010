"""Colours for outcomes, read from the active theme's semantic variables."""

from __future__ import annotations

from rich.text import Text
from textual.app import App

from inspector.model.figures.percent import pct as pct  # the panes import it from here
from inspector.model.results.entries import SampleEntry
from inspector.model.results.verdict import Verdict

SEMANTIC_DEFAULTS = {
    "outcome-pass": "#4ec97a",
    "outcome-fail": "#e5c07b",
    "outcome-error": "#e06c75",
    "outcome-deploy": "#e06c75",
    "outcome-notrun": "#c678dd",
    "outcome-skip": "#8a8f98",
    "health-suspect": "#ff9e3b",
}
"""Fallbacks so a user theme that lacks a semantic variable still works."""

_VERDICT_VAR = {
    Verdict.PASSED: "outcome-pass",
    Verdict.TESTS_FAILED: "outcome-fail",
    Verdict.SUITE_NOT_RUN: "outcome-notrun",
    Verdict.NOT_DEPLOYED: "outcome-deploy",
    Verdict.NOT_EVALUABLE: "outcome-skip",
}
_OUTCOME_VAR = {"passed": "outcome-pass", "failed": "outcome-fail", "error": "outcome-error",
                "skipped": "outcome-skip"}
GLYPH = {Verdict.PASSED: "✔", Verdict.TESTS_FAILED: "✘", Verdict.SUITE_NOT_RUN: "∅",
         Verdict.NOT_DEPLOYED: "⊘", Verdict.NOT_EVALUABLE: "?"}


def colour(app: App, name: str) -> str:
    """A semantic colour of the current theme."""
    theme = app.current_theme
    value = theme.variables.get(name) if theme is not None else None
    return value or SEMANTIC_DEFAULTS.get(name, "")


def verdict_style(app: App, v: Verdict) -> str:
    return f"bold {colour(app, _VERDICT_VAR[v])}"


def outcome_text(app: App, outcome: str) -> Text:
    """A test outcome, coloured."""
    return Text(outcome, style=colour(app, _OUTCOME_VAR.get(outcome, "outcome-skip")))


COLLECTION_GLYPH = "⚠"
"""A suite where some test files failed to collect: neither a plain pass nor a fail count."""


def suite_label(e: SampleEntry) -> tuple[str, str] | None:
    """(glyph, text) for a sample whose suite did not run or hit collection errors, else None:
    such a suite is never shown as a pass count like '✘ 0/3'."""
    if e.verdict is Verdict.SUITE_NOT_RUN:
        return GLYPH[Verdict.SUITE_NOT_RUN], ("did not run: collection error"
                                              if e.collection_errors else "did not run")
    if e.verdict is Verdict.TESTS_FAILED and e.collection_errors:
        return COLLECTION_GLYPH, f"collection error, {e.passed}/{e.total - e.collection_errors}"
    return None


def suite_style(app: App) -> str:
    return verdict_style(app, Verdict.SUITE_NOT_RUN)


def verdict_text(app: App, e: SampleEntry) -> Text:
    """A sample's verdict in a few words, coloured: 'passed', 'failed 9/12', 'no deploy: start'."""
    v = e.verdict
    suite = suite_label(e)
    if suite is not None:
        return Text(f"{suite[0]} {suite[1]}", style=suite_style(app))
    if v is Verdict.NOT_EVALUABLE:
        label = "not evaluable"
    elif v is Verdict.PASSED:
        label = "passed"
    elif v is Verdict.TESTS_FAILED:
        label = f"failed {e.passed}/{e.total}"
    elif v is Verdict.SUITE_NOT_RUN:
        label = "suite did not run"
    else:
        label = f"no deploy: {e.failed_phase or 'deploy'}"
    return Text(f"{GLYPH[v]} {label}", style=verdict_style(app, v))
