"""What ``inspector evaluate`` shows while it runs.

On a terminal: a live panel (Rich) under the per-sample lines — a progress bar, done / running /
queued, throughput, ETA, and a table of the nodes with what each runs and has done. Piped or
redirected: the per-sample lines, and after each settled sample one ``progress:`` line.
``--quiet``: nothing.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from rich.console import Console, Group, RenderableType
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from inspector.model.runs.progress import RunProgress
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.evaluate.progress_board import (
    ProgressBoard,
    format_duration,
    summary_line,
)

SHOWN_IN_FLIGHT = 6
QUIET_ON_A_TERMINAL = ("queued on the cluster",)
"""Per-sample lines the live panel makes redundant (one per sample at start)."""


def raw_stream(stream: TextIO) -> TextIO:
    """The terminal under a sanitising wrapper: Rich writes its own control sequences and every
    text it is given here is sanitised first."""
    return getattr(stream, "raw", stream)


class EvaluationDisplay:
    """Per-sample messages (a ``ProgressFn``) and the run's progress board, shown as the
    module's docstring says. Use as a context manager around the evaluation."""

    def __init__(self, quiet: bool = False, stream: TextIO | None = None,
                 live: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        is_tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.live = (is_tty if live is None else live) and not quiet
        self.board: ProgressBoard | None = None
        self._t0 = time.monotonic()
        self._lock = threading.Lock()
        self._live: Any = None
        self._console = Console(file=raw_stream(self.stream), stderr=False,
                                highlight=False) if self.live else None

    # -- inputs -----------------------------------------------------------------------------
    def attach(self, board: ProgressBoard) -> None:
        """The evaluation made its board (``Evaluator(on_board=...)``)."""
        self.board = board
        if not self.live and not self.quiet:
            board.on_settled(lambda snap: self._line(None, summary_line(snap)))

    def message(self, sample_id: str, message: str) -> None:
        """One sample's news (called from worker threads)."""
        if self.quiet or (self.live and message in QUIET_ON_A_TERMINAL):
            return
        self._line(sample_id, message)

    def note(self, message: str) -> None:
        """A line from the command itself (cancelling, …)."""
        if self._console is not None:
            self._console.print(Text(sanitize(message)))
        else:
            print(message, file=self.stream, flush=True)

    def _line(self, sample_id: str | None, message: str) -> None:
        stamp = f"[{time.monotonic() - self._t0:6.1f}s] "
        text = stamp + (f"{sample_id}: " if sample_id else "") + message
        with self._lock:
            if self._console is not None:
                self._console.print(Text(sanitize(text)), soft_wrap=True)
            else:
                print(text, file=self.stream, flush=True)

    # -- the live panel ---------------------------------------------------------------------
    def __enter__(self) -> EvaluationDisplay:
        if self._console is not None:
            from rich.live import Live

            self._live = Live(self, console=self._console, refresh_per_second=4,
                              transient=False, redirect_stdout=False, redirect_stderr=False)
            self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def __rich__(self) -> RenderableType:
        if self.board is None:
            return Text("preparing the evaluation…", style="dim")
        return render_progress(self.board.snapshot())


def render_progress(p: RunProgress, now: float | None = None) -> RenderableType:
    """The live panel for one progress snapshot."""
    settled = p.done + p.infra_failed
    head = Text()
    head.append(f"{sanitize(p.run_id)} ", style="bold")
    head.append(f"{settled}/{p.total} ", style="bold")
    head.append(f"({p.passed} passed)  {p.running} running  {p.queued} queued")
    if p.retried:
        head.append(f"  {p.retried} retried", style="yellow")
    if p.infra_failed:
        head.append(f"  {p.infra_failed} infrastructure-failed", style="red")
    if p.resumed:
        head.append(f"  (+{p.resumed} from before)", style="dim")
    rate = f"{p.rate_per_min:.1f} samples/min" if p.rate_per_min is not None else \
        "– samples/min"
    bar = Table.grid(padding=(0, 1))
    bar.add_row(ProgressBar(total=max(p.total, 1), completed=settled, width=40),
                Text(f"{100 * p.fraction:.0f}%"),
                Text(p.status if p.finished else
                     f"{rate}  ETA {format_duration(p.eta_seconds)}",
                     style="bold" if p.finished else "cyan"))
    parts: list[RenderableType] = [head, bar]
    if p.nodes:
        table = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
        for col in ("node", "running", "done", "passed", "infra failures"):
            table.add_column(col, justify="left" if col == "node" else "right")
        for n in p.nodes:
            table.add_row(sanitize(n.node), str(n.running), str(n.done), str(n.passed),
                          str(n.infra_failures) if n.infra_failures else "")
        parts.append(table)
    if p.in_flight:
        shown = ", ".join(f"{sanitize(f.sample)} on {sanitize(f.node)}"
                          for f in p.in_flight[:SHOWN_IN_FLIGHT])
        more = p.running - min(len(p.in_flight), SHOWN_IN_FLIGHT)
        parts.append(Text(f"running: {shown}" + (f" … and {more} more" if more > 0 else ""),
                          style="dim"))
    if p.queued:
        parts.append(Text(f"queued: {p.queued} waiting for a free node", style="dim"))
    return Group(*parts)
