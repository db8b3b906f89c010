"""Java evaluation: ``inspector evaluate`` (Docker sandbox) cold and warm against a plain
``mvn -o`` of the same repo, a warm single-test re-run, and the artifact cache across a grid.

    python bench/bench_java.py [--repeat 2] [--repo careful_java-m1] [--parts evaluate,rerun,grid]

Maven resolves from Debian's ``/usr/share/maven-repo`` served over HTTP on the Docker bridge
(``--maven-repo http://172.17.0.1:PORT``: the only repository these machines have, as a mirror
URL so the per-machine cache is exercised; the sandbox reaches it only during its install).

* **plain**: what a careful script does by hand on the host: copy the repo with the task's
  golden ``src/test``, ``bash start.sh`` (``HOME`` holding a local repository it filled once,
  untimed), wait for the port, ``mvn -o compiler:compile compiler:testCompile surefire:test``
  (the repository has no clean/resources plugins, so the lifecycle's ``mvn -o test`` cannot
  run), stop the service. No sandbox, no second build.
* **ours cold**: a fresh ``GENESIS_INSPECTOR_CACHE`` (empty artifact cache); **warm**: the cache
  the cold run filled. Interleaved per repeat; medians.
* **re-run**: ``inspector rerun --times 3`` of one test on one deployment: its per-attempt
  seconds (attempts 2 and 3 are warm: Surefire only).
* **grid**: every evaluable repo of ``corpus-java/predictions`` in one run, fresh cache: the
  artifacts each sample took from the cache and from the source (``install.log``).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "corpus-java" / "tasks"
PRED = ROOT / "corpus-java" / "predictions"
TASK = TASKS / "repo" / "bookmarks-java"
DEBIAN = Path("/usr/share/maven-repo")
BRIDGE = "172.17.0.1"
TEST = "bookmarks.tests.CreateBookmarkTest::healthReturnsOk"
GRID = ["careful_java-m1", "hasty_java-m1", "weak3b_java-s3", "sprint_hasty-java",
        "shard_frag-java"]
_RESOLVED = re.compile(r"artifacts resolved: (\d+) from the per-machine cache, (\d+) from")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # every request would be printed
        pass


def serve_mirror() -> str:
    handler = functools.partial(_Quiet, directory=str(DEBIAN))
    server = http.server.ThreadingHTTPServer((BRIDGE, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://{BRIDGE}:{server.server_address[1]}"


_PRED_COPY: list[Path] = []  # the predictions copied beside the runs (a re-run opens repos
# only in its run's neighbourhood)


def run_dir(name: str) -> Path:
    return (_PRED_COPY[0] if _PRED_COPY else PRED) / f"repo_readme_1129_{name}_Java"


def ours(work: Path, mirror: str, cache: Path, repos: list[str]) -> tuple[float, Path]:
    out = work / f"run-{time.monotonic_ns()}"
    cmd = [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks", str(TASKS),
           "--out", str(out), "--backend", "docker", "--maven-repo", mirror, "--quiet"]
    for r in repos:
        cmd += ["--predictions", str(run_dir(r))]
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(cache)}
    t0 = time.monotonic()
    subprocess.run(cmd, env=env, check=False, capture_output=True)
    return time.monotonic() - t0, out


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def plain(work: Path, repo: str, home: Path, mirror_settings: Path) -> float:
    tree = work / f"plain-{time.monotonic_ns()}"
    shutil.copytree(run_dir(repo) / "bookmarks-java", tree)
    shutil.rmtree(tree / "src" / "test", ignore_errors=True)
    shutil.copytree(TASK / "src" / "test", tree / "src" / "test")
    env = {**os.environ, "HOME": str(home)}
    t0 = time.monotonic()
    subprocess.run(["mvn", "-B", "-q", "-o", "-s", str(mirror_settings), "compiler:compile"],
                   cwd=tree, env=env, check=False, capture_output=True)
    service = subprocess.Popen(["bash", "start.sh"], cwd=tree, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 30
    while not _port_open(8080) and time.monotonic() < deadline:
        time.sleep(0.05)
    subprocess.run(["mvn", "-B", "-q", "-o", "-s", str(mirror_settings),
                    "compiler:testCompile", "surefire:test"], cwd=tree, env=env, check=False,
                   capture_output=True)
    os.killpg(service.pid, signal.SIGKILL)
    service.wait()
    return time.monotonic() - t0


def prefill(work: Path, repo: str, mirror: str) -> tuple[Path, Path]:
    """A HOME whose ~/.m2 holds what the repo and its tests need (filled once, untimed)."""
    home = work / "plain-home"
    m2 = home / ".m2"
    m2.mkdir(parents=True, exist_ok=True)
    settings = m2 / "settings.xml"
    settings.write_text(f"<settings><localRepository>{m2 / 'repository'}</localRepository>"
                        f"<mirrors><mirror><id>m</id><mirrorOf>*</mirrorOf><url>{mirror}</url>"
                        "</mirror></mirrors></settings>")
    tree = work / "prefill"
    shutil.copytree(run_dir(repo) / "bookmarks-java", tree)
    shutil.rmtree(tree / "src" / "test", ignore_errors=True)
    shutil.copytree(TASK / "src" / "test", tree / "src" / "test")
    subprocess.run(["mvn", "-B", "-q", "-s", str(settings), "compiler:compile",
                    "compiler:testCompile", "surefire:test",
                    "-Dtest=bookmarks.tests.CreateBookmarkTest#none", "-DfailIfNoTests=false",
                    "-Dsurefire.failIfNoSpecifiedTests=false"],
                   cwd=tree, env={**os.environ, "HOME": str(home)}, check=False,
                   capture_output=True)
    return home, settings


def rerun_seconds(run: Path, cache: Path, mirror: str) -> list[float]:
    cmd = [sys.executable, "-m", "inspector.cli", "rerun", str(run), "bookmarks-java", TEST,
           "--times", "3", "--backend", "docker", "--maven-repo", mirror, "--json"]
    done = subprocess.run(cmd, env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(cache)},
                          capture_output=True, text=True, check=False)
    report = json.loads(done.stdout or "{}")
    return [float(a["seconds"]) for a in report.get("attempts", [])]


def grid_hits(run: Path) -> list[tuple[str, int, int]]:
    rows = []
    for log in sorted(run.glob("samples/*/*/logs/install.log")):
        m = _RESOLVED.search(log.read_text(errors="replace"))
        if m:
            rows.append((log.parts[-3], int(m.group(1)), int(m.group(2))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--repo", default="careful_java-m1")
    ap.add_argument("--parts", default="evaluate,rerun,grid",
                    help="which measurements (comma-separated: evaluate, rerun, grid)")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    mirror = serve_mirror()
    work = Path(tempfile.mkdtemp(prefix="bench-java-"))
    shutil.copytree(PRED, work / "predictions")
    _PRED_COPY.append(work / "predictions")
    if "evaluate" in parts:
        evaluate_figures(work, mirror, args.repo, args.repeat)
    if "rerun" in parts:
        _, run = ours(work, mirror, work / "cache-rerun", [args.repo])
        attempts = rerun_seconds(run, work / "cache-rerun", mirror)
        print("warm single-test re-run (inspector rerun --times 3 on one deployment), "
              "seconds per attempt: " + ", ".join(f"{a:.1f}" for a in attempts))
    if "grid" in parts:
        grid_figures(work, mirror)
    shutil.rmtree(work, ignore_errors=True)


def evaluate_figures(work: Path, mirror: str, repo: str, repeat: int) -> None:
    home, settings = prefill(work, repo, mirror)
    times: dict[str, list[float]] = {"plain mvn -o": [], "ours cold": [], "ours warm": []}
    for i in range(repeat):
        cache = work / f"cache-{i}"
        times["plain mvn -o"].append(plain(work, repo, home, settings))
        cold, _ = ours(work, mirror, cache, [repo])
        warm, _ = ours(work, mirror, cache, [repo])
        times["ours cold"].append(cold)
        times["ours warm"].append(warm)
    base = statistics.median(times["plain mvn -o"])
    print(f"Java evaluate of {repo} (median of {repeat}, seconds; ratio to plain)")
    for name, xs in times.items():
        med = statistics.median(xs)
        print(f"  {name:14} {med:7.1f}  x{med / base:.2f}   runs: "
              + ", ".join(f"{x:.1f}" for x in xs))


def grid_figures(work: Path, mirror: str) -> None:
    _, grid = ours(work, mirror, work / "cache-grid", GRID)
    rows = grid_hits(grid)
    hits, misses = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"artifact cache across a grid of {len(rows)} repos (fresh cache, in order):")
    for sample, h, m in rows:
        print(f"  sample {sample}: {h} from the cache, {m} from the mirror")
    if hits + misses:
        print(f"  hit rate {hits / (hits + misses):.1%} ({hits} of {hits + misses} artifacts)")


if __name__ == "__main__":
    main()
