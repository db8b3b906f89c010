"""Texts shared by the sample pane's tabs: why the suite did not run, tampering findings."""

from __future__ import annotations

from rich.text import Text
from textual.app import App

from inspector.model import SampleResult, SuiteCause
from inspector.model.repo.tampering import TamperFinding
from inspector.model.suite.pytest_output import exit_meaning
from inspector.model.untrusted.safe_text import sanitize_field
from inspector.services.tamper.findings import kind_label
from inspector.ui.safe import sanitize
from inspector.ui.styles import colour


def cause_text(app: App[object], sample: SampleResult, cause: SuiteCause) -> Text:
    """Why the suite did not run (fully): pytest's exit code and first cause line."""
    code = sample.exit_code
    t = Text("\n\nThe suite did not run" + (" fully" if sample.tests.total else ""),
             style="bold")
    if code is not None or cause.kind == "timeout":
        t.append(f" (pytest exit {code}: {exit_meaning(code)})", style="dim")
    t.append("\n")
    if cause.context:
        t.append(sanitize(cause.context) + "\n", style="dim")
    t.append(sanitize(cause.text) + "\n", style=colour(app, "outcome-error"))
    if cause.location:
        t.append(f"at {sanitize(cause.location)}\n", style="dim")
    return t


def tamper_colour(app: App[object], deliberate: bool) -> str:
    if deliberate:
        return colour(app, "outcome-error")
    theme = app.current_theme
    return theme.warning if theme is not None and theme.warning else "yellow"


def tamper_text(app: App[object], found: tuple[TamperFinding, ...]) -> Text:
    """What the repo did or holds to reach into its own test run (repo text as Text)."""
    n, m = len(found), sum(f.deliberate for f in found)
    t = Text()
    t.append(f"⚠ Tampering attempt: {n} finding{'' if n == 1 else 's'}"
             f"{f', {m} deliberate' if m else ''}",
             style=f"bold {tamper_colour(app, bool(m))}")
    t.append(" — kept out of the golden test run; the verdict stands.", style="dim")
    for f in found:
        t.append("\n")
        t.append("deliberate " if f.deliberate else "could influence ",
                 style=f"bold {tamper_colour(app, f.deliberate)}")
        t.append(kind_label(f.kind) + ": ", style="bold")
        t.append(sanitize_field(f.detail, 2000))
    return t
