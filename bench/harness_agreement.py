"""Does `inspector evaluate` agree with an independent plain pytest run, test by test?

    python bench/harness_agreement.py [--runs NAME ...]

For every sample of the bundled real-task runs (our run format), the generated repo is run by
a plain script that shares no code with the harness: `python -m venv`, `pip install` of the
repo's requirements plus pytest/requests/httpx and the suite's own requirements, the golden
`tests/` copied in, `bash start.sh` in its own process group, wait for the port, `python -m
pytest tests -v`, kill the group. Per-test outcomes are read from pytest's `-v` lines and
compared with the recorded results. Prints disagreements and the totals (tests agreeing /
all). Ports are taken one at a time (the tasks share 8080, 8000 and 5000).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.model.runs.runformat import load_run  # noqa: E402
from inspector.services.deploy.backend import base_url_env  # noqa: E402
from inspector.services.host.ports import PortLock, port_open, wait_port_closed  # noqa: E402

REAL_RUNS = ("repo_readme_1125_atlas_m2-large_Python", "repo_readme_1125_dash_m2-mini_Python",
             "repo_readme_1125_relay_open_coder-7b_Python")
_LINE = re.compile(r"^(?P<id>\S+::\S.*?) (?P<out>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")
_COLLECT = re.compile(r"^(?:_+ )?ERROR collecting (?P<file>\S+\.py)\b")
NORMAL = {"PASSED": "passed", "FAILED": "failed", "ERROR": "error", "SKIPPED": "skipped",
          "XFAIL": "skipped", "XPASS": "passed"}


def plain_run(repo: Path, tests_dir: Path, port: int, base_env: dict[str, str], work: Path
              ) -> dict[str, str] | None:
    """Outcome per test id (ids as pytest -v prints them, from the repo root); None when the
    service never opened its port."""
    dest = work / "repo"
    shutil.copytree(repo, dest, ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv"))
    shutil.rmtree(dest / "tests", ignore_errors=True)
    shutil.copytree(tests_dir, dest / "tests")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    args = ["pytest", "requests", "httpx"]
    if (dest / "requirements.txt").is_file():
        args += ["-r", "requirements.txt"]
    if (tests_dir / "requirements.txt").is_file():
        args += ["-r", "tests/requirements.txt"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run([py, "-m", "pip", "install", "-q", *args], cwd=dest, **quiet)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv), "PORT": str(port)}
    proc = subprocess.Popen(["bash", "start.sh"], cwd=dest, env=env, start_new_session=True,
                            **quiet)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not port_open(port):
            if proc.poll() is not None:
                return None
            time.sleep(0.1)
        if not port_open(port):
            return None
        out = subprocess.run([py, "-m", "pytest", "tests", "-v", "-p", "no:cacheprovider",
                              "--continue-on-collection-errors"], cwd=dest,
                             env={**env, **base_env}, capture_output=True, text=True,
                             errors="replace", timeout=300).stdout
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        wait_port_closed(port, 10.0)  # before the port lock is released
    found: dict[str, str] = {}
    for line in out.splitlines():
        m = _LINE.match(line)
        if m:
            found.setdefault(m.group("id"), NORMAL[m.group("out")])
        m = _COLLECT.match(line)
        if m:
            found[m.group("file")] = "error"
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="*", default=list(REAL_RUNS))
    args = ap.parse_args()
    agree = total = 0
    for name in args.runs:
        run, _ = load_run(ROOT / "sample_runs" / "runs" / name)
        for s in run.samples:
            task = run.tasks[s.task]
            if s.repo_path is None or task.tests_dir is None or not task.port:
                continue
            with tempfile.TemporaryDirectory(prefix="gi-agree-") as tmp, PortLock(task.port):
                plain = plain_run(s.repo_path, task.tests_dir, task.port,
                                  base_url_env(task, task.port), Path(tmp))
            ours = {c.id: c.outcome.value for c in s.tests.cases}
            if plain is None:
                same = not s.deployment.success
                print(f"{s.sample_id}: plain run never deployed; ours "
                      f"{'agrees' if same else 'deployed'}")
                continue
            ids = sorted(set(ours) | set(plain))
            diff = [(i, ours.get(i), plain.get(i)) for i in ids if ours.get(i) != plain.get(i)]
            agree += len(ids) - len(diff)
            total += len(ids)
            print(f"{s.sample_id}: {len(ids) - len(diff)}/{len(ids)} tests agree")
            for i, a, b in diff:
                print(f"    {i}: ours {a}, plain {b}")
    print(f"\ntests agreeing: {agree}/{total} ({agree / max(1, total):.1%})")


if __name__ == "__main__":
    main()
