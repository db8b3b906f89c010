"""The catalog: an on-disk index (SQLite) of every run, sample and test under a root folder.

The app lists from the index, so a corpus of 10,000 samples and 300,000 tests opens in a
moment after a one-off build; a sample's full result is read from its own files when opened.
The index lives in the cache folder (``paths.cache_root()/index``), one database per root, and
is refreshed incrementally: a run location is reloaded only when one of its JSON files changed
(size or mtime), appeared or vanished, or a file of one of its samples' generated repos did
(:mod:`inspector.services.repo.tree_signature`). It is a cache: deleting it loses nothing.

A stock-layout run that is a run of ours in another format (:mod:`inspector.model.runs.twins`) is
kept (``runs.twin_of``) but left out of :meth:`Catalog.runs`, :meth:`Catalog.samples`,
:meth:`Catalog.outcome_rows`, the tests and the counts, as discovery leaves it out of
``Discovery.runs``: one evaluation, one run.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector import paths
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.entries import RunEntry, SampleEntry, TestEntry
from inspector.model.results.sample import Generation
from inspector.model.results.verdict import Verdict, verdict_of
from inspector.model.runs.runformat import RUN_FILE, parse_sample, parse_task, repo_scope
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.jsonfields import Fields, read_json

if TYPE_CHECKING:  # the loaders and analyses are imported where used (start-up time)
    from inspector.model.benchmark.task import Task
    from inspector.model.results.run import Run
    from inspector.model.results.sample import SampleResult
    from inspector.model.runs.discover import RunLocation, TasksFound
    from inspector.services.figures.health import HealthReport, NotEvaluableSample

INDEX_VERSION = 15  # 15: verdict not_evaluable; 14: runs.content/twin_*, repo trees; 13: unreadable
MESSAGE_CHARS = 300
_Row = tuple[Any, ...]  # one sqlite row: sqlite3 types its values as Any

OUTCOME_COLUMNS = ("run_key", "task", "sample", "language", "framework", "passed", "total",
                   "collection_errors", "gen_seconds", "gen_tokens_in", "gen_tokens_out",
                   "gen_cost")
"""The columns :meth:`Catalog.outcome_rows` returns, in order."""

Progress = Callable[[int, int, str], object]
"""``progress(done, total, what)`` during a refresh."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS locations (
    path TEXT PRIMARY KEY, kind TEXT, signature TEXT, issues TEXT);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY, location TEXT, run_id TEXT, agent TEXT, model TEXT, language TEXT,
    format TEXT, date TEXT, source_path TEXT, harness TEXT, metrics TEXT, notes TEXT,
    status TEXT, failures INTEGER, content TEXT, twin_paths TEXT, twin_of TEXT,
    twin_how TEXT);
CREATE TABLE IF NOT EXISTS samples (
    id INTEGER PRIMARY KEY, run_key TEXT, run_id TEXT, agent TEXT, model TEXT,
    sample_id TEXT, task TEXT, sample INTEGER, language TEXT, framework TEXT, verdict TEXT,
    failed_phase TEXT, passed INTEGER, failed INTEGER, errors INTEGER, skipped INTEGER,
    total INTEGER, expected INTEGER, suite_status TEXT, collection_errors INTEGER,
    ac_impl INTEGER, ac_total INTEGER, message TEXT, result_path TEXT, repo_path TEXT,
    elapsed REAL, has_cases INTEGER, deployed INTEGER, tampering TEXT,
    gen_seconds REAL, gen_tokens_in INTEGER, gen_tokens_out INTEGER, gen_cost REAL);
CREATE INDEX IF NOT EXISTS samples_run ON samples(run_key);
CREATE TABLE IF NOT EXISTS tests (
    sample INTEGER, ord INTEGER, test_id TEXT, outcome TEXT, duration REAL, message TEXT,
    file TEXT, line INTEGER);
CREATE INDEX IF NOT EXISTS tests_sample ON tests(sample);
"""


@dataclass
class RefreshReport:
    """What a refresh did."""

    reloaded: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    unchanged: int = 0
    seconds: float = 0.0
    cancelled: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.reloaded or self.removed)


class RefreshCancelled(Exception):
    """Raised inside a refresh when the caller asked to stop; the index stays consistent."""


def index_path_for(root: Path) -> Path:
    """The index database for ``root`` in the cache folder."""
    digest = hashlib.sha1(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return paths.cache_root() / "index" / f"{digest[:20]}.sqlite3"


def _signature(loc: RunLocation) -> str:
    """Size and mtime of every JSON file a location's runs are read from."""
    h = hashlib.sha1()

    def add(p: Path) -> None:
        try:
            st = p.stat()
        except OSError:
            return
        h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))

    if loc.kind == "report":
        add(loc.path)
        return h.hexdigest()
    if loc.kind == "run":
        add(loc.path / RUN_FILE)
        for sub in (loc.path / "samples",):
            for task_dir in _scandirs(sub):
                for n_dir in _scandirs(task_dir):
                    add(n_dir / "result.json")
        return h.hexdigest()
    for entry in _scanfiles(loc.path):
        if entry.suffix == ".json":
            add(entry)
    inter = loc.path / "intermediate"
    for entry in _scanfiles(inter):
        if entry.suffix == ".json":
            add(entry)
    for sub in _scandirs(inter):
        for entry in _scanfiles(sub):
            if entry.suffix == ".json":
                add(entry)
    return h.hexdigest()


def _scandirs(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as it:
            return sorted(Path(e.path) for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _scanfiles(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as it:
            return sorted(Path(e.path) for e in it if e.is_file(follow_symlinks=False))
    except OSError:
        return []


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:MESSAGE_CHARS]
    return ""


def sample_message(s: SampleResult, task: Task | None = None) -> str:
    """The most telling one-line reason a sample failed ("" when it passed): for a suite that
    did not run (fully), the first cause line pytest printed and the file:line it points at."""
    from inspector.services.suite.cause import cause_of

    if s.passed:
        return ""
    if s.not_evaluable is not None:
        return _first_line(f"not evaluable: {s.not_evaluable.reason}")
    if not s.deployment.success:
        return _first_line(s.deployment.message or s.build_error or s.error or "")
    cause = cause_of(s, task)
    if cause is not None:
        where = f" ({cause.location})" if cause.location else ""
        return _first_line(f"{cause.text}{where}")
    for c in s.tests.cases:
        if c.outcome.is_failure:
            return f"{c.id}: {c.first_message_line}"[:MESSAGE_CHARS]
    if s.error:
        return _first_line(s.error)
    t = s.tests
    if t.total == 0:
        return "no test was collected or counted"
    bad = t.failed + t.errors
    return (f"{bad} of {t.total} tests failed (this format kept only counts)"
            if not t.has_cases else f"{bad} of {t.total} tests failed")


class Catalog:
    """Index of every run under ``root``; thread-safe (one connection behind a lock)."""

    def __init__(self, root: Path, db_path: Path | None = None) -> None:
        self.root = root.expanduser()
        self.db_path = db_path or index_path_for(self.root)
        self._lock = threading.RLock()
        self._db = self._open()
        self.tasks_root: Path | None = None
        self.tasks_found: TasksFound | None = None  # where the tasks were found, and how
        self._tasks_root_known = False
        self._tasks: dict[str, Task] | None = None
        self._located_issues: list[LoadIssue] = []
        self._run_cache: dict[str, tuple[str, list[Run]]] = {}
        self._unstored: dict[Path, LoadIssue] = {}  # locations whose path SQLite cannot hold
        self._twin_issues: list[LoadIssue] | None = None  # None: twins not linked yet

    # ------------------------------------------------------------------ database

    def _open(self) -> sqlite3.Connection:
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = self._connect()
        except sqlite3.DatabaseError:
            self._discard()
            db = self._connect()
        return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.db_path, check_same_thread=False, timeout=30,
                             isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(_SCHEMA)
        row = db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        if row is None or row[0] != str(INDEX_VERSION):
            # an index from another version may have another layout: rebuild it from scratch
            db.executescript("DROP TABLE IF EXISTS locations; DROP TABLE IF EXISTS runs; "
                             "DROP TABLE IF EXISTS samples; DROP TABLE IF EXISTS tests;")
            db.executescript(_SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (str(INDEX_VERSION),))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (str(self.root),))
        return db

    def _discard(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.db_path) + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def is_empty(self) -> bool:
        """True before the first refresh has indexed anything (the build shows progress)."""
        with self._lock:
            count: int = self._db.execute("SELECT COUNT(*) FROM locations").fetchone()[0]
            return count == 0

    # ------------------------------------------------------------------ refresh

    def refresh(self, progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None) -> RefreshReport:
        """Bring the index up to date with the disk; returns what changed."""
        from inspector.model.runs.discover import locate_runs
        from inspector.services.catalog.load import load_rows

        started = time.perf_counter()
        report = RefreshReport()
        located = locate_runs(self.root)
        if located.tasks_root != self.tasks_root:
            self._tasks = None  # a tasks folder appeared, moved or vanished
        self.tasks_root = located.tasks_root
        self.tasks_found = located.tasks_found
        self._tasks_root_known = True
        self._located_issues = list(located.issues)
        with self._lock:
            known = {Path(p): sig for p, sig in
                     self._db.execute("SELECT path, signature FROM locations")}
            repos: dict[Path, list[str]] = defaultdict(list)
            for loc_path, repo in self._db.execute(
                    "SELECT r.location, s.repo_path FROM samples s JOIN runs r "
                    "ON r.key = s.run_key WHERE s.repo_path IS NOT NULL"):
                repos[Path(loc_path)].append(repo)
        wanted = {loc.path: loc for loc in located.locations}
        self._unstored = {p: i for p, i in self._unstored.items() if p in wanted}
        for gone in sorted(set(known) - set(wanted)):
            self._delete_location(gone)
            report.removed.append(gone)
        todo: list[tuple[RunLocation, str]] = []
        for loc in located.locations:
            sig = _signature(loc)
            if known.get(loc.path) != _with_repos(sig, repos.get(loc.path, ())):
                todo.append((loc, sig))
            else:
                report.unchanged += 1
        tasks = self._task_table() if any(loc.kind != "run" for loc, _ in todo) else {}
        for i, (loc, sig, rows, issues) in enumerate(
                load_rows(todo, tasks, self.root, cancelled)):
            if progress is not None:
                progress(i, len(todo), str(loc.path))
            # the files' part as read before loading (a change meanwhile reloads next time)
            trees = [sample[0][23] for _, samples in rows for sample in samples if sample[0][23]]
            self._store_rows(loc, _with_repos(sig, trees), rows, issues)
            self._run_cache.pop(str(loc.path), None)
            report.reloaded.append(loc.path)
        if len(report.reloaded) < len(todo):
            report.cancelled = True
        if report.changed or self._twin_issues is None:
            self._link_twins()
        if progress is not None and todo:
            progress(len(todo), len(todo), "done")
        report.seconds = time.perf_counter() - started
        return report

    def _task_table(self) -> dict[str, Task]:
        from inspector.model.benchmark.tasks import load_tasks

        if self._tasks is None:
            self._tasks = {}
            if self.tasks_root is not None:
                self._tasks, issues = load_tasks(self.tasks_root)
                self._located_issues.extend(i for i in issues if i.severity == "error")
        return self._tasks

    def _delete_location(self, path: Path) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                self._delete_rows(path)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _delete_rows(self, path: Path) -> None:
        db = self._db
        keys = [k for (k,) in db.execute("SELECT key FROM runs WHERE location=?", (str(path),))]
        for key in keys:
            db.execute("DELETE FROM tests WHERE sample IN "
                       "(SELECT id FROM samples WHERE run_key=?)", (key,))
            db.execute("DELETE FROM samples WHERE run_key=?", (key,))
        db.execute("DELETE FROM runs WHERE location=?", (str(path),))
        db.execute("DELETE FROM locations WHERE path=?", (str(path),))

    def _store_rows(self, loc: RunLocation, sig: str, rows: list[RunRows],
                    issues: list[LoadIssue]) -> None:
        """Replace the location's rows. A run or sample whose rows cannot be stored (a path
        that is not valid UTF-8, ...) is left out and reported naming its file; the rest is
        stored and the build goes on."""
        self._unstored.pop(loc.path, None)
        if not _storable(str(loc.path)):
            self._unstored[loc.path] = LoadIssue(
                loc.path, "", f"not indexed: {_UNSTORABLE_PATH}", "error")
            return
        issues = list(issues)
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                self._delete_rows(loc.path)
                for run_row, samples in rows:
                    where = Path(run_row[8]) if _storable(run_row[8]) else loc.path
                    if not self._insert(issues, where, self._run, run_row, []):
                        continue
                    for sample_row, tests in samples:
                        source = sample_row[22]
                        self._insert(issues, Path(source) if source and _storable(source)
                                     else where, self._sample, sample_row, tests)
                db.execute("INSERT OR REPLACE INTO locations VALUES (?,?,?,?)",
                           (str(loc.path), loc.kind, sig,
                            json.dumps([_issue_json(i) for i in issues])))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _run(self, row: _Row, _tests: list[_Row]) -> None:
        self._db.execute(f"INSERT OR REPLACE INTO runs VALUES ({','.join('?' * len(row))})",
                         row)

    def _link_twins(self) -> None:
        """Mark every stock run that is a run of ours in another format (``twin_of``)."""
        from inspector.model.runs.twins import STOCK, Candidate, pair

        with self._lock:
            rows = self._db.execute(
                "SELECT key, format, content, source_path, twin_paths, run_id FROM runs"
            ).fetchall()
        links, mismatches = pair(
            Candidate(key, fmt == STOCK, content, Path(source),
                      tuple(Path(p) for p in json.loads(recorded or "[]")), run_id)
            for key, fmt, content, source, recorded, run_id in rows)
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("UPDATE runs SET twin_of=NULL, twin_how=NULL")
                db.executemany("UPDATE runs SET twin_of=?, twin_how=? WHERE key=?",
                               ((lk.of, lk.how, lk.twin) for lk in links))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        sources = {key: Path(source) for key, _, _, source, _, _ in rows}
        self._twin_issues = [
            LoadIssue(sources[m.of], "twins", f"records {m.path} as its stock-layout copy, "
                      "but that report's results differ; shown as a run of its own",
                      "warning") for m in mismatches]

    def _sample(self, row: _Row, tests: list[_Row]) -> None:
        cur = self._db.execute("INSERT INTO samples VALUES (NULL" + ",?" * len(row) + ")", row)
        sid = cur.lastrowid
        self._db.executemany("INSERT INTO tests VALUES (?,?,?,?,?,?,?,?)",
                             ((sid, *t) for t in tests))

    def _insert(self, issues: list[LoadIssue], where: Path,
                insert: Callable[[_Row, list[_Row]], None], row: _Row, tests: list[_Row]
                ) -> bool:
        """``insert(row, tests)`` inside a savepoint; on a value SQLite cannot store, undo it
        and add an issue naming ``where`` instead. True when stored."""
        db = self._db
        db.execute("SAVEPOINT one")
        try:
            insert(row, tests)
        except (UnicodeError, sqlite3.Error, OverflowError, ValueError) as exc:
            db.execute("ROLLBACK TO one")
            db.execute("RELEASE one")
            why = (_UNSTORABLE_TEXT if isinstance(exc, UnicodeError)
                   else f"{type(exc).__name__}: {exc}")
            issues.append(LoadIssue(where, "", f"not indexed: {why}", "error"))
            return False
        db.execute("RELEASE one")
        return True

    # ------------------------------------------------------------------ queries

    def runs(self) -> list[RunEntry]:
        """Every run, sorted by run id; a stock twin of a run is not one of them (it is in
        that run's ``twins``, and in :meth:`twin_runs`)."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM runs ORDER BY run_id, key").fetchall()
        twins: dict[str, list[tuple[str, Path]]] = defaultdict(list)
        for r in rows:
            if r[16]:
                twins[r[16]].append((r[0], Path(r[8])))
        return [replace(e, twins=tuple(twins.get(e.key, ())))
                for e in map(_run_entry, rows) if e.twin_of is None]

    def twin_runs(self) -> list[RunEntry]:
        """The stock-layout twins :meth:`runs` leaves out (``twin_of`` names their run)."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM runs WHERE twin_of IS NOT NULL "
                                    "ORDER BY run_id, key").fetchall()
        return [_run_entry(r) for r in rows]

    def run(self, key: str) -> RunEntry | None:
        """The run ``key`` (a stock twin's too), with its own ``twins``."""
        with self._lock:
            r = self._db.execute("SELECT * FROM runs WHERE key=?", (key,)).fetchone()
            twins = self._db.execute("SELECT key, source_path FROM runs WHERE twin_of=? "
                                     "ORDER BY run_id, key", (key,)).fetchall()
        if not r:
            return None
        return replace(_run_entry(r), twins=tuple((k, Path(p)) for k, p in twins))

    def samples(self, run_keys: Iterable[str] | None = None) -> list[SampleEntry]:
        """Samples of the given runs (all when None), by run, task, sample number."""
        sql = "SELECT * FROM samples"
        args: tuple[str, ...] = ()
        if run_keys is not None:
            keys = tuple(run_keys)
            sql += f" WHERE run_key IN ({','.join('?' * len(keys))})"
            args = keys
        else:
            sql += f" WHERE {_NOT_TWIN}"
        sql += " ORDER BY run_id, run_key, task, sample"
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [_sample_entry(r) for r in rows]

    def outcome_rows(self, run_keys: Iterable[str] | None = None) -> list[_Row]:
        """Just what the run analyses need per sample (no paths, messages or findings to
        decode: a tenth of :meth:`samples`' time on a large corpus), in the column order of
        :data:`OUTCOME_COLUMNS`."""
        sql = f"SELECT {', '.join(OUTCOME_COLUMNS)} FROM samples"
        args: tuple[str, ...] = ()
        if run_keys is not None:
            args = tuple(run_keys)
            sql += f" WHERE run_key IN ({','.join('?' * len(args))})"
        else:
            sql += f" WHERE {_NOT_TWIN}"
        sql += " ORDER BY run_key, task, sample"
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def sample(self, key: int) -> SampleEntry | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM samples WHERE id=?", (key,)).fetchone()
        return _sample_entry(r) if r else None

    def find_sample(self, sample_id: str) -> SampleEntry | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM samples WHERE sample_id=? ORDER BY id",
                                 (sample_id,)).fetchone()
        return _sample_entry(r) if r else None

    def tests(self, sample_key: int) -> list[TestEntry]:
        """A sample's test cases in suite order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT test_id, outcome, duration, message, file, line FROM tests "
                "WHERE sample=? ORDER BY ord", (sample_key,)).fetchall()
        return [TestEntry(*r) for r in rows]

    def iter_tests(self) -> Iterator[tuple[str, str, str, str, str, str]]:
        """(task, run_id, sample_id, test_id, outcome, message) for every test, streamed from
        a connection of its own so other queries are not held up."""
        db = sqlite3.connect(self.db_path, timeout=30)
        try:
            cur = db.execute(
                "SELECT s.task, s.run_id, s.sample_id, t.test_id, t.outcome, t.message "
                f"FROM tests t JOIN samples s ON s.id = t.sample WHERE {_NOT_TWIN}")
            while rows := cur.fetchmany(5000):
                yield from rows
        finally:
            db.close()

    def health(self) -> HealthReport:
        """Benchmark-health analysis over every indexed sample and test.

        Suite-level defects (collection errors, nothing or too little collected) count from
        one deployed sample on; a test that never passes needs two deployed samples that ran
        it. Counts-only samples (stock reports) that duplicate a run with per-test results
        (same agent, model, task and sample) are left out so evidence is not counted twice.
        """
        from inspector.services.figures.health import (
            SuiteRecord,
            TestRecord,
            analyse_health,
            tampering_check,
        )
        from inspector.services.suite.audit import audit_task
        from inspector.services.tamper.findings import TamperedSample

        coll: dict[str, list[str]] = defaultdict(list)
        tests: list[TestRecord] = []
        for task, run_id, sample_id, test_id, outcome, message in self.iter_tests():
            if outcome == "error" and "::" not in test_id:
                coll[sample_id].append(f"{test_id}: {message}" if message else test_id)
            tests.append(TestRecord(task, run_id, sample_id, test_id, outcome, message or ""))
        samples = self.samples()
        detailed = {(e.agent, e.model, e.task, e.sample) for e in samples if e.has_cases}
        suites = [SuiteRecord(e.task, e.run_id, e.sample_id, e.deployed, e.suite_status,
                              e.total, e.expected, e.collection_errors,
                              tuple(coll.get(e.sample_id, ())), e.skipped or 0)
                  for e in samples
                  if e.has_cases or (e.agent, e.model, e.task, e.sample) not in detailed]
        table = self._task_table()
        readmes = {name: t.readme for name, t in table.items()}
        audits = {name: audit_task(t) for name, t in table.items()}
        suite_level = analyse_health(suites, [], min_samples=1, readmes=readmes, audits=audits)
        test_level = analyse_health(suites, tests, min_samples=2, readmes=readmes,
                                    audits=audits)
        findings = [f for f in suite_level.findings if f.kind != "never_passes"]
        findings += [f for f in test_level.findings if f.kind == "never_passes"]
        tampering = tampering_check(
            TamperedSample(e.sample_id, e.run_id, e.task, e.tampering) for e in samples
            if e.has_cases or (e.agent, e.model, e.task, e.sample) not in detailed)
        return replace(test_level, findings=tuple(findings), tampering=tampering,
                       not_evaluable=self._not_evaluable())

    def _not_evaluable(self) -> tuple[NotEvaluableSample, ...]:
        """Every indexed sample the infrastructure left without a verdict (from run metrics)."""
        from inspector.services.figures.health import NotEvaluableSample

        return tuple(NotEvaluableSample(str(r.get("sample_id", "")), str(r.get("kind", "")),
                                        str(r.get("reason", "")), bool(r.get("inferred")))
                     for run in self.runs()
                     for r in run.metrics.get("not_evaluable_samples") or ()
                     if isinstance(r, dict))

    def counts(self) -> tuple[int, int, int]:
        """(runs, samples, tests) in the index."""
        with self._lock:
            runs, samples, tests = self._db.execute(
                "SELECT (SELECT COUNT(*) FROM runs WHERE twin_of IS NULL), "
                f"(SELECT COUNT(*) FROM samples WHERE {_NOT_TWIN}), "
                "(SELECT COUNT(*) FROM tests WHERE sample IN "
                f"(SELECT id FROM samples WHERE {_NOT_TWIN}))").fetchone()
            return runs, samples, tests

    def issues(self) -> list[LoadIssue]:
        """Problems met while locating and loading runs (never raised)."""
        from inspector.model.runs.discover import duplicate_id_issues

        out = list(self._located_issues)
        out.extend(self._unstored.values())
        out.extend(self._twin_issues or ())
        with self._lock:
            for (raw,) in self._db.execute("SELECT issues FROM locations ORDER BY path"):
                out.extend(_issue_from_json(d) for d in json.loads(raw))
        out.extend(duplicate_id_issues(self.root, (r.run_id for r in self.runs())))
        return out

    # ------------------------------------------------------------------ full results

    def task(self, name: str, run: RunEntry | None = None) -> Task | None:
        """The task as the run recorded it, else as found in the tasks folder."""
        if run is not None and run.format != "repogenesis":
            try:
                top = read_json(run.location / RUN_FILE)
                issues: list[LoadIssue] = []
                for i, raw in enumerate(Fields(top, run.location / RUN_FILE, "", issues)
                                        .items("tasks")):
                    if isinstance(raw, dict) and raw.get("name") == name:
                        return parse_task(raw, run.location / RUN_FILE, f"tasks[{i}]",
                                          run.location, issues)
            except LoadError:
                pass
        self._know_tasks_root()
        return self._task_table().get(name)

    def tasks(self) -> dict[str, Task]:
        """Every task of the tasks folder, keyed by name (loaded once)."""
        self._know_tasks_root()
        with self._lock:
            return dict(self._task_table())

    def _know_tasks_root(self) -> None:
        from inspector.model.runs.discover import locate_runs

        if not self._tasks_root_known:  # an index opened without a refresh
            located = locate_runs(self.root)
            self.tasks_root, self.tasks_found = located.tasks_root, located.tasks_found
            self._tasks_root_known = True

    def load_sample(self, entry: SampleEntry) -> SampleResult:
        """The full result of one sample, read from its files. Raises LoadError."""
        run = self.run(entry.run_key)
        if run is None:
            raise LoadError(self.root, f"run of {entry.sample_id} is no longer indexed")
        if run.format != "repogenesis" and entry.result_path is not None:
            task = self.task(entry.task, run)
            issues: list[LoadIssue] = []
            scope, _ = repo_scope(run.location, read_json(run.location / RUN_FILE), self.root)
            s = parse_sample(read_json(entry.result_path), entry.result_path, issues,
                             {task.name: task} if task else None, scope)
            if s.tampering is None and entry.tampering:  # found by scanning when indexed
                s = replace(s, tampering=entry.tampering)
            return s if s.run_id == run.run_id else replace(s, run_id=run.run_id)
        for r in self._runs_at(run.location):
            if r.id == run.run_id:
                for s in r.samples:
                    if s.task == entry.task and s.sample == entry.sample:
                        return replace(s, tampering=entry.tampering) \
                            if s.tampering is None and entry.tampering else s
        raise LoadError(run.source_path, f"sample {entry.sample_id} not found any more")

    def _runs_at(self, location: Path) -> list[Run]:
        from inspector.model.runs.discover import RunLocation, load_location

        with self._lock:
            row = self._db.execute("SELECT kind FROM locations WHERE path=?",
                                   (str(location),)).fetchone()
        if row is None:
            return []
        sig_loc = RunLocation(row[0], location)
        sig = _signature(sig_loc)
        cached = self._run_cache.get(str(location))
        if cached and cached[0] == sig:
            return cached[1]
        runs, _ = load_location(sig_loc, self._task_table(), self.root)
        self._run_cache[str(location)] = (sig, runs)
        return runs


_NOT_TWIN = "run_key NOT IN (SELECT key FROM runs WHERE twin_of IS NOT NULL)"
"""SQL: a sample (or test's sample) of a run that is not another run's stock twin."""


def _with_repos(files_signature: str, repos: Iterable[str]) -> str:
    """A location's signature: its JSON files' and its samples' repo trees'."""
    from inspector.services.repo.tree_signature import repo_tree_signature

    return f"{files_signature}:{repo_tree_signature(repos)}"


_UNSTORABLE_PATH = ("its path is not valid UTF-8 (a byte no encoding maps); rename it to "
                    "index it")
_UNSTORABLE_TEXT = ("a name or path in it is not valid UTF-8 (a byte no encoding maps); "
                    "rename it to index it")


def _storable(text: str) -> bool:
    """Whether SQLite can hold ``text`` (paths may carry undecodable bytes as surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _issue_json(i: LoadIssue) -> dict[str, str]:
    return {"path": str(i.path), "field": i.field, "message": i.message,
            "severity": i.severity}


def _issue_from_json(d: dict[str, str]) -> LoadIssue:
    return LoadIssue(Path(d["path"]), d["field"], d["message"], d["severity"])


RunRows = tuple["_Row", list[tuple["_Row", list["_Row"]]]]
"""One run's index rows: the run row, and each sample row with its test rows."""


def run_rows(loc: RunLocation, run: Run) -> RunRows:
    """The index rows of ``run`` (metrics, verdicts, tampering scan included)."""
    from inspector.model.runs.twins import STOCK, content_key, recorded_twins
    from inspector.services.figures.metrics import compute_run_metrics
    from inspector.services.tamper.findings import sample_tampering

    metrics = compute_run_metrics(run)
    key = f"{loc.path}#{run.id}"
    samples = []
    failures = 0
    for s in run.samples:
        v = verdict_of(s)
        failures += v.is_failure
        ac = s.api_coverage
        phase = s.deployment.failed_phase.value if s.deployment.failed_phase else ""
        if not s.deployment.success and not phase:
            phase = "deploy"
        sample_row = (
            key, run.id, run.agent, run.model, s.sample_id, s.task, s.sample, s.language,
            s.framework, v.value, phase, s.tests.passed, s.tests.failed, s.tests.errors,
            s.tests.skipped, s.tests.total, s.tests.expected, s.tests.status.value,
            s.tests.collection_errors, ac.implemented_apis if ac else None,
            ac.required_apis if ac else None, sample_message(s, run.tasks.get(s.task)),
            str(s.source_file) if s.source_file else None,
            str(s.repo_path) if s.repo_path else None, s.elapsed_seconds, int(s.tests.has_cases),
            int(s.deployment.success),
            json.dumps([f.to_json() for f in sample_tampering(s, run.tasks.get(s.task))]),
            *_generation_row(s.generation),
        )
        tests = [(i, c.id, c.outcome.value, c.duration_seconds,
                  c.first_message_line[:MESSAGE_CHARS] if c.outcome.is_failure else "",
                  c.file, c.line) for i, c in enumerate(s.tests.cases)]
        samples.append((sample_row, tests))
    run_row = (key, str(loc.path), run.id, run.agent, run.model, run.language,
               run.source.format, run.date, str(run.source.path), run.source.harness,
               json.dumps(asdict(metrics)), json.dumps(list(run.notes)), run.status, failures,
               content_key(run), json.dumps([str(p) for p in (
                   () if run.source.format == STOCK else recorded_twins(run.source.path))]),
               None, None)
    return run_row, samples


def _generation_row(g: Generation | None) -> tuple[float | None, int | None, int | None,
                                                   float | None]:
    if g is None:
        return None, None, None, None
    return g.seconds, g.input_tokens, g.output_tokens, g.cost_usd


def _generation(r: _Row) -> Generation | None:
    g = Generation(seconds=r[29], input_tokens=r[30], output_tokens=r[31], cost_usd=r[32])
    return None if g.is_empty else g


def _run_entry(r: _Row) -> RunEntry:
    return RunEntry(key=r[0], location=Path(r[1]), run_id=r[2], agent=r[3], model=r[4],
                    language=r[5], format=r[6], date=r[7], source_path=Path(r[8]),
                    harness=r[9], metrics=json.loads(r[10]), notes=tuple(json.loads(r[11])),
                    status=r[12], failures=r[13], twin_of=r[16], twin_how=r[17] or "")


def _sample_entry(r: _Row) -> SampleEntry:
    return SampleEntry(
        key=r[0], run_key=r[1], run_id=r[2], agent=r[3], model=r[4], sample_id=r[5],
        task=r[6], sample=r[7], language=r[8], framework=r[9], verdict=Verdict(r[10]),
        failed_phase=r[11], passed=r[12], failed=r[13], errors=r[14], skipped=r[15],
        total=r[16], expected=r[17], suite_status=r[18], collection_errors=r[19],
        ac_implemented=r[20], ac_total=r[21], message=r[22],
        result_path=Path(r[23]) if r[23] else None, repo_path=Path(r[24]) if r[24] else None,
        elapsed=r[25], has_cases=bool(r[26]), deployed=bool(r[27]),
        tampering=tuple(TamperFinding.from_json(d) for d in json.loads(r[28] or "[]")
                        if isinstance(d, dict)),
        generation=_generation(r),
    )
