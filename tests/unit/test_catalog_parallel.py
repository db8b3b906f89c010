"""A large index build spreads loading over worker processes and writes the same index.

Real processes (``python -m inspector.services.catalog.worker``), real files: a copy of the
bundled ``sample_runs/`` indexed in this process and with ``GENESIS_INDEX_JOBS=2``.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from inspector.model.runs.discover import RunLocation
from inspector.services.catalog.index import Catalog
from inspector.services.catalog.load import POOL_FROM_SAMPLES, jobs_for

COUNTED = (6, 39, 509)  # runs, samples, tests: the four stock copies are twins, not runs


@pytest.fixture
def root(sample_runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    dest = tmp_path / "data"
    for part in ("runs", "repogenesis", "tasks", "predictions"):
        shutil.copytree(sample_runs / part, dest / part, symlinks=True)
    return dest


def rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as con:
        return {table: sorted(con.execute(f"SELECT * FROM {table}"), key=repr)
                for table in ("runs", "samples", "tests")}


def build(root: Path, db: Path, monkeypatch: pytest.MonkeyPatch, jobs: str) -> Catalog:
    monkeypatch.setenv("GENESIS_INDEX_JOBS", jobs)
    catalog = Catalog(root, db_path=db)
    catalog.refresh()
    return catalog


def test_two_workers_write_the_same_index_as_one_process(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial = build(root, tmp_path / "serial.sqlite3", monkeypatch, "1")
    pooled = build(root, tmp_path / "pooled.sqlite3", monkeypatch, "2")
    try:
        assert pooled.counts() == serial.counts() == COUNTED
        assert rows(tmp_path / "pooled.sqlite3") == rows(tmp_path / "serial.sqlite3")
        assert [r.key for r in pooled.runs()] == [r.key for r in serial.runs()]
        assert pooled.issues() == serial.issues()
    finally:
        serial.close()
        pooled.close()


def test_a_pooled_build_from_a_thread_as_the_app_does(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INDEX_JOBS", "2")
    catalog = Catalog(root, db_path=tmp_path / "index.sqlite3")
    thread = threading.Thread(target=catalog.refresh)
    thread.start()
    thread.join(timeout=120)
    try:
        assert not thread.is_alive(), "the build never finished"
        assert catalog.counts() == COUNTED
    finally:
        catalog.close()


def test_cancelling_a_pooled_build_keeps_a_consistent_partial_index(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INDEX_JOBS", "2")
    catalog = Catalog(root, db_path=tmp_path / "index.sqlite3")
    stored: list[str] = []  # progress is reported as each loaded location is about to be stored
    try:
        report = catalog.refresh(progress=lambda done, total, what: stored.append(what),
                                 cancelled=lambda: bool(stored))
        assert report.cancelled and len(report.reloaded) == 1
        (run,) = catalog.runs()
        assert {e.run_key for e in catalog.samples()} == {run.key}
        report = catalog.refresh()  # the rest, without redoing the first location
        assert not report.cancelled and report.unchanged == 1
        assert catalog.counts() == COUNTED
    finally:
        catalog.close()


def test_a_worker_that_cannot_start_leaves_the_build_to_this_process(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INDEX_JOBS", "2")
    monkeypatch.setattr("sys.executable", "/bin/false")  # every worker exits at once
    catalog = Catalog(root, db_path=tmp_path / "index.sqlite3")
    try:
        report = catalog.refresh()
        assert not report.cancelled and catalog.counts() == COUNTED
    finally:
        catalog.close()


def sample_folders(root: Path, run: str, n: int) -> RunLocation:
    for i in range(n):
        (root / run / "samples" / f"task{i % 10}" / str(i)).mkdir(parents=True)
    return RunLocation("run", root / run)


def test_small_builds_stay_in_process_and_large_ones_use_the_cores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GENESIS_INDEX_JOBS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    small = [(sample_folders(tmp_path, f"s{i}", 10), "sig") for i in range(3)]
    assert jobs_for(small) == 1
    half = POOL_FROM_SAMPLES // 2
    large = [(sample_folders(tmp_path, f"l{i}", half), "sig") for i in range(2)]
    assert jobs_for(large) == 2
    assert jobs_for(large[:1]) == 1  # one location cannot be split
    monkeypatch.setenv("GENESIS_INDEX_JOBS", "1")
    assert jobs_for(large) == 1
