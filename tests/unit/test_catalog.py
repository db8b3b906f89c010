"""The catalog: an SQLite index of the runs under a root, refreshed per run location.

Every test works on a copy of the bundled ``sample_runs/`` in ``tmp_path`` with its own index
file, and points ``GENESIS_INSPECTOR_CACHE`` at ``tmp_path`` so the user's cache is never
touched.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from inspector.model import discover_runs
from inspector.model.results.verdict import verdict_of
from inspector.model.untrusted.errors import LoadError
from inspector.services.catalog import index as catalog_mod
from inspector.services.catalog.index import INDEX_VERSION, Catalog, index_path_for
from inspector.services.figures.metrics import compute_run_metrics

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
DASH_JAVA = "repo_readme_1125_dash_m2-mini_Java"
RELAY_REAL = "repo_readme_1125_relay_open_coder-7b_Python"


def stock_stamp(folder: str) -> str:
    """The stamp of the one ``report_<stamp>.json`` in a bundled stock copy (it changes at
    every regeneration)."""
    (report_file,) = (SAMPLE_RUNS / "repogenesis" / folder).glob("report_*.json")
    return report_file.stem.removeprefix("report_")


FORGE_STOCK = f"{FORGE}@{stock_stamp('forge')}"
ATLAS_STOCK = f"{ATLAS}@{stock_stamp('atlas')}"
# run id -> samples (one per task): six runs in our format (runs/) and four stock copies
# (repogenesis/{forge,relay,atlas,dash})
SAMPLES = {FORGE: 6, FORGE_STOCK: 6, RELAY: 6, f"{RELAY}@relay": 6, ATLAS: 8, ATLAS_STOCK: 8,
           DASH_JAVA: 3, DASH: 8, f"{DASH}@dash": 8, RELAY_REAL: 8}
RUN_IDS = sorted(SAMPLES)
OUR_RUNS = [FORGE, RELAY, ATLAS, DASH_JAVA, DASH, RELAY_REAL]
STOCK_FOLDERS = ["atlas", "dash", "forge", "relay"]
TASKS = ["inventory-api", "notes-api", "quote-board", "todo-service", "unit-converter",
         "url-shortener"]
# test rows exist only for our format; hand count of tests.cases in the result.json files:
# forge 53 and relay 53 (10+10+5+12+8+8), atlas 115 (33+13+31+22+2+2+7+5), dash Java 0 (no
# suite ran), dash 144 and relay-real 144 (33+42+31+22 skipped+2+2+7+5)
# runs, samples, tests of the bundled data as counted: the four stock copies are the same
# evaluations as four runs of ours (model/twins.py), kept in the index but never counted
FULL_COUNTS = (6, 39, 509)
N = 10  # run locations: one folder per run (six of ours, four stock copies)
COUNTED_IDS = sorted(OUR_RUNS)
# without RELAY's folder, its stock copy (met alone) is a run of its own
WITHOUT_RELAY = sorted([r for r in OUR_RUNS if r != RELAY] + [f"{RELAY}@relay"])
PARTS = ("runs", "repogenesis", "tasks", "predictions")


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(cache))
    return cache


def copy_data(sample_runs: Path, dst: Path, parts: tuple[str, ...] = PARTS) -> Path:
    for name in parts:
        shutil.copytree(sample_runs / name, dst / name, symlinks=True)
    return dst


@pytest.fixture
def root(sample_runs: Path, tmp_path: Path) -> Path:
    return copy_data(sample_runs, tmp_path / "data")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "index.sqlite3"


@pytest.fixture
def cat(root: Path, db_path: Path):
    c = Catalog(root, db_path=db_path)
    yield c
    c.close()


@pytest.fixture
def built(cat: Catalog) -> Catalog:
    cat.refresh()
    return cat


@pytest.fixture(scope="module")
def sroot(sample_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled data shared by the read-only tests of this module."""
    return copy_data(sample_runs, tmp_path_factory.mktemp("shared") / "data")


@pytest.fixture(scope="module")
def shared(sroot: Path):
    """A built catalog over ``sroot`` for tests that only read (never mutate it)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GENESIS_INSPECTOR_CACHE", str(sroot.parent / "cache"))
        c = Catalog(sroot, db_path=sroot.parent / "index.sqlite3")
        c.refresh()
        yield c
        c.close()


def bump_mtime(path: Path, seconds: int = 5) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def run_dir(root: Path, run: str) -> Path:
    return root / "runs" / run


def result_json(root: Path, run: str, task: str, n: int = 0) -> Path:
    return run_dir(root, run) / "samples" / task / str(n) / "result.json"


def by_id(c: Catalog):
    """Every indexed run, stock twins included."""
    return {r.run_id: r for r in [*c.runs(), *c.twin_runs()]}


# ----------------------------------------------------------------------------- first build

class TestFirstRefresh:
    def test_indexes_every_run_sample_and_test(self, cat: Catalog, root: Path):
        assert cat.is_empty
        report = cat.refresh()
        assert cat.counts() == FULL_COUNTS
        assert [r.run_id for r in cat.runs()] == COUNTED_IDS
        assert sorted(report.reloaded) == sorted(
            [root / "repogenesis" / f for f in STOCK_FOLDERS]
            + [run_dir(root, r) for r in OUR_RUNS])
        assert report.removed == [] and report.unchanged == 0
        assert report.changed and not report.cancelled
        assert not cat.is_empty

    def test_run_metrics_equal_the_loaded_model(self, shared: Catalog, sroot: Path):
        disc = discover_runs(sroot)
        expected = {r.id: compute_run_metrics(r) for r in disc.all_runs}
        got = by_id(shared)
        assert set(got) == set(expected)
        for run_id, m in expected.items():
            metrics = got[run_id].metrics
            assert metrics["pass_at_1"] == m.pass_at_1, run_id
            assert metrics["dsr"] == m.dsr, run_id
            assert metrics["api_coverage"] == m.api_coverage, run_id
            assert metrics["test_pass_ratio"] == m.test_pass_ratio, run_id
            assert metrics["samples"] == m.samples, run_id
            # every sample counted: the figures' and the not-evaluable ones (dash Java's 3)
            assert metrics["samples_total"] == m.samples_total == SAMPLES[run_id], run_id
            assert metrics["not_evaluable"] == m.samples_total - m.samples, run_id

    def test_run_identity_and_status(self, shared: Catalog, sroot: Path):
        runs = by_id(shared)
        forge = runs[FORGE]
        assert (forge.agent, forge.model, forge.language, forge.short_format) == \
            ("Forge", "m1-large", "python", "ours")
        assert forge.location == run_dir(sroot, FORGE)
        assert forge.status == "complete"
        stock = runs[f"{RELAY}@relay"]
        assert (stock.agent, stock.short_format, stock.status) == ("Relay", "stock", None)
        assert stock.location == sroot / "repogenesis" / "relay"
        # failures = non-passing samples, as the model's verdicts say
        disc = {r.id: r for r in discover_runs(sroot).all_runs}
        for run_id, entry in runs.items():
            assert entry.failures == sum(verdict_of(s).is_failure
                                         for s in disc[run_id].samples)

    def test_sample_rows_match_the_loaded_model(self, shared: Catalog, sroot: Path):
        model = {s.sample_id: s for r in discover_runs(sroot).runs for s in r.samples}
        entries = shared.samples()
        assert len(entries) == FULL_COUNTS[1] == sum(SAMPLES[r] for r in OUR_RUNS)
        assert {e.sample_id for e in entries} == set(model)
        for e in entries:
            s = model[e.sample_id]
            assert e.verdict == verdict_of(s), e.sample_id
            assert (e.task, e.sample, e.passed, e.failed, e.total) == \
                (s.task, s.sample, s.tests.passed, s.tests.failed, s.tests.total)
            assert e.has_cases == s.tests.has_cases
            assert e.deployed == s.deployment.success
            assert "\n" not in e.message
            assert (e.message == "") == s.passed

    def test_samples_sorted_and_filtered_by_run(self, shared: Catalog):
        entries = shared.samples()
        keys = [(e.run_id, e.task, e.sample) for e in entries]
        assert keys == sorted(keys)
        forge = by_id(shared)[FORGE]
        mine = shared.samples([forge.key])
        assert [e.task for e in mine] == TASKS
        assert {e.run_id for e in mine} == {FORGE}
        assert shared.samples([]) == []

    def test_iter_tests_streams_every_test(self, shared: Catalog):
        rows = list(shared.iter_tests())
        assert len(rows) == FULL_COUNTS[2]
        assert ("todo-service", FORGE, f"{FORGE}/todo-service/0",
                "tests/test_todos.py::test_create_defaults", "failed",
                "KeyError: 'completed'") in rows

    def test_default_index_lives_in_the_cache_folder(self, root: Path, _private_cache: Path):
        c = Catalog(root)
        try:
            assert c.db_path == index_path_for(root)
            assert c.db_path.is_relative_to(_private_cache / "index")
            c.refresh()
            assert c.counts() == FULL_COUNTS
        finally:
            c.close()
        assert index_path_for(root) != index_path_for(root / "runs")


# ----------------------------------------------------------------------------- incremental

class TestIncrementalRefresh:
    def test_second_refresh_reloads_nothing(self, built: Catalog):
        calls: list[tuple[int, int, str]] = []
        report = built.refresh(progress=lambda *a: calls.append(a))
        assert report.unchanged == N
        assert report.reloaded == [] and report.removed == []
        assert not report.changed
        assert calls == []
        assert built.counts() == FULL_COUNTS

    def test_touching_one_result_reloads_only_its_run(self, built: Catalog, root: Path):
        bump_mtime(result_json(root, RELAY, "notes-api"))
        report = built.refresh()
        assert report.reloaded == [run_dir(root, RELAY)]
        assert report.unchanged == N - 1 and report.changed
        assert built.counts() == FULL_COUNTS

    def test_rewritten_result_shows_in_the_index(self, built: Catalog, root: Path):
        path = result_json(root, FORGE, "todo-service")
        data = json.loads(path.read_text())
        data["elapsed_seconds"] = 123.5
        path.write_text(json.dumps(data, indent=2))
        report = built.refresh()
        assert report.reloaded == [run_dir(root, FORGE)]
        assert built.find_sample(f"{FORGE}/todo-service/0").elapsed == 123.5

    def test_touching_a_stock_report_reloads_only_that_folder(self, built: Catalog,
                                                              root: Path):
        bump_mtime(root / "repogenesis" / "relay" / "intermediate" / "quote-board.json")
        report = built.refresh()
        assert report.reloaded == [root / "repogenesis" / "relay"]
        assert report.unchanged == N - 1

    def test_non_json_files_do_not_cause_a_reload(self, built: Catalog, root: Path):
        bump_mtime(run_dir(root, FORGE) / "samples" / "todo-service" / "0" / "junit.xml")
        bump_mtime(run_dir(root, FORGE) / "samples" / "todo-service" / "0" / "logs" /
                   "tests.log")
        assert not built.refresh().changed

    def test_deleted_run_folder_is_removed_with_its_samples_and_tests(self, built: Catalog,
                                                                      root: Path):
        relay = by_id(built)[RELAY]
        relay_samples = built.samples([relay.key])
        relay_tests = sum(len(built.tests(e.key)) for e in relay_samples)
        assert relay_tests > 0
        shutil.rmtree(run_dir(root, RELAY))
        report = built.refresh()
        assert report.removed == [run_dir(root, RELAY)]
        assert report.reloaded == [] and report.unchanged == N - 1
        assert RELAY not in by_id(built)
        # RELAY's stock copy, alone now, counts as a run of its own (6 samples, no tests)
        assert built.counts() == (6, FULL_COUNTS[1], FULL_COUNTS[2] - relay_tests)
        assert built.samples([relay.key]) == []
        assert all(built.tests(e.key) == [] for e in relay_samples)
        assert built.find_sample(f"{RELAY}/todo-service/0") is None
        with pytest.raises(LoadError):
            built.load_sample(relay_samples[0])

    def test_added_run_folder_is_indexed(self, sample_runs: Path, tmp_path: Path,
                                         db_path: Path):
        root = copy_data(sample_runs, tmp_path / "data", ("repogenesis", "tasks",
                                                          "predictions"))
        for run in OUR_RUNS:
            if run != RELAY:
                shutil.copytree(sample_runs / "runs" / run, run_dir(root, run))
        c = Catalog(root, db_path=db_path)
        try:
            c.refresh()
            assert c.counts()[:2] == FULL_COUNTS[:2]  # RELAY's stock copy stands in for it
            assert [r.run_id for r in c.runs()] == WITHOUT_RELAY
            shutil.copytree(sample_runs / "runs" / RELAY, run_dir(root, RELAY))
            report = c.refresh()
            assert report.reloaded == [run_dir(root, RELAY)]
            assert report.unchanged == N - 1
            assert c.counts() == FULL_COUNTS
            assert [r.run_id for r in c.runs()] == COUNTED_IDS
        finally:
            c.close()

    def test_broken_run_json_is_an_issue_and_others_still_index(self, cat: Catalog,
                                                                root: Path):
        run_json = run_dir(root, RELAY) / "run.json"
        good = run_json.read_text()
        run_json.write_text("{ not json")
        cat.refresh()
        # listed as an unreadable run (issue 28): no samples, its run.json named; its stock
        # copy, met without a readable twin, is a run of its own
        assert [r.run_id for r in cat.runs()] == sorted(OUR_RUNS + [f"{RELAY}@relay"])
        relay = by_id(cat)[RELAY]
        assert (relay.metrics["samples"], relay.metrics["unreadable"]) == (0, 1)
        assert relay.metrics["unreadable_samples"][0]["file"] == "run.json"
        assert cat.counts()[:2] == (7, FULL_COUNTS[1])
        issues = cat.issues()
        assert [(i.path, i.severity) for i in issues] == [(run_json, "error")]
        assert "invalid JSON" in issues[0].message
        # fixing the file brings the run back and clears the issue
        run_json.write_text(good)
        bump_mtime(run_json)
        report = cat.refresh()
        assert report.reloaded == [run_dir(root, RELAY)]
        assert cat.counts() == FULL_COUNTS
        assert cat.issues() == []

    def test_a_run_that_breaks_later_loses_its_samples_with_an_issue(self, built: Catalog,
                                                                     root: Path):
        (run_dir(root, FORGE) / "run.json").write_text("[]")
        built.refresh()
        assert by_id(built)[FORGE].metrics["unreadable"] == 1  # listed as unreadable
        assert built.find_sample(f"{FORGE}/todo-service/0") is None
        assert any(i.path == run_dir(root, FORGE) / "run.json" for i in built.issues())

    def test_duplicate_run_ids_are_a_warning(self, built: Catalog, root: Path):
        shutil.copytree(run_dir(root, FORGE), root / "copies" / FORGE)
        built.refresh()
        assert [r.run_id for r in built.runs()].count(FORGE) == 2
        dup = [i for i in built.issues() if "found 2 times" in i.message]
        assert len(dup) == 1 and dup[0].severity == "warning"


# ----------------------------------------------------------------------------- queries

class TestQueries:
    @pytest.mark.parametrize("run_id", RUN_IDS)
    def test_load_sample_equals_the_loaded_model(self, shared: Catalog, sroot: Path,
                                                 run_id: str):
        model = {s.sample_id: s for r in discover_runs(sroot).all_runs for s in r.samples}
        run = by_id(shared)[run_id]
        entries = shared.samples([run.key])
        assert len(entries) == SAMPLES[run_id]
        for e in entries:
            s = shared.load_sample(e)
            expected = model[e.sample_id]
            assert s.sample_id == e.sample_id == expected.sample_id
            assert len(s.tests.cases) == len(expected.tests.cases)
            assert [c.message for c in s.tests.cases] == \
                [c.message for c in expected.tests.cases]
            assert s.deployment.message == expected.deployment.message
            assert s == expected

    def test_load_sample_of_our_format_has_per_test_results(self, shared: Catalog):
        s = shared.load_sample(shared.find_sample(f"{FORGE}/todo-service/0"))
        assert len(s.tests.cases) == 12
        assert [c.id for c in s.failing_tests][0] == "tests/test_todos.py::test_create_defaults"
        assert s.failing_tests[0].message == "KeyError: 'completed'"
        stock = shared.load_sample(shared.find_sample(f"{FORGE_STOCK}/todo-service/0"))
        assert len(stock.tests.cases) == 0  # counts only
        assert stock.tests.total == 12

    def test_load_sample_reads_the_current_file(self, built: Catalog, root: Path):
        entry = built.find_sample(f"{FORGE}/todo-service/0")
        path = result_json(root, FORGE, "todo-service")
        data = json.loads(path.read_text())
        data["error"] = "edited after indexing"
        path.write_text(json.dumps(data))
        assert built.load_sample(entry).error == "edited after indexing"

    def test_tests_come_in_suite_order(self, shared: Catalog, sroot: Path):
        entry = shared.find_sample(f"{FORGE}/todo-service/0")
        raw = json.loads(result_json(sroot, FORGE, "todo-service").read_text())
        tests = shared.tests(entry.key)
        assert [t.test_id for t in tests] == [c["id"] for c in raw["tests"]["cases"]]
        assert [t.outcome for t in tests] == [c["outcome"] for c in raw["tests"]["cases"]]
        first_fail = next(t for t in tests if t.outcome == "failed")
        assert (first_fail.test_id, first_fail.message, first_fail.file, first_fail.line) == \
            ("tests/test_todos.py::test_create_defaults", "KeyError: 'completed'",
             "tests/test_todos.py", 27)
        assert all(t.message == "" for t in tests if t.outcome == "passed")
        assert shared.tests(-1) == []

    def test_stock_samples_have_no_test_rows(self, shared: Catalog):
        entry = shared.find_sample(f"{RELAY}@relay/todo-service/0")
        assert entry is not None and not entry.has_cases
        assert shared.tests(entry.key) == []

    def test_find_sample_and_sample(self, shared: Catalog):
        entry = shared.find_sample(f"{RELAY}/quote-board/0")
        assert entry is not None
        assert (entry.run_id, entry.task, entry.sample) == (RELAY, "quote-board", 0)
        assert shared.sample(entry.key) == entry
        assert shared.find_sample(f"{RELAY}/no-such-task/0") is None
        assert shared.find_sample("") is None
        assert shared.sample(10_000_000) is None

    def test_run_lookup(self, shared: Catalog):
        for r in shared.runs():
            assert shared.run(r.key) == r
        assert shared.run("nope#nope") is None

    def test_task_as_recorded_by_our_run(self, shared: Catalog, sroot: Path):
        forge = by_id(shared)[FORGE]
        task = shared.task("todo-service", forge)
        assert task is not None
        assert (task.name, task.port, task.framework) == ("todo-service", 18080, "flask")
        assert task.root.resolve() == (sroot / "tasks" / "repo" / "todo-service").resolve()
        assert shared.task("no-such-task", forge) is None

    def test_task_from_the_tasks_folder(self, shared: Catalog, sroot: Path):
        stock = by_id(shared)[f"{RELAY}@relay"]
        for run in (stock, None):
            task = shared.task("quote-board", run)
            assert task is not None
            assert (task.name, task.framework, task.expected_tests) == \
                ("quote-board", "flask", 8)
            assert task.root == sroot / "tasks" / "repo" / "quote-board"
        assert shared.task("no-such-task") is None

    def test_tasks_folder_added_later_is_found(self, sample_runs: Path, tmp_path: Path,
                                               db_path: Path):
        root = copy_data(sample_runs, tmp_path / "data", ("runs", "repogenesis",
                                                          "predictions"))
        c = Catalog(root, db_path=db_path)
        try:
            c.refresh()
            stock = by_id(c)[f"{RELAY}@relay"]
            assert c.task("todo-service", stock) is None
            shutil.copytree(sample_runs / "tasks", root / "tasks")
            c.refresh()
            assert c.task("todo-service", stock) is not None
        finally:
            c.close()


# ----------------------------------------------------------------------------- persistence

class TestPersistence:
    def test_index_survives_a_reopen(self, built: Catalog, root: Path, db_path: Path):
        runs, samples = built.runs(), built.samples()
        built.close()
        again = Catalog(root, db_path=db_path)
        try:
            assert not again.is_empty
            assert again.runs() == runs
            assert again.samples() == samples
            assert again.counts() == FULL_COUNTS
            report = again.refresh()
            assert report.unchanged == N and not report.changed
        finally:
            again.close()

    def test_reopened_index_loads_samples_without_a_refresh(self, built: Catalog,
                                                           root: Path, db_path: Path):
        built.close()
        again = Catalog(root, db_path=db_path)
        try:
            s = again.load_sample(again.find_sample(f"{FORGE}/todo-service/0"))
            assert len(s.tests.cases) == 12
        finally:
            again.close()

    @pytest.mark.parametrize("garbage", [b"garbage", bytes(range(256)) * 32,
                                         b"SQLite format 3\x00" + b"\xff" * 4000],
                             ids=["short", "binary", "bad-header"])
    def test_corrupt_database_is_discarded_and_rebuilt(self, root: Path, db_path: Path,
                                                       garbage: bytes):
        db_path.write_bytes(garbage)
        c = Catalog(root, db_path=db_path)
        try:
            assert c.is_empty
            c.refresh()
            assert c.counts() == FULL_COUNTS
        finally:
            c.close()
        with sqlite3.connect(db_path) as con:
            assert con.execute("SELECT value FROM meta WHERE key='version'").fetchone() == \
                (str(INDEX_VERSION),)

    def test_index_version_mismatch_clears_and_rebuilds(self, built: Catalog, root: Path,
                                                        db_path: Path):
        built.close()
        con = sqlite3.connect(db_path)
        con.execute("UPDATE meta SET value='0' WHERE key='version'")
        con.commit()
        con.close()
        c = Catalog(root, db_path=db_path)
        try:
            assert c.is_empty
            assert c.counts() == (0, 0, 0)
            report = c.refresh()
            assert len(report.reloaded) == N
            assert c.counts() == FULL_COUNTS
        finally:
            c.close()
        with sqlite3.connect(db_path) as con:
            assert con.execute("SELECT value FROM meta WHERE key='version'").fetchone() == \
                (str(INDEX_VERSION),)

    def test_older_index_layout_is_rebuilt(self, root: Path, db_path: Path):
        con = sqlite3.connect(db_path)
        con.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
            f"INSERT INTO meta VALUES ('version', '{INDEX_VERSION - 1}');"
            "CREATE TABLE samples (id INTEGER PRIMARY KEY, run_key TEXT, task TEXT);")
        con.commit()
        con.close()
        c = Catalog(root, db_path=db_path)
        try:
            c.refresh()
            assert c.counts() == FULL_COUNTS
        finally:
            c.close()


# ----------------------------------------------------------------------------- progress

class TestProgressAndCancel:
    def test_progress_counts_up_to_the_total(self, cat: Catalog):
        calls: list[tuple[int, int, str]] = []
        cat.refresh(progress=lambda d, t, w: calls.append((d, t, w)))
        done = [d for d, _, _ in calls]
        assert done == sorted(done)
        assert done[0] == 0 and done[-1] == N
        assert {t for _, t, _ in calls} == {N}
        assert calls[-1] == (N, N, "done")
        assert all(isinstance(w, str) and w for _, _, w in calls)

    def test_progress_total_is_what_needs_reloading(self, built: Catalog, root: Path):
        bump_mtime(result_json(root, FORGE, "notes-api"))
        calls: list[tuple[int, int, str]] = []
        built.refresh(progress=lambda d, t, w: calls.append((d, t, w)))
        assert calls == [(0, 1, str(run_dir(root, FORGE))), (1, 1, "done")]

    def test_cancel_after_the_first_location_leaves_a_consistent_partial_index(
            self, cat: Catalog):
        asked = 0

        def cancelled() -> bool:
            nonlocal asked
            asked += 1
            return asked > 1

        report = cat.refresh(cancelled=cancelled)
        assert report.cancelled
        assert len(report.reloaded) == 1
        runs = cat.runs()
        assert len(runs) == 1
        samples = cat.samples()
        assert len(samples) == SAMPLES[runs[0].run_id]
        assert {e.run_key for e in samples} == {runs[0].key}
        assert cat.counts()[2] == sum(len(cat.tests(e.key)) for e in samples)
        for e in samples:  # every indexed sample is complete and loadable
            assert cat.load_sample(e).sample_id == e.sample_id
        # a later refresh completes it, without redoing the first location
        report = cat.refresh()
        assert not report.cancelled
        assert report.unchanged == 1 and len(report.reloaded) == N - 1
        assert cat.counts() == FULL_COUNTS

    def test_cancel_before_anything_indexes_nothing(self, cat: Catalog):
        report = cat.refresh(cancelled=lambda: True)
        assert report.cancelled and report.reloaded == []
        assert cat.is_empty and cat.counts() == (0, 0, 0)
        assert cat.refresh().reloaded and cat.counts() == FULL_COUNTS


# ----------------------------------------------------------------------------- health

class TestHealth:
    def test_bundled_collection_errors(self, shared: Catalog):
        report = shared.health()
        coll = {(f.task, f.test_id): f for f in report.by_kind("collection_error")}
        # forge's quote-board (an undocumented app.models) and atlas's StructuredDataConvertor
        # (pandas, which only the task's root requirements.txt lists): the deployed samples
        # whose result.json has collection errors; relay's quote-board never deployed
        sdc = ["tests/test_convert.py", "tests/test_convert_batch.py",
               "tests/test_integration.py", "tests/test_performance.py"]
        assert set(coll) == {("quote-board", "tests/test_quote_model.py")} | {
            ("StructuredDataConvertor", file) for file in sdc}
        f = coll[("quote-board", "tests/test_quote_model.py")]
        assert "No module named 'app.models'" in f.common_error
        assert f.examples == (f"{FORGE}/quote-board/0",)
        for file in sdc:
            f = coll[("StructuredDataConvertor", file)]
            assert "No module named 'pandas'" in f.common_error
            assert f.examples == (f"{ATLAS}/StructuredDataConvertor/0",)

    def test_no_never_passes_finding_for_notes_api(self, shared: Catalog):
        report = shared.health()
        assert not [f for f in report.by_kind("never_passes") if f.task == "notes-api"]

    def test_counts_only_duplicates_are_not_double_counted(self, shared: Catalog):
        # each stock report duplicates one of our runs (forge's quote-board, atlas's
        # StructuredDataConvertor): only the sample of our run counts
        for f in shared.health().by_kind("collection_error"):
            assert (f.samples, f.runs) == (1, 1), f.test_id


# ----------------------------------------------------------------------------- concurrency

def _prime_two(sroot: Path, db_path: Path) -> tuple[Catalog, Catalog]:
    """Two catalogs (two inspectors) on one index, both with their task tables loaded, and
    every run location changed on disk so both must reload everything."""
    a, b = Catalog(sroot, db_path=db_path), Catalog(sroot, db_path=db_path)
    a.refresh()
    b.refresh()
    a.task("todo-service")
    b.task("todo-service")  # load the task tables now, not in the threads
    for p in sroot.rglob("*.json"):
        bump_mtime(p)
    return a, b


def _refresh_in_threads(cats: list[Catalog]) -> list[str]:
    """Refresh every catalog in its own thread while another writer holds the database's
    write lock until both are inside their first write, so the two writes overlap."""
    errors: list[str] = []
    loading = [threading.Event() for _ in cats]
    blocker = sqlite3.connect(cats[0].db_path, timeout=30, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")

    def work(c: Catalog, started: threading.Event) -> None:
        try:
            c.refresh(progress=lambda *_: started.set())
        except Exception as exc:  # noqa: BLE001 - reported as a test failure
            errors.append(repr(exc))
        finally:
            started.set()

    threads = [threading.Thread(target=work, args=pair)
               for pair in zip(cats, loading, strict=True)]
    for t in threads:
        t.start()
    for e in loading:
        assert e.wait(10)
    time.sleep(0.3)  # loading one location takes ~20 ms; then both wait for the lock
    blocker.execute("ROLLBACK")
    blocker.close()
    for t in threads:
        t.join(timeout=30)
    return errors


class TestTwoInspectors:
    def test_two_catalogs_one_after_the_other(self, root: Path, db_path: Path):
        a, b = _prime_two(root, db_path)
        try:
            assert len(a.refresh().reloaded) == N
            assert b.refresh().unchanged == N
            assert a.counts() == b.counts() == FULL_COUNTS
        finally:
            a.close()
            b.close()

    def test_two_catalogs_refresh_at_once(self, root: Path, db_path: Path):
        a, b = _prime_two(root, db_path)
        try:
            errors = _refresh_in_threads([a, b])
            assert errors == []
            assert a.counts() == b.counts() == FULL_COUNTS
        finally:
            a.close()
            b.close()

    def test_catalog_recovers_after_a_lock_error(self, root: Path, db_path: Path):
        a, b = _prime_two(root, db_path)
        try:
            _refresh_in_threads([a, b])  # one of them meets a lock error
            for c in (a, b):
                c.refresh()
                assert c.counts() == FULL_COUNTS
        finally:
            a.close()
            b.close()


def test_message_is_limited_to_one_short_line():
    assert catalog_mod._first_line("\n\n  first  \nsecond") == "first"
    assert len(catalog_mod._first_line("x" * 1000)) == catalog_mod.MESSAGE_CHARS
