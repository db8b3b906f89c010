"""The live progress of a run being evaluated (its ``progress.json``): a bar, the counts,
throughput and ETA, one row per node and the samples in flight; a warning when the driver
went quiet, and one summary line once the evaluation finished."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from inspector.model.runs.progress import RunProgress
from inspector.services.evaluate.progress_board import format_duration
from inspector.ui.safe import plain, sanitize

STALE_AFTER = 30.0
"""Seconds without an update, while running, before the driver is suspected gone."""
IN_FLIGHT_SHOWN = 6
BAR_WIDTH = 40


def _seconds_between(start: str, end: datetime | str) -> float | None:
    try:
        then = datetime.fromisoformat(start)
        later = datetime.fromisoformat(end) if isinstance(end, str) else end
        return max(0.0, (later - then).total_seconds())
    except (ValueError, TypeError):  # unreadable time, or naive vs aware
        return None


def final_summary(p: RunProgress) -> Text:
    """One line: how the evaluation ended."""
    took = format_duration(_seconds_between(p.started_at, p.updated_at))
    style = {"complete": "bold green", "cancelled": "bold yellow"}.get(p.status, "bold red")
    t = Text()
    t.append(sanitize(f"Evaluation {p.status}: "), style=style)
    t.append(f"{p.done}/{p.total} done, {p.passed} passed")
    if p.infra_failed:
        t.append(f", {p.infra_failed} given up (infrastructure)")
    if p.resumed:
        t.append(f", {p.resumed} resumed")
    t.append(sanitize(f" · took {took} ({p.executor})"), style="dim")
    if p.status != "complete":
        t.append(" · the same command resumes it", style="dim")
    return t


def driver_warning(p: RunProgress, now: datetime, driver_alive: bool | None) -> Text | None:
    """The warning shown when the driver is gone or quiet, else ``None``."""
    if p.finished:
        return None
    who = sanitize(f"{p.driver_host} (pid {p.driver_pid})")
    if driver_alive is False:
        return Text(f"⚠ the evaluation's driver process {who} has ended without finishing: "
                    "the run is resumable with the same command", style="bold red")
    age = p.age_seconds(now)
    if age is not None and age > STALE_AFTER:
        return Text(f"⚠ no update from the evaluation's driver {who} for "
                    f"{format_duration(age)} — is it still running?", style="bold yellow")
    return None


def _bar(p: RunProgress) -> Text:
    filled = round(p.fraction * BAR_WIDTH)
    t = Text()
    t.append("█" * filled, style="green")
    t.append("░" * (BAR_WIDTH - filled), style="dim")
    t.append(f"  {p.done + p.infra_failed}/{p.total} settled ({p.fraction:.0%})")
    if p.resumed:
        t.append(f" · {p.resumed} more resumed from an earlier evaluation", style="dim")
    return t


def _nodes(p: RunProgress) -> Table:
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False,
                  header_style="bold")
    for label in ("node", "running", "done", "passed", "infra failures"):
        table.add_column(label, justify="left" if label == "node" else "right")
    for n in sorted(p.nodes, key=lambda n: n.node):
        table.add_row(plain(n.node), Text(str(n.running)), Text(str(n.done)),
                      Text(str(n.passed)), Text(str(n.infra_failures)))
    return table


def _in_flight(p: RunProgress, now: datetime) -> Text:
    t = Text()
    t.append(f"in flight ({max(len(p.in_flight), p.running)}), oldest first:", style="bold")
    flights = sorted(p.in_flight, key=lambda f: (f.since, f.sample))
    for f in flights[:IN_FLIGHT_SHOWN]:
        t.append(sanitize(f"\n  {f.sample}  on {f.node}"))
        t.append(f"  running for {format_duration(_seconds_between(f.since, now))}",
                 style="dim")
    more = max(len(p.in_flight), p.running) - min(len(flights), IN_FLIGHT_SHOWN)
    if more > 0:
        t.append(f"\n  … and {more} more", style="dim")
    return t


def render_progress(p: RunProgress, now: datetime, driver_alive: bool | None = None
                    ) -> RenderableType:
    """What the panel shows for ``p`` at ``now``; ``driver_alive`` is ``None`` when the
    driver runs on another machine (its process cannot be checked from here)."""
    warning = driver_warning(p, now, driver_alive)
    if p.finished:
        return final_summary(p)
    head = Text()
    head.append("Evaluating", style="bold")
    head.append(sanitize(f" · {p.executor} executor · driver {p.driver_host} "
                         f"(pid {p.driver_pid})"), style="dim")
    counts = Text()
    counts.append(f"done {p.done} (passed {p.passed}) · running {p.running} · "
                  f"queued {p.queued} · retried {p.retried} · "
                  f"infrastructure-failed {p.infra_failed}")
    rate = "—" if p.rate_per_min is None else f"{p.rate_per_min:.1f}"
    pace = Text(f"{rate} samples/min · ETA {format_duration(p.eta_seconds)}")
    parts: list[RenderableType] = [head, _bar(p), counts, pace]
    if warning is not None:
        parts.insert(1, warning)
    if p.nodes:
        parts.append(_nodes(p))
    if p.in_flight or p.running:
        parts.append(_in_flight(p, now))
    return Group(*parts)


class RunProgressPanel(Static):
    """Shows one :class:`RunProgress` (or why it cannot be read)."""

    DEFAULT_CSS = """
    RunProgressPanel { height: auto; max-height: 20; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    RunProgressPanel.-problem { color: $warning; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.progress: RunProgress | None = None

    def show_progress(self, progress: RunProgress, now: datetime,
                      driver_alive: bool | None = None) -> None:
        """Show ``progress`` as of ``now`` (an aware time, like the file's)."""
        self.progress = progress
        self.remove_class("-problem")
        self.update(render_progress(progress, now, driver_alive))

    def show_message(self, message: str, problem: bool = False) -> None:
        """Show one line instead (the file is missing or broken); ``message`` may be
        untrusted."""
        self.progress = None
        self.set_class(problem, "-problem")
        self.update(plain(message))
