"""Fixtures for files that are not what they claim: a small corpus copied from the bundled
runs, the CLI in a real process (optionally memory-capped or without privileges), a tiny real
tmpfs (disk full, read-only), and the app started in a process of its own."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = ROOT / "sample_runs"
HOSTILE = ROOT / "tests" / "fixtures" / "hostile" / "files"
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
MEMORY_CAP = 1 << 30  # a regression must fail the test, not OOM-kill the machine
UNPRIVILEGED = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--"]
"""Run a command with no capabilities: even as root, mode 000 then really denies access (the
interpreter may live under root's 0700 home, so changing the uid would lock it out too)."""


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the developer's config, themes or index."""
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """``corpus/{runs/<forge>,runs/<relay>,predictions/…,labels}``: real runs to point at."""
    root = tmp_path / "corpus"
    for run in (FORGE, RELAY):
        shutil.copytree(SAMPLE_RUNS / "runs" / run, root / "runs" / run)
        shutil.copytree(SAMPLE_RUNS / "predictions" / run, root / "predictions" / run)
    shutil.copytree(SAMPLE_RUNS / "labels", root / "labels")
    return root


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_process(args: list[str], *, timeout: float = 120, capped: bool = False,
                unprivileged: bool = False, cwd: Path | None = None
                ) -> subprocess.CompletedProcess[str]:
    """``args`` in a real process; a hang fails the test (timeout), never the machine."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    command = [*UNPRIVILEGED, *args] if unprivileged else args
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=cwd or ROOT, stdin=subprocess.DEVNULL,
                              preexec_fn=_cap_memory if capped else None)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(args[:6])} hung for {timeout}s (killed): {exc.stderr!r}")


def cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``inspector ARGS`` in a real process (see :func:`run_process`)."""
    return run_process([sys.executable, "-m", "inspector", *args], **kwargs)  # type: ignore[arg-type]


def assert_denied(folder: Path) -> None:
    """The unprivileged process really cannot read ``folder`` (else the test proves nothing)."""
    probe = run_process([sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])",
                         str(folder)], unprivileged=True, timeout=30)
    assert probe.returncode != 0 and "PermissionError" in probe.stderr, probe


APP_PROBE = """
import asyncio, json, sys
from pathlib import Path
from textual.worker import WorkerCancelled
from inspector.config import load_settings
from inspector.ui.app import InspectorApp

async def main() -> None:
    root, labels = Path(sys.argv[1]), Path(sys.argv[2])
    app = InspectorApp(root, settings=load_settings(), watch=False, annotator="ana",
                       labels_dir=labels)
    shown = []  # every notification, also one that timed out before the probe reads them
    notify = app.notify
    app.notify = lambda message, *a, **k: (shown.append(str(message)), notify(message, *a, **k))[1]
    async with app.run_test(size=(180, 50)) as pilot:
        for _ in range(20):
            try:
                await app.workers.wait_for_complete()
            except WorkerCancelled:
                pass
            await pilot.pause(0.1)
            if app.main_screen.runs or app.catalog.issues():
                break
        await pilot.pause(0.3)
        screen = app.main_screen
        out = {"notifications": shown,
               "problems": str(screen.query_one("#problems").render()),
               "runs": sorted(r.run_id for r in screen.runs),
               "samples": len(screen.samples),
               "labelling": app.labels is not None and app.labels.writable}
    print("PROBE " + json.dumps(out), flush=True)

asyncio.run(main())
"""


def start_app(root: Path, labels: Path, **kwargs: object) -> dict:
    """Start the app on ``root`` in a process of its own (Pilot, headless) and report what it
    shows: notifications, the problems box, the runs listed."""
    done = run_process([sys.executable, "-c", APP_PROBE, str(root), str(labels)],
                       **kwargs)  # type: ignore[arg-type]
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("PROBE ")]
    assert done.returncode == 0 and lines, f"the app did not start: {done.stderr[-3000:]}"
    return json.loads(lines[-1].removeprefix("PROBE "))


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Callable[..., Path]]:
    """Mount a real tmpfs of a few KB (we are root here, and in CI): a disk that fills up, or
    is remounted read-only. A mount that fails fails the test: it is never skipped."""
    mounted: list[Path] = []

    def mount(size: str = "64k") -> Path:
        point = tmp_path / f"fs-{uuid.uuid4().hex[:6]}"
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs",
                               str(point)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.fail(f"cannot mount a tmpfs at {point} (these tests need root): "
                        f"{done.stderr.strip()}")
        mounted.append(point)
        return point

    yield mount
    for point in reversed(mounted):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def remount_read_only(point: Path) -> None:
    done = subprocess.run(["mount", "-o", "remount,ro", str(point)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def fill(folder: Path) -> int:
    """Write into ``folder`` until its file system is full; returns the bytes written."""
    written = 0
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        while True:
            try:
                n = os.write(fd, b"\0" * 1024)
            except OSError:
                break
            if n == 0:
                break
            written += n
    finally:
        os.close(fd)
    return written


def copy_fixture(name: str, dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HOSTILE / name, dest)
    return dest
