"""Pruning re-run logs on real folders: the newest kept, live ones and anything else untouched."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from inspector.services.logs.rerun_logs import (
    IN_USE,
    InUse,
    deployment_folders,
    in_use,
    prune_attempt_logs,
    prune_deployments,
)


def _folder(sample: Path, i: int, backend: str = "local") -> Path:
    folder = sample / f"20260101-1200{i:02d}-000000-{backend}"
    (folder / "logs").mkdir(parents=True)
    for name in ("install.log", "start.log", "health.log", "tests-1.log"):
        (folder / "logs" / name).write_text(f"folder {i}\n")
    return folder


def test_the_newest_are_kept_and_nothing_else_is_touched(tmp_path: Path) -> None:
    sample = tmp_path / "reruns" / "run_task_0"
    folders = [_folder(sample, i, "docker" if i % 2 else "local") for i in range(7)]
    # not deployment folders: a run's own logs, a file and a link named like a folder
    own = sample / "logs"
    own.mkdir()
    (own / "start.log").write_text("the run's evaluation log\n")
    (sample / "20260101-120100-000000-local").write_text("a file")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "keep.txt").write_text("not ours")
    (sample / "20260101-120200-000000-local").symlink_to(outside, target_is_directory=True)

    removed = prune_deployments(sample, 3)

    assert removed == folders[:4]
    assert deployment_folders(sample) == folders[4:]
    assert all((f / "logs" / "start.log").read_text() == f"folder {i + 4}\n"
               for i, f in enumerate(folders[4:]))
    assert (own / "start.log").is_file() and (outside / "keep.txt").is_file()
    assert (sample / "20260101-120100-000000-local").is_file()
    assert prune_deployments(sample, 3) == []  # already within the limit


def test_a_folder_in_use_is_kept_in_this_process_and_in_another(tmp_path: Path) -> None:
    sample = tmp_path / "s"
    a, b, c = (_folder(sample, i) for i in range(3))
    mine = InUse(a)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(b / IN_USE)!r}, os.O_CREAT | os.O_RDWR)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert in_use(a) and in_use(b) and not in_use(c)
        assert prune_deployments(sample, 0) == [c]
        assert a.is_dir() and b.is_dir()
    finally:
        holder.kill()
        holder.wait()
    mine.release()
    mine.release()  # twice is fine
    deadline = time.monotonic() + 5
    while in_use(b) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert prune_deployments(sample, 0) == [a, b]
    assert not sample.exists() or not any(sample.iterdir())


def test_attempt_logs_of_older_reruns_go(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    groups: list[list[Path]] = []
    n = 0
    for times in (1, 3, 2, 1):
        group = []
        for _ in range(times):
            n += 1
            path = logs / f"tests-{n}.log"
            path.write_text("x\n")
            group.append(path)
        groups.append(group)
    removed = prune_attempt_logs(groups, 2)
    assert [p.name for p in removed] == ["tests-1.log", "tests-2.log", "tests-3.log",
                                         "tests-4.log"]
    assert sorted(p.name for p in logs.iterdir()) == ["tests-5.log", "tests-6.log",
                                                       "tests-7.log"]
    assert [len(g) for g in groups] == [2, 1]
