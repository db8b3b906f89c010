"""``inspector evaluate`` against a plain venv + pytest runner, cold and warm, in one run.

    python bench/bench_evaluate.py [--cold-repeat 1] [--warm-repeat 3] [--jobs 1,2]
                                   [--backends local,docker] [--task NAME ...]

For every generated repo of ``--predictions`` (default: the bundled dash agent's 8 real Python
tasks), the **plain runner** does what a minimal careful script would, serially (the tasks'
ports collide): copy the repo, ``python -m venv``, one ``pip install -r requirements.txt
pytest requests httpx [-r tests/requirements.txt]``, copy the task's golden ``tests/`` in,
``bash start.sh`` (PORT set) in its own process group, wait for the port, ``python -m pytest
tests``, kill the process group. **Ours** is ``inspector evaluate`` (local backend with
``--allow-local-exec``, and the Docker backend when asked) on the same repos, run as a CLI
process so interpreter start and writing the run count.

* cold: nothing cached. The plain runner uses ``pip --no-cache-dir``; ours gets a fresh
  ``GENESIS_INSPECTOR_CACHE`` (venvs), ``UV_CACHE_DIR`` and ``PIP_CACHE_DIR`` (Docker: the
  repos' sample images are deleted first), so both download every package.
* warm: ours with its caches as the cold run left them; the plain runner with a pip cache it
  filled once beforehand (its best case: it still builds a venv per repo).

Configurations are interleaved within each repeat (the machine is shared and noisy) and the
table shows medians and ratios to the plain runner of the same temperature, then where the
time goes: the plain runner's steps, and ours from the run's ``result.json`` phases ("outside
samples" is the CLI's start, scheduling and writing the run; with --jobs 2 samples overlap).
Every run holds the machine-wide port lock of the port it uses (as ``inspector evaluate``
does), so other inspector processes on the machine cannot make either side collide.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.model.benchmark.tasks import load_tasks  # noqa: E402
from inspector.services.deploy.backend import base_url_env  # noqa: E402
from inspector.services.host.ports import PortLock, port_open  # noqa: E402

PRED = ROOT / "sample_runs" / "predictions" / "repo_readme_1125_dash_m2-mini_Python"
TASKS = ROOT / "sample_runs" / "tasks"
PORT_WAIT, TEST_LIMIT, INSTALL_LIMIT = 15.0, 300.0, 600.0


@dataclass
class Timing:
    wall: float
    steps: dict[str, float] = field(default_factory=dict)  # summed over samples
    passed: int = 0
    tests: int = 0
    per_task: dict[str, tuple[int, int]] = field(default_factory=dict)  # (passed, counted)
    notes: list[str] = field(default_factory=list)


# -- the plain runner -----------------------------------------------------------------------
def _pytest_counts(text: str) -> tuple[int, int]:
    """(passed, passed + failed + errors) from pytest's last summary line."""
    import re

    line = next((ln for ln in reversed(text.splitlines()) if " in " in ln and "=" in ln), "")
    n = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|errors?)", line)}
    passed = n.get("passed", 0)
    return passed, passed + n.get("failed", 0) + n.get("error", 0) + n.get("errors", 0)


def plain_one(repo: Path, task, work: Path, pip_cache: Path | None, t: Timing) -> None:  # noqa: ANN001
    port = task.port or 8080
    dest = work / repo.name
    shutil.copytree(repo, dest, ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    if pip_cache is None:
        env["PIP_NO_CACHE_DIR"] = "1"
    else:
        env["PIP_CACHE_DIR"] = str(pip_cache)
    env.pop("UV_CACHE_DIR", None)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    t0 = time.monotonic()
    venv = work / f"{repo.name}-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, **quiet)
    py = str(venv / "bin" / "python")
    args = ["pytest", "requests", "httpx"]
    if (dest / "requirements.txt").is_file():
        args += ["-r", "requirements.txt"]
    if task.tests_dir and (task.tests_dir / "requirements.txt").is_file():
        args += ["-r", str(task.tests_dir / "requirements.txt")]
    if pip_cache is None:
        args.append("--no-cache-dir")
    inst = subprocess.run([py, "-m", "pip", "install", "-q", *args], cwd=dest, env=env,
                          timeout=INSTALL_LIMIT, **quiet)
    if task.tests_dir:
        shutil.rmtree(dest / "tests", ignore_errors=True)
        shutil.copytree(task.tests_dir, dest / "tests")
    t1 = time.monotonic()
    t.steps["venv + pip install"] = t.steps.get("venv + pip install", 0) + t1 - t0
    env.update({"PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "VIRTUAL_ENV": str(venv),
                "PORT": str(port)})
    proc = None
    if inst.returncode == 0 and (dest / "start.sh").is_file():
        proc = subprocess.Popen(["bash", "start.sh"], cwd=dest, env=env,
                                start_new_session=True, **quiet)
        deadline = time.monotonic() + PORT_WAIT
        while time.monotonic() < deadline and proc.poll() is None and not port_open(port):
            time.sleep(0.1)
    t2 = time.monotonic()
    t.steps["start + port"] = t.steps.get("start + port", 0) + t2 - t1
    try:
        out = subprocess.run([py, "-m", "pytest", "tests"], cwd=dest,
                             env={**env, **base_url_env(task, port)}, capture_output=True,
                             text=True, errors="replace", timeout=TEST_LIMIT)
        p, n = _pytest_counts(out.stdout)
        t.passed += p
        t.tests += n
        t.per_task[repo.name] = (p, n)
    except subprocess.TimeoutExpired:
        t.per_task[repo.name] = (0, 0)
    t3 = time.monotonic()
    t.steps["tests"] = t.steps.get("tests", 0) + t3 - t2
    if proc is not None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=5)
        except (ProcessLookupError, PermissionError):
            pass
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    t.steps["stop"] = t.steps.get("stop", 0) + time.monotonic() - t3


def plain_runner(repos: list[tuple[Path, object]], pip_cache: Path | None) -> Timing:
    work = Path(tempfile.mkdtemp(prefix="gi-bench-plain-"))
    t = Timing(0.0)
    t0 = time.monotonic()
    try:
        for repo, task in repos:
            with PortLock(task.port or 8080) as lock:  # type: ignore[attr-defined]
                t.steps["port lock wait"] = t.steps.get("port lock wait", 0) + lock.waited
                plain_one(repo, task, work, pip_cache, t)
    finally:
        t.wall = time.monotonic() - t0
        shutil.rmtree(work, ignore_errors=True)
    return t


# -- ours -----------------------------------------------------------------------------------
def ours(backend: str, jobs: int, caches: Path, tasks: list[str], pred: Path,
         tasks_root: Path) -> Timing:
    out = Path(tempfile.mkdtemp(prefix="gi-bench-run-"))
    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(caches / "inspector"),
               UV_CACHE_DIR=str(caches / "uv"), PIP_CACHE_DIR=str(caches / "pip"))
    cmd = [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(tasks_root),
           "--predictions", str(pred), "--out", str(out / "run"), "--jobs", str(jobs),
           "--backend", backend, "--allow-local-exec", "--quiet"]
    for name in tasks:
        cmd += ["--task", name]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    t = Timing(time.monotonic() - t0)
    if proc.returncode != 0:
        sys.exit(f"inspector evaluate failed ({proc.returncode}): {proc.stderr[-2000:]}")
    elapsed = 0.0
    for f in sorted((out / "run" / "samples").glob("*/*/result.json")):
        r = json.loads(f.read_text())
        elapsed += r["elapsed_seconds"]
        phased = 0.0
        for ph in r["deployment"]["phases"]:
            d = ph.get("duration_seconds") or 0.0
            name = "start + health" if ph["phase"] in ("start", "health") else ph["phase"]
            t.steps[name] = t.steps.get(name, 0) + d
            phased += d
        t.steps["sample overhead"] = t.steps.get("sample overhead", 0) + r["elapsed_seconds"] \
            - phased
        counted = r["tests"]["passed"] + r["tests"]["failed"] + r["tests"]["errors"]
        t.passed += r["tests"]["passed"]
        t.tests += counted
        t.per_task[r["task"]] = (r["tests"]["passed"], counted)
        if not r["deployment"]["success"]:
            t.notes.append(f"{r['task']}: {r['deployment']['message'][:160]}")
    t.steps["outside samples"] = t.wall - elapsed
    shutil.rmtree(out, ignore_errors=True)
    return t


def drop_images(repos: list[tuple[Path, object]]) -> None:
    """Delete the Docker sample images these repos would use (a cold Docker run)."""
    import docker

    from inspector.services.sandbox.base_image import base_image_id
    from inspector.services.sandbox.images import SAMPLE_REPO, _read, requirements_hash

    client = docker.from_env()
    base = base_image_id(client)
    for repo, task in repos:
        tests = task.tests_dir  # type: ignore[attr-defined]
        key = requirements_hash(base or "", _read(repo / "requirements.txt"),
                                _read(tests / "requirements.txt") if tests else None)
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(f"{SAMPLE_REPO}:{key}", force=True)


# -- table ----------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cold-repeat", type=int, default=1)
    ap.add_argument("--warm-repeat", type=int, default=3)
    ap.add_argument("--jobs", default="1,2", help="--jobs values for ours (comma-separated)")
    ap.add_argument("--backends", default="local", help="local and/or docker")
    ap.add_argument("--tasks-root", type=Path, default=TASKS)
    ap.add_argument("--predictions", type=Path, default=PRED)
    ap.add_argument("--task", action="append", help="only this task (repeatable)")
    args = ap.parse_args()
    tasks, _ = load_tasks(args.tasks_root)
    names = sorted(n for n in tasks if (args.predictions / n).is_dir()
                   and (not args.task or n in args.task))
    repos = [(args.predictions / n, tasks[n]) for n in names]
    configs = [(b, int(j)) for b in args.backends.split(",") for j in args.jobs.split(",")]
    scratch = Path(tempfile.mkdtemp(prefix="gi-bench-eval-"))
    results: dict[tuple[str, str], list[Timing]] = {}

    def record(temp: str, label: str, t: Timing) -> None:
        results.setdefault((temp, label), []).append(t)
        print(f"  {temp:<4} {label:<18} {t.wall:7.1f}s  tests passed {t.passed}/{t.tests}",
              flush=True)
        plain = results.get((temp, "plain runner"), [None])[-1]
        if plain is not None and plain is not t:
            for task, counts in sorted(t.per_task.items()):
                if plain.per_task.get(task) != counts:
                    print(f"       {task}: {counts[0]}/{counts[1]} passed, plain runner "
                          f"{plain.per_task.get(task)}", flush=True)
            for note in t.notes:
                print(f"       not deployed: {note}", flush=True)

    print(f"{len(repos)} repos from {args.predictions.name}: {', '.join(names)}")
    try:
        caches: dict[tuple[str, int], Path] = {}
        for r in range(args.cold_repeat):
            record("cold", "plain runner", plain_runner(repos, None))
            for backend, jobs in configs:
                c = scratch / f"cold-{r}-{backend}-{jobs}"
                caches[(backend, jobs)] = c
                if backend == "docker":
                    drop_images(repos)
                record("cold", f"ours {backend} -j{jobs}",
                       ours(backend, jobs, c, names, args.predictions, args.tasks_root))
        pip_cache = scratch / "plain-pip-cache"
        print("  (filling the plain runner's pip cache)", flush=True)
        plain_runner(repos, pip_cache)
        for _ in range(args.warm_repeat):
            record("warm", "plain runner", plain_runner(repos, pip_cache))
            for backend, jobs in configs:
                record("warm", f"ours {backend} -j{jobs}",
                       ours(backend, jobs, caches[(backend, jobs)], names, args.predictions,
                            args.tasks_root))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_table(results)


def print_table(results: dict[tuple[str, str], list[Timing]]) -> None:
    med = {k: statistics.median(t.wall for t in v) for k, v in results.items()}
    print("\n| configuration | cold (s) | cold ratio | warm (s) | warm ratio |")
    print("|---|---|---|---|---|")
    labels = list(dict.fromkeys(label for _, label in results))
    for label in labels:
        cells = []
        for temp in ("cold", "warm"):
            if (temp, label) not in med:
                cells += ["", ""]
                continue
            n = len(results[(temp, label)])
            base = med.get((temp, "plain runner"))
            ratio = f"{med[(temp, label)] / base:.2f}x" if base else ""
            cells += [f"{med[(temp, label)]:.1f}" + (f" (n={n})" if n > 1 else ""), ratio]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nWhere the time goes (seconds summed over samples; median run):")
    for (temp, label), runs in results.items():
        t = sorted(runs, key=lambda x: x.wall)[len(runs) // 2]
        steps = ", ".join(f"{k} {v:.1f}" for k, v in t.steps.items())
        print(f"  {temp} {label}: {t.wall:.1f} = {steps}")


if __name__ == "__main__":
    main()
