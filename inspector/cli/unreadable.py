"""What ``summary`` and ``failures`` say about unreadable samples, and their exit code.

Figures are computed over the samples that could be read; every unreadable sample is listed
with its file and the whole reason (``docs/unreadable.md``), and the command exits
:data:`~inspector.cli.errors.EXIT_UNREADABLE`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from inspector.cli.errors import EXIT_UNREADABLE
from inspector.model.results.unreadable import figures_basis, unreadable_line

if TYPE_CHECKING:
    from inspector.model import Run
    from inspector.services.figures.metrics import RunMetrics


def summary_lines(metrics: list[RunMetrics], pct: str = "{:.1%}") -> list[str]:
    """Per run with unreadable samples: its pass@1 and over how many samples, then one line
    per unreadable file (all of them, never cut)."""
    lines = []
    for m in metrics:
        if not m.unreadable:
            continue
        basis = figures_basis(m.samples, m.unreadable_samples)
        head = basis if basis.startswith("no figures") else \
            f"pass@1 {pct.format(m.pass_at_1)} {basis}"
        lines.append(f"  {m.run_id}: {head}:")
        lines.extend(f"    {unreadable_line(u)}" for u in m.unreadable_samples)
    return lines


def exit_code(runs: list[Run]) -> int:
    """:data:`EXIT_UNREADABLE` (with one line on stderr saying so) when a sample or run file
    of ``runs`` could not be read, else 0."""
    files = sum(len(r.unreadable) for r in runs)
    if not files:
        return 0
    where = sum(bool(r.unreadable) for r in runs)
    print(f"inspector: {files} unreadable file(s) in {where} run(s): those samples are not in "
          f"the figures (listed with their reason); exit code {EXIT_UNREADABLE}",
          file=sys.stderr)
    return EXIT_UNREADABLE
