"""Java repos on the local backend, with the stock ``Dockerfile.java`` semantics.

The generated repo is copied, its ``src/test`` replaced by the task's golden tests, Java 11
settings in ``pom.xml`` raised to 17, then ``mvn clean compile -DskipTests`` (install phase),
``start.sh`` or ``mvn spring-boot:run`` (start), and ``mvn test`` (tests), whose Surefire XML
reports give the per-test results (:mod:`inspector.services.suite.maven_plan`: the goals, and
the plugin goals when the repository lacks the lifecycle's own plugins).

Where artifacts come from (:mod:`inspector.services.host.maven_source`): with ``--maven-repo``
or ``--maven-local``, a generated ``settings.xml`` resolves through that source only (the
per-machine cache asked first) into the session's own local repository, in the install phase;
the tests then run offline. With neither, Maven runs offline (``-o``) against ``~/.m2`` as it
always did, unless ``INSPECTOR_MAVEN_ONLINE=1``. What cannot be resolved fails the phase at once
with one message naming the artifact and the repository tried: the repo's dependency failure
when the repository answered, the machine's (not evaluable) when none did.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import IO

from inspector.model import Phase, PhaseStatus
from inspector.model.results.sample import NotEvaluable
from inspector.model.suite.java_tests import java_tests
from inspector.services.deploy.backend import (
    BASE_URL_VARS,
    Limits,
    PhaseOutcome,
    SampleJob,
    TestRun,
)
from inspector.services.deploy.local_session import LocalHost, LocalSession
from inspector.services.deploy.start_command import find_start_command
from inspector.services.host import confine
from inspector.services.host.maven_cache import artifact_paths, fill_cache
from inspector.services.host.maven_source import (
    CACHE_ID,
    MIRROR_ID,
    MavenSource,
    cache_dir,
    maven_source,
    settings_xml,
)
from inspector.services.host.venvs import run_logged
from inspector.services.logs import line_buffer
from inspector.services.logs.phase_log import PhaseLog, now_iso
from inspector.services.repo.files import COPY_IGNORE
from inspector.services.suite.maven_log import INFRA, MavenConsole, parse_maven_output
from inspector.services.suite.maven_plan import (
    BATCH,
    LIFECYCLE_SWITCH,
    GoalPlan,
    cache_hits,
    missing_lifecycle_plugin,
)
from inspector.services.suite.surefire import SourceIndex, parse_surefire_reports

JAVA_STARTUP = 20.0  # the stock harness's Java limits
JAVA_TESTS = 600.0
JAVA_BUILD = 300.0
ONLINE_ENV = "INSPECTOR_MAVEN_ONLINE"
_POM_17 = ((r"<maven.compiler.source>11</maven.compiler.source>",
            "<maven.compiler.source>17</maven.compiler.source>"),
           (r"<maven.compiler.target>11</maven.compiler.target>",
            "<maven.compiler.target>17</maven.compiler.target>"),
           (r"<source>11</source>", "<source>17</source>"),
           (r"<target>11</target>", "<target>17</target>"))


def java_limits(limits: Limits) -> Limits:
    """The stock harness's Java limits where the user kept the (Python) defaults."""
    d = Limits()
    return replace(limits,
                   install=JAVA_BUILD if limits.install == d.install else limits.install,
                   startup=JAVA_STARTUP if limits.startup == d.startup else limits.startup,
                   tests=JAVA_TESTS if limits.tests == d.tests else limits.tests)


def maven_online() -> bool:
    """Whether Maven may reach its repositories (the user opted in with ``ONLINE_ENV``)."""
    return os.environ.get(ONLINE_ENV, "").strip().lower() in ("1", "true", "yes")


def maven_args(*goals: str) -> list[str]:
    """``mvn`` with batch mode, no colours, offline unless the user opted in (``~/.m2``)."""
    return ["mvn", *BATCH, *([] if maven_online() else ["-o"]), *goals]


def unreachable_repository(console: MavenConsole, problem: str | None,
                           source: MavenSource | None = None) -> NotEvaluable | None:
    """Not evaluable when Maven could not resolve what the build needs without asking a
    complete repository (offline: ``~/.m2``, a folder, the cache) or reaching one; None when a
    complete repository answered (an artifact that does not exist is the repo's failure) or
    nothing was unresolved. The reason names the repository tried (once) and says whose
    problem it is."""
    offline = not source.complete if source is not None else not maven_online()
    if not console.unresolved or not (console.repository_unreachable or offline):
        return None
    reason = problem or console.dependency_message() or ""
    if source is not None and "repository tried:" not in reason:
        reason += f"; repository tried: {source.describe()}"
    if source is not None and not source.complete and not console.repository_unreachable:
        reason += " (not a complete repository: a missing artifact may exist elsewhere)"
    if INFRA not in reason:
        reason += f" — {INFRA}"
    return NotEvaluable("dependency_repository_unreachable", reason)


def rewrite_pom_java17(pom: Path) -> bool:
    """Raise Java 11 compiler settings to 17, as the stock image does; True if changed."""
    try:
        text = pom.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    new = text
    for old, repl in _POM_17:
        new = new.replace(old, repl)
    if new != text:
        pom.write_text(new, encoding="utf-8")
    return new != text


def place_golden_tests(workdir: Path, task_root: Path | None, log: PhaseLog) -> None:
    """Replace the repo's ``src/test`` with the task's (or copy a task ``tests/`` into
    ``src/test/java``), like the stock Dockerfile."""
    if task_root is None:
        return
    if (task_root / "src" / "test").is_dir():
        if (workdir / "src" / "test").exists():
            log.meta("replacing the generated repo's src/test with the task's golden tests")
            shutil.rmtree(workdir / "src" / "test", ignore_errors=True)
        (workdir / "src").mkdir(parents=True, exist_ok=True)
        shutil.copytree(task_root / "src" / "test", workdir / "src" / "test")
    elif (task_root / "tests").is_dir():
        dest = workdir / "src" / "test" / "java"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copytree(task_root / "tests", dest, dirs_exist_ok=True)


class _Capture:
    """Writes through to a phase log and keeps the lines, for reading Maven's output back:
    the first and the last ``keep`` lines (the build's start and its summary), not more."""

    def __init__(self, log: PhaseLog, keep: int = 50_000) -> None:
        self.log = log
        self.path = log.path
        self.keep = keep
        self.lines: list[str] = []
        self._tail: deque[str] = deque(maxlen=keep)

    def write(self, text: str, stream: str = "out") -> None:
        self.write_many([text], stream)

    def write_many(self, texts: list[str], stream: str = "out") -> None:
        for text in texts:
            (self.lines if len(self.lines) < self.keep else self._tail).append(text)
        self.log.write_many(texts, stream)

    def meta(self, text: str) -> None:
        self.log.meta(text)

    def pump(self, stream: IO[bytes], name: str) -> threading.Thread:
        return line_buffer.pump(stream, lambda texts: self.write_many(texts, name),
                                f"pump-{self.path.stem}-{name}")

    @property
    def text(self) -> str:
        return "\n".join([*self.lines, *self._tail])


class JavaSession(LocalSession):
    """A local deployment of a Maven project."""

    def __init__(self, backend: LocalHost, job: SampleJob,
                 source: MavenSource | None = None) -> None:
        job = replace(job, limits=java_limits(job.limits))
        super().__init__(backend, job)
        root = job.task.root
        found = java_tests(root / "src" / "test" / "java", root) if root and \
            (root / "src" / "test" / "java").is_dir() else []
        self.index = SourceIndex(found)
        self.first_class = found[0].class_name.split("$")[0] if found else None
        self.source = source or maven_source()
        self.plan = GoalPlan()
        self.compiled = False
        self.test_runs = 0
        self.prepared: MavenConsole | None = None
        self.settings: Path | None = None
        self.home: Path | None = None
        if self.source.kind != "offline":
            # the user's repository into the session's own ~/.m2 (its HOME for Maven and the
            # service alike: a start.sh reading ~/.m2/repository finds what was resolved)
            # not under the session's folder: the service's box gives it a private /tmp
            sessions = cache_dir().parent / "sessions"
            sessions.mkdir(parents=True, exist_ok=True)
            self.home = Path(tempfile.mkdtemp(prefix="home-", dir=sessions))
            m2 = self.home / ".m2"
            m2.mkdir(parents=True)
            self.settings = m2 / "settings.xml"
            self.settings.write_text(settings_xml(self.source, str(m2 / "repository"),
                                                  cache_url=cache_dir().as_uri()),
                                     encoding="utf-8")

    def close(self) -> None:
        super().close()
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)

    def _env(self, venv: Path | None) -> dict[str, str]:
        env = super()._env(venv)
        if self.home is not None:
            env["HOME"] = str(self.home)
        return env

    def _command(self, goals: list[str], offline: bool) -> list[str]:
        if self.settings is None:
            return maven_args(*goals)
        return ["mvn", *BATCH, "-s", str(self.settings), *(["-o"] if offline else []), *goals]

    def _maven(self, goals: list[str], log: PhaseLog, timeout: float,
               extra_env: dict[str, str] | None = None,
               offline: bool = False) -> tuple[int | None, str]:
        cap = _Capture(log)
        env = self._env(None)
        env.update(extra_env or {})
        code = run_logged(self._command(goals, offline), cap, self.workdir, env, timeout,
                          self._cancelled)
        return code, cap.text

    def install(self, log: PhaseLog) -> PhaseOutcome:
        t0, started = time.monotonic(), now_iso()

        def done(status: PhaseStatus, msg: str, code: int | None = None) -> PhaseOutcome:
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, status, msg, code, False, started,
                                time.monotonic() - t0)

        shutil.copytree(self.job.repo, self.workdir, symlinks=True, ignore=COPY_IGNORE)
        place_golden_tests(self.workdir, self.job.task.root, log)
        if shutil.which("mvn") is None:
            out = done(PhaseStatus.FAILED, f"Maven (mvn) is not installed on this machine "
                       f"— {INFRA}")
            out.not_evaluable = NotEvaluable("toolchain_missing", out.message)
            return out
        pom = self.workdir / "pom.xml"
        if not pom.is_file():
            return done(PhaseStatus.FAILED, "no pom.xml at the repo root: nothing to build")
        if rewrite_pom_java17(pom):
            log.meta("pom.xml: Java 11 compiler settings raised to 17 (as the stock image does)")
        log.meta(f"Maven resolves through {self.source.describe()}" if self.settings else
                 "Maven resolves from ~/.m2" + ("" if maven_online() else " (offline)"))
        pom_text = pom.read_text(encoding="utf-8", errors="replace")
        code, text = self._maven(self.plan.install(), log, self.job.limits.install)
        missing = missing_lifecycle_plugin(text, pom_text) if code else None
        if missing:
            self.plan = GoalPlan(True, f"the repository lacks {missing}, {LIFECYCLE_SWITCH}")
            log.meta(f"{self.plan.reason}: building with the plugin goals directly; the "
                     "harness removes target/ and copies src/*/resources itself (no filtering)")
            copy_resources(self.workdir)
            code, text = self._maven(self.plan.install(), log, self.job.limits.install)
        prep_code, prep = self._maven(self.plan.prepare_tests(self.first_class), log,
                                      self.job.limits.install)
        self.compiled = prep_code == 0
        self.prepared = parse_maven_output(prep)
        self._cache_stats(log, text + "\n" + prep)
        if code == 0:
            return done(PhaseStatus.OK, "mvn compile succeeded", 0)
        if code is None:
            return done(PhaseStatus.FAILED if self._cancelled() else PhaseStatus.TIMEOUT,
                        "cancelled" if self._cancelled() else
                        f"mvn compile timed out after {self.job.limits.install:.0f}s")
        console = parse_maven_output(text)
        problem = console.problem()
        if problem and console.unresolved and self.settings is not None:
            problem += f"; repository tried: {self.source.describe()}"
        out = done(PhaseStatus.FAILED, problem or f"mvn compile failed (exit {code})", code)
        out.not_evaluable = unreachable_repository(console, problem,
                                                   self.source if self.settings else None)
        return out

    def _cache_stats(self, log: PhaseLog, text: str) -> None:
        if self.settings is None:
            return
        hits, misses = cache_hits(text, CACHE_ID, MIRROR_ID)
        log.meta(f"artifacts resolved: {hits} from the per-machine cache, {misses} from "
                 f"{self.source.describe()}")
        if self.source.kind == "url":
            assert self.home is not None
            m2 = self.home / ".m2" / "repository"
            listing = [p.relative_to(m2).as_posix() for p in m2.rglob("*") if p.is_file()]
            fill = fill_cache(self.source, artifact_paths(listing), cache_dir())
            log.meta(f"per-machine cache: {len(fill.added)} artifacts fetched from the source "
                     "by the harness")

    def _box(self) -> confine.Box:
        """Maven reads ``~/.m2``, which only the inspector's user can: the service keeps that
        user (without capabilities, on the read-only file system of its namespace)."""
        box = super()._box()
        box.keep_uid = True
        m2 = (self.home or Path.home()) / ".m2"
        if m2.is_dir():
            box.readable.append(m2)  # visible even where it lies under the box's private /tmp
            box.home_links[".m2"] = str(m2)
        return box

    def _start_command(self, port: int) -> tuple[list[str], str] | None:
        found = find_start_command(self.workdir, port)
        if found is not None and found[0][0] == "bash":
            return found
        if (self.workdir / "pom.xml").is_file():
            return (self._command(["spring-boot:run", "-q"], offline=True),
                    "no start.sh; fallback `mvn spring-boot:run`")
        return None

    def run_tests(self, log: PhaseLog, test_ids: list[str] | None = None) -> TestRun:
        t0, started = time.monotonic(), now_iso()
        reports = self.workdir / "target" / "surefire-reports"
        shutil.rmtree(reports, ignore_errors=True)
        prepared_fail = self.prepared if self.prepared is not None and not self.compiled \
            and (self.prepared.unresolved or self.prepared.compile_errors) else None
        if prepared_fail is not None:  # what `mvn test` would report, without running it
            msg = prepared_fail.problem() or "the test build failed"
            log.meta(f"not run: the test build failed in the install phase: {msg}")
            source = self.source if self.settings else None
            return TestRun(PhaseOutcome(
                Phase.TESTS, PhaseStatus.FAILED, msg, None, False, started,
                time.monotonic() - t0, not_evaluable=unreachable_repository(
                    prepared_fail, msg, source)), None, None, surefire_cases=[])
        warm = self.compiled and (self.test_runs > 0 or self.plan.direct)
        if warm and self.test_runs:
            log.meta("warm re-run: classes compiled and nothing changed, Surefire only")
        self.test_runs += 1
        port = self.job.port
        code, text = self._maven(self.plan.tests(test_ids, warm=warm), log,
                                 self.job.limits.tests, _base_url_vars(port), offline=True)
        console = parse_maven_output(text)
        cases, problems = (parse_surefire_reports(reports, self.index) if reports.is_dir()
                           else ([], []))
        for p in problems:
            log.meta(p)
        dur = time.monotonic() - t0
        counts = console.counts
        prepared = self.prepared if self.prepared and self.prepared.unresolved else None
        if code is None:
            status = PhaseStatus.FAILED if self._cancelled() else PhaseStatus.TIMEOUT
            msg = "cancelled" if self._cancelled() else \
                f"mvn test timed out after {self.job.limits.tests:.0f}s"
        elif code == 0:
            status, msg = PhaseStatus.OK, "all passed"
        else:
            status = PhaseStatus.FAILED
            problem = None
            if not cases:
                # offline here: what is missing was missing when the install resolved it
                problem = (prepared or console).problem()
            if problem is None and counts:
                run, fail, err, skip = counts
                problem = f"{run} tests run: {fail} failures, {err} errors, {skip} skipped"
            msg = problem or f"mvn test failed (exit {code})"
        log.meta(msg)
        source = self.source if self.settings else None
        outcome = PhaseOutcome(Phase.TESTS, status, msg, code, False, started, dur,
                               not_evaluable=unreachable_repository(prepared or console, msg,
                                                                    source)
                               if status is PhaseStatus.FAILED and not cases else None)
        return TestRun(outcome, None, code, surefire_cases=cases)


def copy_resources(workdir: Path) -> None:
    """What the clean and resources plugins would do: ``target/`` removed, the main and test
    resources copied into the class folders (no filtering)."""
    shutil.rmtree(workdir / "target", ignore_errors=True)
    for src, dest in (("main", "classes"), ("test", "test-classes")):
        res = workdir / "src" / src / "resources"
        (workdir / "target" / dest).mkdir(parents=True, exist_ok=True)
        if res.is_dir():
            shutil.copytree(res, workdir / "target" / dest, dirs_exist_ok=True)


def _base_url_vars(port: int) -> dict[str, str]:
    return {var: f"http://127.0.0.1:{port}" for var in BASE_URL_VARS}
