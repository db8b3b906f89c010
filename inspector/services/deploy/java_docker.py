"""Java repos in the Docker sandbox, with the stock ``Dockerfile.java`` semantics.

Stock steps, in our sandbox: the repo's ``src/test`` replaced by the task's golden tests, Java 11
compiler settings raised to 17, ``mvn clean compile -DskipTests``, ``start.sh`` (else ``mvn
spring-boot:run``) with the port wait, ``mvn test`` read through Surefire's reports
(:mod:`inspector.services.suite.maven_plan` says which goals, and when the lifecycle's own
plugins are missing from the chosen repository).

Two builds of one prepared tree (repo + golden tests), both in the sample's container
(:data:`JAVA_IMAGE`, the Python sandbox's limits and lease):

* the **service's**, in ``/repo`` as uid 1000, its local repository in ``~/.m2`` (what
  ``start.sh`` may read), resolving through :mod:`inspector.services.host.maven_source`;
* the **test runner's**, in ``/tests`` (uid 1001, 0700: the service can neither read nor write
  it), with its own local repository: compiled and resolved before the service starts, then
  ``surefire:test`` offline (``-o``). Nothing the service's build wrote (jars, classes,
  reports) is ever on the test runner's path.

Resolution happens in the install phase only. A ``--maven-repo`` URL gives the container
Docker's bridge for that phase; it is disconnected before the service starts. A folder
(``--maven-local``) and the per-machine cache are bind-mounted read-only, and the container has
no network at all.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.model import Phase, PhaseStatus
from inspector.model.results.sample import NotEvaluable
from inspector.model.suite.java_tests import java_tests
from inspector.services.deploy.backend import PhaseOutcome, SampleJob, TestRun
from inspector.services.deploy.docker_backend import (
    HOME_MB,
    SERVICE_USER,
    DockerBackend,
    DockerSession,
    SandboxLimits,
    _mb,
    _text,
    _ulimits,
)
from inspector.services.deploy.java_local import (
    java_limits,
    place_golden_tests,
    rewrite_pom_java17,
    unreachable_repository,
)
from inspector.services.deploy.start_command import find_start_command
from inspector.services.host.maven_cache import artifact_paths, fill_cache
from inspector.services.host.maven_source import (
    CACHE_ID,
    MIRROR_ID,
    MavenSource,
    cache_dir,
    maven_source,
    outside_targets,
    settings_xml,
)
from inspector.services.logs.phase_log import PhaseLog, now_iso
from inspector.services.repo.files import COPY_IGNORE
from inspector.services.sandbox.base_image import InitError
from inspector.services.sandbox.container_exec import exec_io, run_exec
from inspector.services.sandbox.images import RUNNER_UID
from inspector.services.sandbox.java_image import JAVA_IMAGE, init_java_image, java_image_id
from inspector.services.sandbox.lease import LEASE_DIR, LEASE_TMPFS, Heartbeat, watchdog_command
from inspector.services.sandbox.repo_archive import SANDBOX_UID, RepoTooLarge, repo_tar, tar_space
from inspector.services.suite.maven_log import INFRA, MavenConsole, parse_maven_output
from inspector.services.suite.maven_plan import (
    LIFECYCLE_SWITCH,
    GoalPlan,
    cache_hits,
    declared_plugins,
    missing_lifecycle_plugin,
    mvn,
)
from inspector.services.suite.surefire import SourceIndex, parse_surefire_reports

if TYPE_CHECKING:
    from docker.models.containers import Container
    from docker.types import Mount

WORKDIR, TESTS, CONF, CACHE = "/repo", "/tests", "/gi", "/gi-cache"
RUNNER_USER = f"{RUNNER_UID}:{RUNNER_UID}"  # not the repo's group: /repo is never its input
M2_MB = 768  # each local repository (the service's, the runner's), tmpfs
TARGET_MB = 256  # what a build writes in target/
JAVA_MEMORY_MB = 1536  # Maven, the service's JVM and Surefire's fork at once
JAVA_PIDS = 1024  # JVM threads count as processes
JAVA_CPUS = 2.0  # the JVM compiles on other threads: one CPU doubles Maven's start
SERVICE_SETTINGS = "/home/sandbox/.m2/settings.xml"
RUNNER_SETTINGS = f"{CONF}/settings.xml"


class JavaDockerSession(DockerSession):
    """One Java sample in the sandbox (see the module docstring)."""

    def __init__(self, backend: DockerBackend, job: SampleJob, source: MavenSource) -> None:
        super().__init__(backend, replace(job, limits=java_limits(job.limits)))
        self.source = source
        self.plan = GoalPlan()
        self.prepared: MavenConsole | None = None  # the runner's resolution, read back
        self.compiled = False  # the runner's test classes are built: re-runs are warm
        self.pom = ""  # the prepared tree's pom.xml ("" when it has none)
        self.runner_text = ""  # what the test runner's build printed
        root = job.task.root
        tests = root / "src" / "test" / "java" if root else None
        self.test_classes = java_tests(tests, root) if tests and tests.is_dir() and root \
            else []
        self.index = SourceIndex(self.test_classes)

    # -- the container ------------------------------------------------------------------
    def _mounts(self) -> list[Mount]:
        # start-up: docker is loaded only when this runs
        from docker.types import Mount

        mounts = [Mount(CACHE, str(cache_dir()), type="bind", read_only=True)]
        if self.source.kind == "local":
            folder = Path(self.source.location)
            for d in [folder, *outside_targets(folder)]:
                mounts.append(Mount(str(d), str(d), type="bind", read_only=True))
        return mounts

    def _create_java(self, repo_mb: int) -> Container:
        lim = self.backend.limits
        self.tmpfs = {WORKDIR: repo_mb + TARGET_MB + lim.disk_mb, "/tmp": lim.tmp_mb,
                      "/home/sandbox": HOME_MB + M2_MB, TESTS: repo_mb + TARGET_MB + M2_MB,
                      CONF: 1}
        t = self.tmpfs
        tmpfs = {
            WORKDIR: f"rw,exec,nosuid,nodev,size={t[WORKDIR]}m,uid={SANDBOX_UID},"
                     f"gid={SANDBOX_UID},mode=0775",
            "/tmp": f"rw,exec,nosuid,nodev,size={t['/tmp']}m,mode=1777",
            "/home/sandbox": f"rw,exec,nosuid,nodev,size={t['/home/sandbox']}m,"
                             f"uid={SANDBOX_UID},gid={SANDBOX_UID},mode=0755",
            TESTS: f"rw,exec,nosuid,nodev,size={t[TESTS]}m,uid={RUNNER_UID},gid={RUNNER_UID},"
                   "mode=0700",
            CONF: "rw,noexec,nosuid,nodev,size=1m,mode=0755",
            LEASE_DIR: LEASE_TMPFS,
        }
        memory = max(lim.memory_mb, JAVA_MEMORY_MB) + sum(t.values()) + 64 + 1
        network = "bridge" if self.source.needs_network else "none"
        return self.backend.client.containers.create(
            JAVA_IMAGE, watchdog_command(self._idle(), lim.lifetime), init=True,
            network_mode=network, user="0:0", working_dir=WORKDIR, hostname="sandbox",
            read_only=True, tmpfs=tmpfs, mounts=self._mounts(), mem_limit=f"{memory}m",
            memswap_limit=f"{memory}m", pids_limit=max(lim.pids, JAVA_PIDS),
            nano_cpus=int(self._cpus() * 1e9), cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            labels=self._labels(), environment={**self._env(), "HOME": "/home/sandbox"},
            ulimits=_ulimits(), auto_remove=not self.backend.keep)

    def _cpus(self) -> float:
        """The user's CPU share, or :data:`JAVA_CPUS` where they kept the default."""
        cpus = self.backend.limits.cpus
        return JAVA_CPUS if cpus == SandboxLimits().cpus else cpus

    def _put(self, data: bytes, dest: str, user: str) -> str | None:
        """Extract a tar into ``dest`` as ``user``; None when done, else what failed."""
        assert self.container is not None
        code, _, err = exec_io(self.container, [
            "/bin/bash", "-c", f"exec /usr/bin/tar -x -p -f - -C {dest} --no-same-owner"],
            user=user, stdin=data, timeout=300)
        return None if code == 0 else f"copying into {dest} failed: {_text(err)}"

    def _file(self, path: str, text: str, user: str) -> str | None:
        assert self.container is not None
        code, _, err = exec_io(self.container, [
            "/bin/bash", "-c", f'/usr/bin/mkdir -p "$(dirname {path})" && '
            f"/usr/bin/cat > {path} && /usr/bin/chmod 0444 {path}"],
            user=user, stdin=text.encode(), timeout=60)
        return None if code == 0 else f"writing {path} failed: {_text(err)}"

    def _settings(self, local_repo: str) -> str:
        url = Path(self.source.location).as_uri() if self.source.kind == "local" else None
        return settings_xml(self.source, local_repo, url, f"file://{CACHE}")

    # -- phases ------------------------------------------------------------------------
    def install(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()

        def out(status: PhaseStatus, msg: str, code: int | None = None,
                why: NotEvaluable | None = None, cached: bool = False) -> PhaseOutcome:
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, status, msg, code, cached, started,
                                time.monotonic() - t0, not_evaluable=why,
                                infrastructure=why is not None and why.kind ==
                                "sandbox_unavailable")

        client = self.backend.client
        cached = java_image_id(client) is not None
        if not cached:
            log.meta(f"{JAVA_IMAGE} is missing: building it now (once per machine)")
            try:
                init_java_image(client, say=log.meta, cancel=self.job.cancel)
            except InitError as exc:
                return out(PhaseStatus.FAILED, str(exc),
                           why=NotEvaluable("sandbox_image_missing", str(exc)))
        log.meta(f"Maven resolves through {self.source.describe()}; the per-machine cache "
                 "is asked first")
        try:
            data = self._prepared_tree(log)
        except (RepoTooLarge, OSError) as exc:
            return out(PhaseStatus.FAILED, str(exc), cached=cached)
        lim = self.backend.limits
        network = ("; Docker's bridge during the install phase only, for the Maven repository"
                   if self.source.needs_network else "")
        log.meta(f"creating the sandbox container ({lim.describe()}; Java: at least "
                 f"{JAVA_MEMORY_MB} MiB, {JAVA_PIDS} processes, {self._cpus():g} CPU{network})")
        try:
            self.container = self._create_java(_mb(tar_space(data)))
            self.container.start()
            self.started_wall = time.time()
            self.heartbeat = Heartbeat(self.container, self._idle())
            problem = (self._put(data, WORKDIR, SERVICE_USER)
                       or self._put(data, TESTS, RUNNER_USER)
                       or self._file(RUNNER_SETTINGS, self._settings(f"{TESTS}/m2"), "0:0")
                       or self._file(SERVICE_SETTINGS,
                                     self._settings("/home/sandbox/.m2/repository"),
                                     SERVICE_USER))
        except Exception as exc:  # noqa: BLE001 - the engine refused, or the sandbox died
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            msg = f"could not set up the sandbox: {problem} ({INFRA})"
            return out(PhaseStatus.FAILED, msg, why=NotEvaluable("sandbox_unavailable", msg))
        gaps = self.backend.lifecycle_gaps if isinstance(self.backend, SandboxBackend) else {}
        known = gaps.get(self.source)
        code: int | None
        missing: str | None
        if known and known.split(":")[1] not in declared_plugins(self.pom):
            code, text, missing = 1, "", known  # the same repository lacked it before
            log.meta(f"{self.source.describe()} lacked {known} for an earlier sample")
        else:
            code, text = self._build(log, self.plan.install(), WORKDIR, SERVICE_USER,
                                     SERVICE_SETTINGS, self.job.limits.install)
            missing = missing_lifecycle_plugin(text, self.pom) if code else None
            if missing:
                gaps[self.source] = missing
        if missing:
            self.plan = GoalPlan(True, f"the repository lacks {missing}, {LIFECYCLE_SWITCH}")
            log.meta(f"{self.plan.reason}: building with the plugin goals directly "
                     "(compiler:compile / compiler:testCompile / surefire:test); the harness "
                     "removes target/ and copies src/*/resources itself (no filtering)")
            self._copy_resources(WORKDIR, SERVICE_USER)
            code, text = self._build(log, self.plan.install(), WORKDIR, SERVICE_USER,
                                     SERVICE_SETTINGS, self.job.limits.install)
        console = parse_maven_output(text)
        outcome = self._install_outcome(code, console, out)
        self._prepare_runner(log)
        self._after_resolution(log, text)
        if outcome.status is PhaseStatus.OK:
            outcome = replace(outcome, cached=cached)
        return outcome

    def _install_outcome(self, code: int | None, console: MavenConsole,
                         out: Callable[..., PhaseOutcome]) -> PhaseOutcome:
        if code == 0:
            return out(PhaseStatus.OK, "mvn compile succeeded" + (
                " (plugin goals, see above)" if self.plan.direct else ""), 0)
        if code is None:
            cancelled = self.job.cancel.is_set()
            return out(PhaseStatus.FAILED if cancelled else PhaseStatus.TIMEOUT,
                       "cancelled" if cancelled else
                       f"mvn compile timed out after {self.job.limits.install:.0f}s")
        problem = console.problem() or f"mvn compile failed (exit {code})"
        return out(PhaseStatus.FAILED, self._with_repository(problem, console), code,
                   self._machine_gap(console, problem))

    def _machine_gap(self, console: MavenConsole, problem: str) -> NotEvaluable | None:
        """Not evaluable when the chosen repository never answered or is not complete (see
        :func:`~.java_local.unreachable_repository`); None when it is the repo's failure."""
        return unreachable_repository(console, problem, self.source)

    def _with_repository(self, problem: str, console: MavenConsole) -> str:
        if not console.unresolved:
            return problem
        return f"{problem}; repository tried: {self.source.describe()}"

    def _prepared_tree(self, log: PhaseLog) -> bytes:
        """The repo with the golden tests placed and the pom raised to Java 17, as a tar."""
        with tempfile.TemporaryDirectory(prefix="gi-java-") as tmp:
            work = Path(tmp) / "repo"
            shutil.copytree(self.job.repo, work, symlinks=True, ignore=COPY_IGNORE)
            shutil.rmtree(work / "target", ignore_errors=True)
            place_golden_tests(work, self.job.task.root, log)
            if (work / "pom.xml").is_file() and rewrite_pom_java17(work / "pom.xml"):
                log.meta("pom.xml: Java 11 compiler settings raised to 17 (as the stock image "
                         "does)")
            self.pom = (work / "pom.xml").read_text("utf-8", "replace") \
                if (work / "pom.xml").is_file() else ""
            return repo_tar(work, None)

    def _build(self, log: PhaseLog, goals: list[str], where: str, user: str, settings: str,
               limit: float) -> tuple[int | None, str]:
        """``mvn`` in the sandbox; (exit code or None when killed, what it printed)."""
        assert self.container is not None
        if not self.pom:
            log.meta("no pom.xml at the repo root: nothing to build")
            return 1, ""
        cmd = mvn(settings, *goals)
        log.meta("$ " + " ".join(cmd) + f"   (in the sandbox: {where} as uid "
                 f"{user.split(':')[0]})")
        lines: list[str] = []

        def sink(stream: str, texts: list[str]) -> None:
            lines.extend(texts)
            log.write_many(texts, stream)

        home = TESTS if where == TESTS else "/home/sandbox"
        try:
            code = run_exec(self.container, cmd, lambda s, t: sink(s, [t]), limit=limit,
                            env={"HOME": home, "MAVEN_CONFIG": ""}, cancel=self.job.cancel,
                            workdir=where, user=user,
                            lines_sink=sink)
        except Exception as exc:  # noqa: BLE001 - exec refused (pid limit, container gone)
            log.meta(f"could not run Maven: {exc}" + self.limits_note())
            return None, "\n".join(lines)
        return (None if code == 137 else code), "\n".join(lines)

    def _copy_resources(self, where: str, user: str) -> None:
        """What the clean and resources plugins would do: ``target/`` removed,
        ``src/main/resources`` and ``src/test/resources`` copied (no filtering)."""
        assert self.container is not None
        exec_io(self.container, ["/bin/bash", "-c",
                                 "rm -rf target && mkdir -p target/classes target/test-classes"
                                 " && { [ ! -d src/main/resources ] || cp -r "
                                 "src/main/resources/. target/classes/; } && "
                                 "{ [ ! -d src/test/resources ] || cp -r "
                                 "src/test/resources/. target/test-classes/; }"],
                user=user, timeout=120, workdir=where)

    def _prepare_runner(self, log: PhaseLog) -> None:
        """The test runner's own build in ``/tests``: main and test classes compiled and
        everything the offline test run needs resolved, before the service starts."""
        log.meta(f"preparing the test runner's build in {TESTS} (uid {RUNNER_UID}; the "
                 "service cannot reach it): compile, test compile, Surefire's provider")
        if self.plan.direct:
            self._copy_resources(TESTS, RUNNER_USER)
        first = self.test_classes[0].class_name.split("$")[0] if self.test_classes else None
        goals = self.plan.prepare_tests(first)
        code, text = self._build(log, goals, TESTS, RUNNER_USER, RUNNER_SETTINGS,
                                 self.job.limits.install)
        if code != 0:
            log.meta(f"the test runner's build stopped (exit {code}); the test phase "
                     "reports it")
        self.compiled = code == 0
        self.prepared = parse_maven_output(text)
        self.runner_text = text

    def _after_resolution(self, log: PhaseLog, service_text: str) -> None:
        """Cache statistics, the cache filled from the source, the network removed."""
        assert self.container is not None
        text = service_text + "\n" + self.runner_text
        hits, misses = cache_hits(text, CACHE_ID, MIRROR_ID)
        log.meta(f"artifacts resolved: {hits} from the per-machine cache, {misses} from "
                 f"{self.source.describe()}")
        if self.source.kind == "url":
            needed: list[str] = []
            for repo, user in (("/home/sandbox/.m2/repository", SERVICE_USER),
                               (f"{TESTS}/m2", RUNNER_USER)):  # both builds' local repos
                _, listing, _ = exec_io(self.container, [
                    "/bin/bash", "-c", f"cd {repo} 2>/dev/null && /usr/bin/find . -type f "
                    "\\( -name '*.jar' -o -name '*.pom' \\)"], user=user, timeout=60)
                needed += listing.decode("utf-8", "replace").splitlines()
            fill = fill_cache(self.source, artifact_paths(needed), cache_dir())
            log.meta(f"per-machine cache: {len(fill.added)} artifacts fetched from the source "
                     f"by the harness" + (f", {len(fill.failed)} not fetched" if fill.failed
                                          else ""))
            with contextlib.suppress(Exception):  # already gone is fine
                self.backend.client.networks.get("bridge").disconnect(self.container,
                                                                      force=True)
            log.meta("network removed: from here on the sandbox has only its loopback")
        for user in (SERVICE_USER, RUNNER_USER):  # nothing of the builds stays behind
            with contextlib.suppress(Exception):
                exec_io(self.container, ["/bin/bash", "-c", "kill -KILL -1 2>/dev/null; :"],
                        user=user, timeout=30)

    def _start_command(self) -> tuple[list[str], str] | None:
        """``start.sh`` (the stock entrypoint's places), else ``mvn spring-boot:run``."""
        found = find_start_command(self.job.repo, self.job.port)
        if found is not None and found[0][0] == "bash":
            return found  # the Python fallbacks are not the stock Java entrypoint's
        if self.pom:
            return (["mvn", "-B", "-o", "-q", "spring-boot:run"],
                    "no start.sh; fallback `mvn spring-boot:run`")
        return None

    def _service_env(self) -> dict[str, str]:
        return {**self._env(), "HOME": "/home/sandbox"}

    def run_tests(self, log: PhaseLog, test_ids: list[str] | None = None) -> TestRun:
        started, t0 = now_iso(), time.monotonic()
        if self.container is None:
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.SKIPPED, "no sandbox", None,
                                        False, started, 0.0), None, None)
        stopped = self._prepare_stopped()
        if stopped is not None:
            msg, why = stopped
            log.meta(f"not run: the test runner's build failed in the install phase: {msg}")
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, msg, None, False,
                                        started, time.monotonic() - t0, not_evaluable=why),
                           None, None, surefire_cases=[])
        warm = self.compiled and self.runs > 0
        self.runs += 1
        exec_io(self.container, ["/bin/rm", "-rf", f"{TESTS}/target/surefire-reports"],
                user=RUNNER_USER, timeout=60)
        goals = self.plan.tests(test_ids, warm=warm or (self.compiled and self.plan.direct))
        if warm:
            log.meta("warm re-run: classes compiled and nothing changed, Surefire only")
        cmd = mvn(RUNNER_SETTINGS, "-o", *goals)
        log.meta("$ " + " ".join(cmd) + f"   (in the sandbox: {TESTS} as uid {RUNNER_UID}, "
                 "offline)")
        lines: list[str] = []

        def sink(stream: str, texts: list[str]) -> None:
            lines.extend(texts)
            log.write_many(texts, stream)

        env = {**self._env(), "HOME": TESTS}
        try:
            code = run_exec(self.container, cmd, lambda s, t: sink(s, [t]),
                            limit=self.job.limits.tests, env=env, cancel=self.job.cancel,
                            workdir=TESTS, user=RUNNER_USER, lines_sink=sink)
        except Exception as exc:  # noqa: BLE001 - exec refused (pid limit, container gone)
            msg = f"could not run the tests: {exc}" + self.limits_note()
            log.meta(msg)
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, msg, None, False,
                                        started, time.monotonic() - t0), None, None)
        if code == 137:
            code = None
        console = parse_maven_output("\n".join(lines))
        cases, problems = self._reports()
        for p in problems:
            log.meta(p)
        dur = time.monotonic() - t0
        if code is None:
            cancelled = self.job.cancel.is_set()
            status = PhaseStatus.FAILED if cancelled else PhaseStatus.TIMEOUT
            msg = "cancelled" if cancelled else \
                f"mvn test timed out after {self.job.limits.tests:.0f}s"
        elif code == 0:
            status, msg = PhaseStatus.OK, "all passed"
        else:
            status = PhaseStatus.FAILED
            msg = self._test_problem(console, cases) or f"mvn test failed (exit {code})"
        memory = self._memory_note()
        if memory:
            msg = f"{msg}; sandbox {memory}"
        log.meta(msg)
        why = None
        if status is PhaseStatus.FAILED and not cases:
            # offline here: what is missing was missing when the install resolved it
            prepared = self.prepared or MavenConsole()
            why = self._machine_gap(prepared, msg) if prepared.unresolved else None
        outcome = PhaseOutcome(Phase.TESTS, status, msg, code, False, started, dur,
                               not_evaluable=why)
        return TestRun(outcome, None, code, surefire_cases=cases)

    def _prepare_stopped(self) -> tuple[str, NotEvaluable | None] | None:
        """Why the offline test run cannot succeed, from the test runner's build in the
        install phase (a compile error, an artifact it could not resolve), or None: what
        ``mvn test`` would report, without running it again."""
        prepared = self.prepared
        if self.compiled or prepared is None:
            return None
        if prepared.unresolved:
            msg = self._with_repository(prepared.problem() or "", prepared)
            return msg, self._machine_gap(prepared, prepared.problem() or "")
        if prepared.compile_errors:
            return prepared.compile_message() or "compilation failed", None
        return None

    def _test_problem(self, console: MavenConsole, cases: list[object]) -> str | None:
        if cases:
            counts = console.counts
            if counts:
                run, fail, err, skip = counts
                return f"{run} tests run: {fail} failures, {err} errors, {skip} skipped"
            return None
        prepared = self.prepared
        if prepared is not None and prepared.unresolved:
            return self._with_repository(prepared.problem() or "", prepared)
        return console.problem()

    def _reports(self) -> tuple[list, list[str]]:  # type: ignore[type-arg]
        """The runner's Surefire reports, copied out and read."""
        assert self.container is not None
        code, out, _ = exec_io(self.container, [
            "/bin/bash", "-c", f"cd {TESTS}/target 2>/dev/null && [ -d surefire-reports ] && "
            "exec /usr/bin/tar -c -f - surefire-reports || exit 3"],
            user=RUNNER_USER, timeout=120)
        if code != 0 or not out:
            return [], []
        with tempfile.TemporaryDirectory(prefix="gi-surefire-") as tmp:
            with contextlib.suppress(tarfile.TarError, OSError), \
                    tarfile.open(fileobj=io.BytesIO(out)) as tar:
                for member in tar:
                    if member.isfile() and not member.name.startswith(("/", "..")) and \
                            ".." not in Path(member.name).parts:
                        tar.extract(member, tmp, filter="data")
            reports = Path(tmp) / "surefire-reports"
            if not reports.is_dir():
                return [], []
            return parse_surefire_reports(reports, self.index)


class SandboxBackend(DockerBackend):
    """The Docker backend for every language: Java samples get a :class:`JavaDockerSession`
    resolving through ``maven`` (default: :func:`~inspector.services.host.maven_source.
    maven_source` from the environment, else offline)."""

    def __init__(self, *args: Any, maven: MavenSource | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.maven = maven or maven_source()
        # lifecycle plugins each repository proved to lack: later samples go direct at once
        self.lifecycle_gaps: dict[MavenSource, str] = {}

    def open(self, job: SampleJob) -> DockerSession:
        if job.task.language == "java":
            return JavaDockerSession(self, job, self.maven)
        return DockerSession(self, job)
