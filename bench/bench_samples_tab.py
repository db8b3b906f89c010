"""Samples tab fill: the old ``DataTable`` list against the Line-API list, side by side.

    python bench/bench_samples_tab.py                    # /tmp/gi-corpus (made if missing)
    python bench/bench_samples_tab.py /tmp/gi-corpus --repeat 7

The corpus's samples are loaded once through the real index (``Catalog``; the index is kept
in ``--db``, built on the first run). Then, headless (160x45), each round mounts one list,
lets it settle and times from the fill (the samples filter applied to every sample, as the
samples tab does, then ``set_samples``) until the rows are laid out and the screen was
painted with them; the old and new lists alternate between rounds. ``OldSamplesTable`` below
is the ``DataTable`` implementation this replaced, copied verbatim as the baseline.
Printed: every round's milliseconds, the medians and the ratio (target: new <= 500 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Static

from inspector.model.results.entries import SampleEntry
from inspector.model.results.filters import SampleFilter
from inspector.model.results.verdict import Verdict
from inspector.services.catalog.index import Catalog
from inspector.ui.safe import plain
from inspector.ui.styles import colour, verdict_text
from inspector.ui.widgets.samples_table import RUN_WIDTH, SamplesTable, _short

HERE = Path(__file__).resolve().parent
_ORDER = {Verdict.NOT_DEPLOYED: 0, Verdict.SUITE_NOT_RUN: 1, Verdict.TESTS_FAILED: 2,
          Verdict.PASSED: 3}


class OldSamplesTable(DataTable):
    """The samples list before the Line-API list (a DataTable; rows built in one batch)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.shown: list[SampleEntry] = []
        self.suspect_tasks: set[str] = set()

    def on_mount(self) -> None:
        self.add_column("run", key="run", width=RUN_WIDTH)
        self.add_column("task", key="task")
        self.add_column("#", key="n")
        self.add_column("outcome", key="outcome")
        self.add_column("AC", key="ac")
        self.add_column("message", key="message")

    def set_samples(self, entries: list[SampleEntry]) -> None:
        keep = self.current()
        entries = sorted(entries, key=lambda e: (_ORDER[e.verdict], e.task, e.run_id, e.sample))
        self.shown = entries
        self.clear()
        suspect = colour(self.app, "health-suspect")
        rows = []
        for e in entries:
            task = plain(e.task)
            if e.task in self.suspect_tasks:
                task.append(" ⚠", style=f"bold {suspect}")
            ac = f"{e.ac_implemented}/{e.ac_total}" if e.ac_total else "—"
            rows.append([plain(_short(e.run_id, RUN_WIDTH)), task, str(e.sample),
                         verdict_text(self.app, e), ac,
                         plain(e.message[:120], no_wrap=True)])
        self.add_rows(rows)
        if keep is not None:
            self.select(keep.key)

    def current(self) -> SampleEntry | None:
        if 0 <= self.cursor_row < len(self.shown):
            return self.shown[self.cursor_row]
        return None

    def select(self, sample_key: int) -> bool:
        for i, e in enumerate(self.shown):
            if e.key == sample_key:
                self.move_cursor(row=i)
                return True
        return False


class BenchApp(App[None]):
    CSS = "#table { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Static("samples tab bench")


async def _rounds(samples: list[SampleEntry], repeat: int) -> dict[str, list[float]]:
    app = BenchApp()
    painted: list[float] = []
    original = app._display

    def display(screen, renderable):  # type: ignore[no-untyped-def]
        original(screen, renderable)
        painted.append(time.perf_counter())

    app._display = display  # type: ignore[method-assign]
    times: dict[str, list[float]] = {"old": [], "new": []}
    async with app.run_test(size=(160, 45)) as pilot:
        for i in range(repeat):
            order = ("old", "new") if i % 2 == 0 else ("new", "old")
            for which in order:
                table = OldSamplesTable(id="table") if which == "old" else SamplesTable(
                    id="table")
                await app.screen.mount(table)
                table.focus()
                await pilot.pause(0.2)
                t0 = time.perf_counter()
                table.set_samples(SampleFilter().apply(samples))
                want = len(samples) + 1  # rows + header, once laid out
                while table.virtual_size.height != want:
                    await asyncio.sleep(0.001)
                mark = time.perf_counter()
                while not any(x > mark for x in painted):
                    await asyncio.sleep(0.001)
                end = min(x for x in painted if x > mark)
                times[which].append((end - t0) * 1000)
                assert table.row_count == len(samples)
                await table.remove()
                await pilot.pause(0.1)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("root", nargs="?", default="/tmp/gi-corpus")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--db", default="/tmp/gi-bench-samples-tab.sqlite3",
                   help="index file (built on first use, reused after)")
    args = p.parse_args()
    root = Path(args.root)
    if not (root / "corpus.json").is_file():
        print(f"making the synthetic corpus in {root} …", flush=True)
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(root)], check=True)
    t = time.perf_counter()
    catalog = Catalog(root, Path(args.db))
    catalog.refresh()
    samples = catalog.samples()
    print(f"{len(samples)} samples from {root} (index ready in {time.perf_counter() - t:.1f} s)")
    times = asyncio.run(_rounds(samples, args.repeat))
    for which, label in (("old", "DataTable (before)"), ("new", "Line-API list (now)")):
        runs = "  ".join(f"{x:.0f}" for x in times[which])
        print(f"{label:22} median {statistics.median(times[which]):7.0f} ms   rounds: {runs}")
    ratio = statistics.median(times["old"]) / statistics.median(times["new"])
    print(f"speed-up x{ratio:.1f}  (target: new <= 500 ms)")


if __name__ == "__main__":
    main()
