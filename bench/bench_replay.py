"""Replay playback cost: this tree against a baseline (default ``f7145ee``), in one run.

    python bench/bench_replay.py                       # 5 rounds of 10 s each, against f7145ee
    python bench/bench_replay.py --rounds 3 --seconds 5 --base main

Plays a bundled sample log (``sample_runs``, the forge todo-service deployment log, timed)
in the headless replay app (``App.run_test``) at 0.1x, so its 1.4 s last longer than the
measured window, and measures, for ``--seconds`` of playback once indexing is done:

* CPU time of the process (``time.process_time``: the app's frames, ticks and workers);
* ``Widget.refresh`` calls per second (all widgets), and how many asked for a layout;
* content renders per second (``Widget._render``: a widget drawing or measuring its content).

The baseline is checked out into a temporary ``git worktree`` (removed afterwards); each
measurement runs in a fresh process whose ``PYTHONPATH`` names one tree, alternating between
the trees round by round. Medians are printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

TREE = Path(__file__).resolve().parent.parent
LOG = ("runs", "repo_readme_1118_forge_m1-large_Python", "todo-service")
SIZE = (160, 42)


def _child(seconds: float, speed: float) -> dict[str, Any]:
    """Runs in the measured process: play the sample log, count refreshes and renders."""
    from textual.widget import Widget

    import inspector
    from inspector.services.logs.deployment_log import locate_sample_log
    from inspector.ui.replay_app import ReplayApp

    counts: Counter[str] = Counter()
    refresh, render = Widget.refresh, Widget._render

    def counted_refresh(self: Widget, *args: Any, **kwargs: Any) -> Any:
        counts["refresh"] += 1
        if kwargs.get("layout"):
            counts["layout"] += 1
        return refresh(self, *args, **kwargs)

    def counted_render(self: Widget) -> Any:
        counts["render"] += 1
        return render(self)

    Widget.refresh = counted_refresh  # type: ignore[method-assign]
    Widget._render = counted_render  # type: ignore[method-assign]
    runs, run, task = LOG
    log = locate_sample_log(TREE / "sample_runs" / runs / run, task)
    app = ReplayApp(log, play=True, speed=speed)
    out: dict[str, Any] = {"inspector": str(Path(inspector.__file__).resolve().parent)}

    async def run_app() -> None:
        async with app.run_test(size=SIZE) as pilot:
            end = time.monotonic() + 10
            while getattr(app.screen, "indexing", True) and time.monotonic() < end:
                await pilot.pause(0.02)
            screen: Any = app.screen
            counts.clear()
            cpu0, wall0, pos0 = time.process_time(), time.monotonic(), screen.clock.position
            await asyncio.sleep(seconds)
            cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
            out.update(cpu_s=cpu, wall_s=wall, lines=screen.clock.position - pos0,
                       playing=screen.clock.playing,
                       **{f"{k}_per_s": v / wall for k, v in counts.items()})

    asyncio.run(run_app())
    return out


def _measure(tree: Path, seconds: float, speed: float) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    res = subprocess.run([sys.executable, __file__, "--child", "--seconds", str(seconds),
                          "--speed", str(speed)], env=env, cwd=tree, capture_output=True,
                         text=True, check=False)
    if res.returncode != 0:
        sys.exit(f"replay in {tree} failed:\n{res.stderr[-3000:]}")
    data: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    if not data["inspector"].startswith(str(tree.resolve())):
        sys.exit(f"{tree}: imported inspector from {data['inspector']} instead")
    return data


FIGURES = (("cpu_s", "CPU s"), ("refresh_per_s", "refresh()/s"),
           ("layout_per_s", "layout refresh/s"), ("render_per_s", "renders/s"),
           ("lines", "lines revealed"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="f7145ee", help="git ref of the baseline (default f7145ee)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=10.0, help="playback measured (default 10)")
    ap.add_argument("--speed", type=float, default=0.1, help="replay speed (default 0.1)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.seconds, args.speed)))
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still remove the worktree
    results: dict[str, list[dict[str, Any]]] = {"base": [], "this": []}
    with tempfile.TemporaryDirectory(prefix="gi-bench-replay-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(TREE), "worktree", "add", "--detach", "-q",
                        str(base), args.base], check=True)
        try:
            trees = {"base": base, "this": TREE}
            for i in range(args.rounds):
                for name in ("base", "this") if i % 2 == 0 else ("this", "base"):
                    r = _measure(trees[name], args.seconds, args.speed)
                    results[name].append(r)
                    print(f"round {i + 1}: {name:4} cpu {r['cpu_s']:5.2f} s  "
                          f"refresh {r.get('refresh_per_s', 0):6.1f}/s  "
                          f"renders {r.get('render_per_s', 0):6.1f}/s", flush=True)
        finally:
            subprocess.run(["git", "-C", str(TREE), "worktree", "remove", "--force", str(base)],
                           check=False)
    print(f"\n{args.seconds:g} s of headless playback at {args.speed:g}x of "
          f"{'/'.join(LOG[1:])}, {args.rounds} rounds, medians:")
    print(f"  {'':18}{'base ' + args.base:>16}{'this tree':>12}{'ratio':>8}")
    for key, label in FIGURES:
        b = statistics.median(r.get(key, 0.0) for r in results["base"])
        t = statistics.median(r.get(key, 0.0) for r in results["this"])
        ratio = f"{b / t:.2f}x" if t else "—"
        print(f"  {label:18}{b:16.2f}{t:12.2f}{ratio:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
