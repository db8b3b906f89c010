"""Start-up benchmark: first usable screen of ``inspector`` against a bare Textual app.

    python bench/bench_startup.py                       # this checkout vs a bare Textual app
    python bench/bench_startup.py --baseline f7145ee    # ... and a git ref, in the same run
    python bench/bench_startup.py --rounds 11 --root /tmp/gi-corpus

Each start is a fresh process in a real pseudo-terminal (160x45, ``TERM=xterm-256color``),
the way a user starts it. The clock runs from just before the process is spawned until the
bytes written to the terminal hold the whole first usable screen:

* bare: a tiny Textual app (Header, a DataTable with a few rows, Footer) that exits once
  painted — the table's rows must have reached the terminal;
* inspector: ``python -m inspector ROOT`` with a warm index (a private cache folder built by
  an uncounted warm-up start) — every run id of the runs table (the first ten on a larger
  corpus) must be on the terminal's screen, i.e. the runs table is filled and painted. The
  bench then presses Ctrl+Q and waits for the process to end before the next start.

The terminal's screen is kept by a small emulator (text and cursor moves), since Textual
redraws only the regions that changed.

The starts alternate (bare, each inspector, bare, …, the order rotated every round) so that
machine noise hits all of them alike; medians, min/max and the ratio to the bare app's
median are printed. ``PYTHONDONTWRITEBYTECODE`` is dropped from the children's environment:
as in a user's install, the (uncounted) warm-up starts leave compiled byte-code behind.
``--baseline REF`` checks REF out in a temporary git worktree, runs it with the same
interpreter and data, and removes the worktree afterwards.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COLS, ROWS = 160, 45
TIMEOUT_S = 30.0
VISIBLE_RUNS = 10  # rows of the runs table (sorted by run id) that fit on a 45-line screen

BARE_APP = '''
from textual.app import App
from textual.widgets import DataTable, Footer, Header

ROWS = [("bare-row-%d" % i, "agent-%d" % i, "%d.0%%" % (i * 10)) for i in range(1, 6)]


class Bare(App[None]):
    def compose(self):
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("run", "agent", "pass@1")
        table.add_rows(ROWS)
        self.call_after_refresh(self.exit)


Bare().run()
'''
BARE_MARKERS = [f"bare-row-{i}" for i in range(1, 6)]

# CSI (group 1: parameters, group 2: final byte), OSC, DCS/APC/PM/SOS strings, 2-byte escapes
_ESCAPE = re.compile(r"\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                     r"|\x1b[P^_X][^\x1b]*\x1b\\|\x1b[@-Z\\-_=>78]")


class Screen:
    """Just enough of a terminal to know what it shows: text, cursor moves (CUP, CR, LF),
    erases ignored. Textual redraws changed lines and regions in place, so the bytes written
    can hold a row's text in pieces; the screen holds it whole."""

    def __init__(self, cols: int = COLS, rows: int = ROWS) -> None:
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decoder.decode(data)
        cut = text.rfind("\x1b")
        if cut != -1 and not _ESCAPE.match(text, cut):  # an escape split across reads
            text, self._pending = text[:cut], text[cut:]
        else:
            self._pending = ""
        pos = 0
        for m in _ESCAPE.finditer(text):
            self._write(text[pos:m.start()])
            pos = m.end()
            if m.group(2) in ("H", "f"):
                parts = (m.group(1) or "").split(";")
                row = int(parts[0]) if parts[0].isdigit() else 1
                col = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 1
                self.y, self.x = min(row, self.rows) - 1, min(col, self.cols) - 1
        self._write(text[pos:])

    def _write(self, text: str) -> None:
        for ch in text:
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self.y = min(self.y + 1, self.rows - 1)
            elif ch >= " ":
                if self.x < self.cols:
                    self.cells[self.y][self.x] = ch
                self.x += cell_len(ch)

    def shows(self, markers: list[str]) -> bool:
        lines = ["".join(row) for row in self.cells]
        return all(any(m in line for line in lines) for m in markers)

    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.cells)


@dataclass
class Subject:
    """One program to start: its command line, environment and what "painted" means."""

    name: str
    argv: list[str]
    cwd: Path
    markers: list[str]
    env: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)


def start_once(subject: Subject, timeout: float = TIMEOUT_S, strict: bool = True) -> float:
    """Seconds from spawning ``subject`` in a fresh pty until all its markers were drawn;
    ``-1`` when they were not within ``timeout`` and not ``strict`` (else exits)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(ROWS),
           **subject.env}
    env.pop("TEXTUAL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte-code cached, as in a user's install
    t0 = time.perf_counter()
    proc = subprocess.Popen(subject.argv, stdin=slave, stdout=slave, stderr=slave,
                            cwd=subject.cwd, env=env, start_new_session=True)
    os.close(slave)
    screen = Screen()
    elapsed: float | None = None
    try:
        while time.perf_counter() - t0 < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            now = time.perf_counter()
            screen.feed(chunk)
            if screen.shows(subject.markers):
                elapsed = now - t0
                break
        if elapsed is None and not strict:
            _finish(proc, master)
            return -1.0
        if elapsed is None:
            tail = screen.text()
            raise SystemExit(f"{subject.name}: first screen not seen within {timeout:.0f} s "
                             f"(exit code {proc.poll()}); the terminal showed:\n{tail}")
        _finish(proc, master)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return elapsed


def _finish(proc: subprocess.Popen[bytes], master: int) -> None:
    """Ask the app to quit (Ctrl+Q) and drain its output until it has gone."""
    with contextlib.suppress(OSError):
        os.write(master, b"\x11")
    deadline = time.perf_counter() + 10
    while proc.poll() is None and time.perf_counter() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 1 << 16)
            except OSError:
                break
    try:
        proc.wait(timeout=max(0.1, deadline - time.perf_counter()))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def run_ids(root: Path, checkout: Path) -> list[str]:
    """The run ids the runs table shows for ``root`` (loaded by ``checkout``'s own code)."""
    code = ("import sys, json; from inspector.model import discover_runs; "
            "print(json.dumps([r.id for r in discover_runs(__import__('pathlib')"
            ".Path(sys.argv[1])).runs]))")
    out = subprocess.run([sys.executable, "-c", code, str(root)], cwd=checkout,
                         env={**os.environ, "PYTHONPATH": str(checkout)},
                         capture_output=True, text=True, check=True)
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


def inspector_subject(name: str, checkout: Path, root: Path, cache: Path) -> Subject:
    env = {"PYTHONPATH": str(checkout), "GENESIS_INSPECTOR_CACHE": str(cache),
           "GENESIS_INSPECTOR_CONFIG": str(cache / "config.toml")}
    markers = sorted(set(run_ids(root, checkout)))[:VISIBLE_RUNS]  # the table's top rows
    if not markers:
        raise SystemExit(f"{root}: no runs found")
    return Subject(name, [sys.executable, "-m", "inspector", str(root)], checkout, markers, env)


def _summary(times: list[float]) -> str:
    med = statistics.median(times)
    return (f"median {med:6.3f} s   min {min(times):6.3f}   max {max(times):6.3f}   "
            f"spread (max-min)/median {100 * (max(times) - min(times)) / med:4.0f}%")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", type=Path, default=REPO / "sample_runs",
                   help="runs folder the inspector opens (default: the bundled sample_runs)")
    p.add_argument("--rounds", type=int, default=9, help="counted starts of each (default 9)")
    p.add_argument("--baseline", metavar="REF",
                   help="also start this git ref (checked out in a temporary worktree)")
    args = p.parse_args()
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="gi-startup-") as tmp_name:
        tmp = Path(tmp_name)
        bare_script = tmp / "bare_app.py"
        bare_script.write_text(BARE_APP)
        subjects = [Subject("bare Textual app", [sys.executable, str(bare_script)], tmp,
                            BARE_MARKERS)]
        baseline_tree: Path | None = None
        try:
            if args.baseline:
                baseline_tree = tmp / "baseline"
                subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q",
                                str(baseline_tree), args.baseline], check=True)
                subjects.append(inspector_subject(f"inspector @ {args.baseline}",
                                                  baseline_tree, root, tmp / "cache-baseline"))
            subjects.append(inspector_subject("inspector (this checkout)", REPO, root,
                                              tmp / "cache-current"))
            _measure(subjects, args.rounds)
        finally:
            if baseline_tree is not None:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                                str(baseline_tree)], check=False)
                shutil.rmtree(baseline_tree, ignore_errors=True)
    _report(subjects, root)


def _measure(subjects: list[Subject], rounds: int) -> None:
    for s in subjects:  # warm-up, not counted: byte-code compiled, index built, files cached
        start_once(s, timeout=8, strict=False)  # the index build redraws the table as it goes
        start_once(s)
    for r in range(rounds):
        k = r % len(subjects)
        for s in subjects[k:] + subjects[:k]:
            s.times.append(start_once(s))
        print(f"round {r + 1}/{rounds}: " + "  ".join(
            f"{s.name} {s.times[-1]:.3f}" for s in subjects), file=sys.stderr)


def _report(subjects: list[Subject], root: Path) -> None:
    bare = subjects[0]
    base = statistics.median(bare.times)
    print(f"first usable screen, from process start, in a {COLS}x{ROWS} pty; "
          f"{len(bare.times)} alternating starts each; data: {root}")
    for s in subjects:
        ratio = statistics.median(s.times) / base
        print(f"  {s.name:<28} {_summary(s.times)}   ratio {ratio:4.2f}x")
    for s in subjects[1:]:
        per_round = [t / b for t, b in zip(s.times, bare.times, strict=True)]
        print(f"  {s.name}: per-round ratio to bare: median {statistics.median(per_round):.2f}"
              f"x, range {min(per_round):.2f}-{max(per_round):.2f}x")


if __name__ == "__main__":
    main()
