"""Rendering one sample of the bench corpus: phase records, test cases, the four phase logs.

Everything here is driven by a :class:`SamplePlan` (how deployment and the suite end) and the
written task suite and repo, so messages, tracebacks and log lines quote real lines of the
corpus' files. The output is a real :class:`inspector.model.SampleResult` plus log texts; the
caller serialises it with :func:`inspector.model.runs.runformat.sample_to_json`.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from corpus_repos import RepoTraits, handler_name
from corpus_tasks import TaskPlan, TestSpec

from inspector.model import (
    ApiCoverage,
    Deployment,
    Outcome,
    Phase,
    PhaseResult,
    PhaseStatus,
    SampleResult,
    TestCase,
    TestSummary,
)

HARNESS_PY = "/root/.pyenv/versions/3.11.7/bin/python3.11"
PY_LIB = "/root/.pyenv/versions/3.11.7/lib/python3.11"
CACHE = "/home/eval/.cache/genesis-inspector/venvs"
STARTUP_TIMEOUT = 15
TEST_TIMEOUT = 300
INSTALL_TIMEOUT = 600


# ----------------------------------------------------------------------------- plans

@dataclass
class SamplePlan:
    """How one sample ends: ``deploy`` in ok/install/start/health/harness, ``suite`` in
    pass/fail/coll/notrun/none."""

    n: int
    deploy: str
    suite: str
    big_log: bool = False


@dataclass
class PairPlan:
    """One task within one run: the repo traits, the samples, and which way each kind of
    deployment failure happens for this repo (one variant per kind)."""

    task: str
    traits: RepoTraits
    samples: list[SamplePlan] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)

    def repo_key(self, sp: SamplePlan) -> tuple[str, bool]:
        """(variant, white-box broken) of the repo this sample was generated as."""
        variant = self.variants.get(sp.deploy, "plain") if sp.deploy != "harness" else "plain"
        return variant, sp.suite == "coll"


@dataclass
class RunPlan:
    index: int
    run_id: str
    agent_token: str
    agent: str
    model: str
    language: str
    date: str
    skill: float
    created: float  # epoch seconds
    pairs: list[PairPlan] = field(default_factory=list)


@dataclass
class RepoInfo:
    """A written repo as the samples see it."""

    path: Path
    digest: str
    coverage: ApiCoverage
    variant: str
    handler_lines: dict[str, tuple[str, int, str]]
    server_port: int | None
    requirements: list[str]
    bad_requirement: str
    broken_module: str
    whitebox_broken: bool


def case_count(n_tests: int, coll_tests: int, suite: str) -> int:
    """Test cases a sample records: every test, or one error per file that failed to collect
    in place of its tests, or none."""
    if suite in ("pass", "fail"):
        return n_tests
    if suite == "coll":
        return n_tests - coll_tests + 1
    return 0


# ----------------------------------------------------------------------------- helpers

def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="microseconds")


def _esc(text: str) -> str:
    if "\\" in text or "\n" in text or "\r" in text:
        return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return text


class Log:
    """One phase log being written (``<timestamp>\\t<stream>\\t<text>`` lines)."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, t: float, stream: str, text: str) -> None:
        self.lines.append(f"{iso(t)}\t{stream}\t{_esc(text)}")

    def many(self, t: float, stream: str, texts: list[str], step: float = 0.00004) -> float:
        for text in texts:
            self.lines.append(f"{iso(t)}\t{stream}\t{_esc(text)}")
            t += step
        return t

    def text(self) -> str:
        return "\n".join(self.lines) + "\n" if self.lines else ""


REASONS = {200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 404: "Not Found",
           405: "Method Not Allowed", 422: "Unprocessable Entity", 500: "Internal Server Error"}
API_FUNCS = {"GET": ("73", "get", 'return request("get", url, params=params, **kwargs)'),
             "POST": ("115", "post", 'return request("post", url, data=data, json=json, **kwargs)'),
             "PUT": ("130", "put", 'return request("put", url, data=data, **kwargs)'),
             "PATCH": ("145", "patch", 'return request("patch", url, data=data, **kwargs)'),
             "DELETE": ("160", "delete", 'return request("delete", url, **kwargs)')}
FLASK_404_HTML = ("<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n"
                  "<h1>Not Found</h1>\n<p>The requested URL was not found on the server. If you "
                  "entered the URL manually please check your spelling and try again.</p>\n")
FLASK_405_HTML = ("<!doctype html>\n<html lang=en>\n<title>405 Method Not Allowed</title>\n"
                  "<h1>Method Not Allowed</h1>\n<p>The method is not allowed for the requested "
                  "URL.</p>\n")
SERVER_ERRORS = (
    "KeyError: '{field}'",
    "TypeError: '<' not supported between instances of 'NoneType' and 'int'",
    "AttributeError: 'NoneType' object has no attribute 'to_dict'",
    "TypeError: Object of type datetime is not JSON serializable",
    "ValueError: invalid literal for int() with base 10: '{field}'",
    "RuntimeError: dictionary changed size during iteration",
)


def _carets(text: str) -> str | None:
    """The ``^^^`` line Python 3.11 prints under the call of ``x = call(...)``."""
    if " = " not in text or "(" not in text:
        return None
    lhs, rhs = text.split(" = ", 1)
    return "    " + " " * (len(lhs) + 3) + "^" * len(rhs)


def _frame(file: str, line: int, func: str, text: str, carets: bool = True) -> list[str]:
    out = [f"{file}:{line}: in {func}", f"    {text}"]
    if carets:
        c = _carets(text)
        if c:
            out.append(c)
    return out


# ----------------------------------------------------------------------------- renderer

@dataclass
class Rendered:
    result: SampleResult
    logs: dict[Phase, str]
    started: str
    finished: str
    end: float
    cases: int
    lines: int


class SampleRenderer:
    """Renders one sample. Create one per sample; call :meth:`render`."""

    def __init__(self, *, seed: int, run: RunPlan, task: TaskPlan, pair: PairPlan,
                 sp: SamplePlan, repo: RepoInfo, sample_dir: Path, start: float,
                 tasks_root: Path) -> None:
        self.rng = random.Random(f"{seed}/{run.run_id}/{task.name}/{sp.n}")
        self.run, self.task, self.pair, self.sp, self.repo = run, task, pair, sp, repo
        self.tr = pair.traits
        self.sample_dir = sample_dir
        self.t = start
        self.start = start
        self.port = task.port
        self.java = task.language == "java"
        tag = "".join(self.rng.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=8))
        self.tmp = f"/tmp/gi-{task.name}-{tag}"
        self.repo_dir = f"{self.tmp}/repo"
        req = "\n".join(repo.requirements)
        self.venv_hash = hashlib.sha1(req.encode()).hexdigest()[:20]
        self.test_hash = hashlib.sha1(f"tests:{task.name}".encode()).hexdigest()[:20]
        self.venv = f"{CACHE}/{self.venv_hash}"
        self.test_venv = f"{CACHE}/{self.test_hash}"
        self.site = f"{self.test_venv}/lib/python3.11/site-packages"
        self.svc_site = f"{self.venv}/lib/python3.11/site-packages"
        self.pid = self.rng.randint(2000, 60000)
        self.logs = {ph: Log() for ph in Phase}
        self.phases: list[PhaseResult] = []
        self.tasks_root = tasks_root

    # -- small utilities -------------------------------------------------------------------
    def tick(self, lo: float, hi: float) -> float:
        self.t += self.rng.uniform(lo, hi)
        return self.t

    def phase(self, ph: Phase, status: PhaseStatus, started: float, dur: float | None,
              exit_code: int | None, message: str, cached: bool = False) -> None:
        self.phases.append(PhaseResult(ph, status, iso(started),
                                       round(dur, 3) if dur is not None else None, exit_code,
                                       message, cached))

    # -- entry -------------------------------------------------------------------------------
    def render(self) -> Rendered:
        sp = self.sp
        started = self.t
        self.t += self.rng.uniform(0.002, 0.01)
        error = None
        notes: list[str] = []
        deployed = False
        lenient = False
        failed_phase: Phase | None = None
        message = ""
        exit_code: int | None = None
        cases: list[TestCase] = []
        coll_errors = 0
        if sp.deploy == "harness":
            error = self._harness_error()
            message, failed_phase = "harness exception", Phase.INSTALL
        else:
            ok, msg = self._install()
            if not ok:
                failed_phase, message = Phase.INSTALL, msg
                self.logs[Phase.START].add(self.t, "meta",
                                           "not started: dependency installation failed")
            else:
                deployed, lenient, failed_phase, message = self._start_and_wait()
            cases, coll_errors, exit_code, tests_status = self._tests(deployed)
            if sp.suite == "notrun":
                notes.append("pytest wrote no JUnit report (timed out or crashed): no per-test "
                             "results" if not self.java else
                             "surefire wrote no report (test compilation failed or timed out): "
                             "no per-test results")
            if deployed:
                message = "Service started successfully"
                if tests_status is not PhaseStatus.OK:
                    failed_phase = Phase.TESTS
        present = {p.phase for p in self.phases}
        phases = self.phases + [PhaseResult(ph, PhaseStatus.SKIPPED) for ph in Phase
                                if ph not in present]
        counts = {o: 0 for o in Outcome}
        for c in cases:
            counts[c.outcome] += 1
        tests = TestSummary(passed=counts[Outcome.PASSED], failed=counts[Outcome.FAILED],
                            errors=counts[Outcome.ERROR], skipped=counts[Outcome.SKIPPED],
                            expected=self.task.n_tests, cases=tuple(cases), has_cases=True,
                            collection_errors=coll_errors)
        self.t += self.rng.uniform(0.05, 2.5)  # clean-up: stop the service, wait for the port
        end = self.t
        result = SampleResult(
            run_id=self.run.run_id, task=self.task.name, sample=sp.n,
            language=self.task.language,
            deployment=Deployment(success=deployed, message=message, failed_phase=failed_phase,
                                  phases=tuple(phases), lenient_success=lenient),
            tests=tests, framework=self.task.framework, port=self.task.port,
            api_coverage=self.repo.coverage, elapsed_seconds=round(end - started, 3),
            exit_code=exit_code,
            logs={ph: self.sample_dir / "logs" / f"{ph.value}.log" for ph in Phase},
            repo_path=self.repo.path, repo_digest=self.repo.digest, error=error,
            notes=tuple(notes),
        )
        texts = {ph: log.text() for ph, log in self.logs.items()}
        return Rendered(result, texts, iso(started), iso(end), end, len(cases),
                        sum(len(log.lines) for log in self.logs.values()))

    # -- harness error -------------------------------------------------------------------------
    def _harness_error(self) -> str:
        err = self.rng.choice((
            ("OSError", f"[Errno 28] No space left on device: '{self.tmp}/repo/requirements.txt'"),
            ("PermissionError", f"[Errno 13] Permission denied: '{self.tmp}'"),
            ("RuntimeError", "docker daemon not reachable: Error while fetching server API "
                             "version: ('Connection aborted.', FileNotFoundError(2, 'No such file "
                             "or directory'))"),
        ))
        tb = ("harness exception:\nTraceback (most recent call last):\n"
              '  File "/opt/genesis-inspector/inspector/services/harness/evaluate.py", line 102, '
              "in evaluate_sample\n    inst = session.install(logs[Phase.INSTALL])\n"
              "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
              '  File "/opt/genesis-inspector/inspector/services/deploy/local.py", line 115, '
              "in install\n    shutil.copytree(self.job.repo, self.workdir, symlinks=True, "
              f"ignore=COPY_IGNORE)\n{err[0]}: {err[1]}")
        self.logs[Phase.TESTS].add(self.tick(0.01, 0.3), "meta", tb)
        return f"{err[0]}: {err[1]}"

    # -- install ---------------------------------------------------------------------------------
    def _install(self) -> tuple[bool, str]:
        log = self.logs[Phase.INSTALL]
        t0 = self.t
        if self.java:
            return self._install_java(log, t0)
        fail = self.sp.deploy == "install"
        variant = self.repo.variant if fail else ""
        req_file = f"{self.repo_dir}/requirements.txt"
        if self.rng.random() < 0.08:
            log.add(self.tick(0.5, 4), "meta", f"waited {self.t - t0:.1f}s for port {self.port}")
        cached = not fail and self.rng.random() < 0.75
        if cached:
            log.add(self.tick(0.001, 0.004), "meta", f"reusing cached virtualenv {self.venv} "
                    f"(requirements hash {self.venv_hash})")
            log.add(self.tick(0.001, 0.004), "meta", f"reusing cached virtualenv (test runner) "
                    f"{self.test_venv} (requirements hash {self.test_hash})")
            self.phase(Phase.INSTALL, PhaseStatus.OK, t0, self.t - t0, 0,
                       "cached virtualenv reused", True)
            return True, ""
        log.add(self.tick(0.001, 0.01), "meta", f"$ {HARNESS_PY} -m venv {self.venv}")
        log.add(self.tick(3.0, 6.0), "meta",
                f"$ {self.venv}/bin/python -m pip install --disable-pip-version-check "
                f"--no-input -r {req_file}")
        log.add(self.tick(0.3, 0.6), "out", "Looking in indexes: https://pypi.org/simple")
        reqs = [r for r in self.repo.requirements if r != self.repo.bad_requirement] \
            if fail else self.repo.requirements
        for i, r in enumerate(reqs, 1):
            name, _, version = r.partition("==")
            log.add(self.tick(0.05, 0.4), "out",
                    f"Collecting {r} (from -r {req_file} (line {i}))")
            if variant == "timeout" and name == "torch":
                log.add(self.tick(0.2, 0.5), "out", f"  Downloading torch-{version}-cp311-cp311-"
                        "manylinux1_x86_64.whl (779.1 MB)")
                for k in range(1, 30):
                    log.add(self.tick(15, 25), "out",
                            f"     ━━━━━━━━{'━' * (k // 3)}╸ {k * 9.1:.1f}/779.1 MB "
                            f"{self.rng.uniform(0.8, 1.6):.1f} MB/s "
                            f"eta 0:{self.rng.randint(10, 59):02d}:00")
                log.add(t0 + INSTALL_TIMEOUT + 0.4, "meta", f"timed out after {INSTALL_TIMEOUT}s")
                self.t = t0 + INSTALL_TIMEOUT + 0.5
                self._test_runner_cached(log)
                self.phase(Phase.INSTALL, PhaseStatus.TIMEOUT, t0, self.t - t0, None,
                           "pip install timed out")
                return False, "pip install timed out"
            size = self.rng.randint(20, 400)
            log.add(self.tick(0.02, 0.3), "out",
                    f"  Downloading {name.replace('-', '_')}-{version}-py3-none-any.whl "
                    f"({size} kB)")
            log.add(self.tick(0.005, 0.05), "out", f"     {'━' * 40} {size}.0/{size}.0 kB "
                    f"{self.rng.uniform(20, 150):.1f} MB/s eta 0:00:00")
        if fail:
            return self._pip_failure(log, t0, variant, req_file)
        deps = _DEPS[self.tr.impl]
        for d in deps:
            log.add(self.tick(0.02, 0.2), "out", f"Collecting {d[0]}>={d[1]} (from "
                    f"{reqs[0]}->-r {req_file} (line 1))")
        names = [r.partition("==")[0] for r in reqs] + [d[0] for d in deps]
        log.add(self.tick(0.1, 0.4), "out", "Installing collected packages: " + ", ".join(names))
        log.add(self.tick(1.0, 6.0), "out", "Successfully installed " + " ".join(
            f"{n}-{v}" for n, v in [r.split("==") for r in reqs] + list(deps)))
        self._test_runner_cached(log)
        self.phase(Phase.INSTALL, PhaseStatus.OK, t0, self.t - t0, 0, "dependencies installed")
        return True, ""

    def _test_runner_cached(self, log: Log) -> None:
        log.add(self.tick(0.01, 0.2), "meta", f"reusing cached virtualenv (test runner) "
                f"{self.test_venv} (requirements hash {self.test_hash})")

    def _pip_failure(self, log: Log, t0: float, variant: str, req_file: str) -> tuple[bool, str]:
        bad = self.repo.bad_requirement
        err: list[str]
        if variant == "resolution":
            base = self.repo.requirements[0]
            dep = ("flask 3.0.3 depends on Werkzeug>=3.0.0" if self.tr.impl == "flask" else
                   "fastapi 0.110.0 depends on starlette<0.37.0 and >=0.36.3")
            log.add(self.tick(0.05, 0.3), "out", f"Collecting {bad} (from -r {req_file} (line "
                    f"{len(self.repo.requirements)}))")
            log.add(self.tick(0.3, 2), "out", f"INFO: pip is looking at multiple versions of "
                    f"{base.partition('==')[0]} to determine which version is compatible with "
                    "other requirements. This could take a while.")
            err = [f"ERROR: Cannot install -r {req_file} (line 1) and {bad} because these "
                   "package versions have conflicting dependencies.", "",
                   "The conflict is caused by:", f"    The user requested {bad}", f"    {dep}", "",
                   "To fix this you could try to:",
                   "1. loosen the range of package versions you've specified",
                   "2. remove package versions to allow pip to attempt to solve the dependency "
                   "conflict", "",
                   "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/"
                   "topics/dependency-resolution/#dealing-with-dependency-conflicts"]
        elif variant == "nomatch":
            err = [f"ERROR: Could not find a version that satisfies the requirement {bad} "
                   "(from versions: none)", f"ERROR: No matching distribution found for {bad}"]
        else:  # build
            log.add(self.tick(0.05, 0.3), "out", f"Collecting {bad} (from -r {req_file} (line "
                    f"{len(self.repo.requirements)}))")
            log.add(self.tick(0.1, 0.4), "out", "  Downloading psycopg2-2.9.9.tar.gz (384 kB)")
            log.add(self.tick(0.1, 0.5), "out", "  Preparing metadata (setup.py): started")
            log.add(self.tick(0.5, 2.0), "out",
                    "  Preparing metadata (setup.py): finished with status 'error'")
            err = ["  error: subprocess-exited-with-error", "  ",
                   "  × python setup.py egg_info did not run successfully.", "  │ exit code: 1",
                   "  ╰─> [23 lines of output]", "      running egg_info",
                   "      creating /tmp/pip-pip-egg-info-2b0c1k7e/psycopg2.egg-info",
                   "      writing /tmp/pip-pip-egg-info-2b0c1k7e/psycopg2.egg-info/PKG-INFO",
                   "      ",
                   "      Error: pg_config executable not found.", "      ",
                   "      pg_config is required to build psycopg2 from source.  Please add the "
                   "directory", "      containing pg_config to the $PATH or specify the full "
                   "executable path with the", "      option:", "      ",
                   "          python setup.py build_ext --pg-config /path/to/pg_config build ...",
                   "      ", "      If you prefer to avoid building psycopg2 from source, please "
                   "install the PyPI", "      'psycopg2-binary' package instead.",
                   "      [end of output]", "  ",
                   "  note: This error originates from a subprocess, and is likely not a problem "
                   "with pip.", "error: metadata-generation-failed", "",
                   "× Encountered error while generating package metadata.",
                   "╰─> See above for output.", "",
                   "note: This is an issue with the package mentioned above, not pip.",
                   "hint: See above for details."]
        self.t = log.many(self.tick(0.1, 1.5), "err", err)
        tail = next((e for e in reversed(err) if "ERROR" in e), "")
        msg = f"pip install failed (exit 1): {tail}" if tail else "pip install failed (exit 1)"
        self._test_runner_cached(log)
        self.phase(Phase.INSTALL, PhaseStatus.FAILED, t0, self.t - t0, 1, msg)
        return False, msg

    def _install_java(self, log: Log, t0: float) -> tuple[bool, str]:
        fail = self.sp.deploy == "install"
        cmd = f"$ mvn -q -B -DskipTests package   (cwd: {self.repo_dir})"
        log.add(self.tick(0.01, 0.05), "meta", cmd)
        if not fail:
            cached = self.rng.random() < 0.7
            if cached:
                log.add(self.tick(8, 25), "meta", "maven repository cache hit: "
                        "/home/eval/.m2/repository (no downloads)")
            else:
                for art in ("org/springframework/boot/spring-boot-starter-parent/3.2.5/"
                            "spring-boot-starter-parent-3.2.5.pom",
                            "org/springframework/boot/spring-boot-dependencies/3.2.5/"
                            "spring-boot-dependencies-3.2.5.pom",
                            "org/apache/maven/plugins/maven-surefire-plugin/3.1.2/"
                            "maven-surefire-plugin-3.1.2.jar"):
                    log.add(self.tick(0.2, 3), "out", "Downloaded from central: "
                            f"https://repo.maven.apache.org/maven2/{art}")
                log.add(self.tick(10, 40), "out", f"[INFO] Building jar: {self.repo_dir}/target/"
                        f"{self.task.name}.jar")
            self.phase(Phase.INSTALL, PhaseStatus.OK, t0, self.t - t0, 0,
                       "build cached" if cached else "build succeeded", cached)
            return True, ""
        r0 = self.task.resources[0]
        if self.repo.variant == "compile":
            src = self.repo.broken_module
            err = ["[ERROR] COMPILATION ERROR : ",
                   f"[ERROR] {self.repo_dir}/{src}:[7,33] package com.example.{self.task.package}"
                   ".repository does not exist",
                   f"[ERROR] {self.repo_dir}/{src}:[7,1] cannot find symbol",
                   f"  symbol:   class {r0.cls}Repository",
                   f"  location: package com.example.{self.task.package}.repository",
                   "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:"
                   f"3.11.0:compile (default-compile) on project {self.task.name}: Compilation "
                   "failure: Compilation failure: ",
                   "[ERROR] -> [Help 1]"]
        else:
            err = [f"[ERROR] Failed to execute goal on project {self.task.name}: Could not resolve "
                   f"dependencies for project com.example:{self.task.name}:jar:0.0.1-SNAPSHOT: "
                   f"Could not find artifact {self.repo.bad_requirement} in central "
                   "(https://repo.maven.apache.org/maven2)", "[ERROR] -> [Help 1]"]
        self.t = log.many(self.tick(5, 30), "out", err)
        tail = next(e for e in err if "Failed to execute goal" in e)
        msg = f"mvn package failed (exit 1): {tail}"
        self.phase(Phase.INSTALL, PhaseStatus.FAILED, t0, self.t - t0, 1, msg)
        return False, msg

    # -- start + health ------------------------------------------------------------------------
    def _start_and_wait(self) -> tuple[bool, bool, Phase | None, str]:
        """Returns (deployed, lenient, failed phase, message)."""
        slog, hlog = self.logs[Phase.START], self.logs[Phase.HEALTH]
        t0 = self.tick(0.001, 0.005)
        variant = self.repo.variant if self.sp.deploy in ("start", "health", "ok") else "plain"
        if self.sp.deploy == "start" and variant == "portbusy":
            msg = (f"port {self.port} is already in use by another process on this machine; "
                   "not started (infrastructure problem, not the agent's)")
            slog.add(self.t, "meta", msg)
            self.phase(Phase.START, PhaseStatus.FAILED, t0, 0.0, None, msg)
            return False, False, Phase.START, msg
        if self.sp.deploy == "start" and variant == "noentry":
            slog.add(self.t, "meta", "no start.sh and no fallback entry point (app.py, main.py, "
                     "run.py, manage.py, server.py)")
            msg = "No service entry point found"
            self.phase(Phase.START, PhaseStatus.FAILED, t0, 0.0, None, msg)
            return False, False, Phase.START, msg
        slog.add(self.t, "meta", "entry point: start.sh")
        slog.add(self.tick(0.0001, 0.0003), "meta",
                 f"$ bash start.sh   (cwd: repo root, PORT={self.port})")
        self.phase(Phase.START, PhaseStatus.OK, t0, self.t - t0, None,
                   f"started (start.sh), pid {self.pid}")
        h0 = self.tick(0.001, 0.004)
        hlog.add(h0, "meta", f"waiting up to {STARTUP_TIMEOUT}s for 127.0.0.1:{self.port} to "
                 "accept connections")
        if self.sp.deploy == "start":
            code, lines = self._crash_output(variant)
            self.t = slog.many(self.tick(0.15, 1.2), "err", lines, 0.0002)
            wait = self.t - h0 + self.rng.uniform(0.01, 0.2)
            self.t = h0 + wait
            msg = f"process exited with code {code} after {wait:.1f}s"
            hlog.add(self.t, "meta", msg)
            st = self.phases[-1]
            self.phases[-1] = PhaseResult(Phase.START, PhaseStatus.FAILED, st.started_at,
                                          round((st.duration_seconds or 0) + wait, 3), code, msg)
            self.phase(Phase.HEALTH, PhaseStatus.FAILED, h0, wait, None,
                       "service exited before its port opened")
            return False, False, Phase.START, msg
        if self.sp.deploy == "health":
            self._server_banner(slog, variant)
            self.t = h0 + STARTUP_TIMEOUT + self.rng.uniform(0.05, 0.2)
            for k in (5, 10):
                hlog.add(h0 + k, "meta", f"still waiting: 127.0.0.1:{self.port} not listening "
                         f"after {k}s (connection refused)")
            msg = (f"process still running but port {self.port} not open after "
                   f"{STARTUP_TIMEOUT}s (the stock harness counts this as deployed)")
            hlog.add(self.t, "meta", msg)
            self.phase(Phase.HEALTH, PhaseStatus.TIMEOUT, h0, self.t - h0, None, msg)
            return False, True, Phase.HEALTH, msg
        # deployed
        if variant != "background":
            self._server_banner(slog, "plain")
        wait = self.rng.uniform(0.2, 2.5) if not self.java else self.rng.uniform(3, 9)
        self.t = h0 + wait
        msg = f"port {self.port} open after {wait:.1f}s; GET /health -> 200"
        lenient = True
        if variant == "background":
            msg += ("; start command exited (0) and left the service running in the background "
                    "(the stock harness would call this a failed start)")
            lenient = False
        elif not self.java:
            self._access(self.t - 0.01, "GET", "/health", 200)
        hlog.add(self.t, "meta", msg)
        self.phase(Phase.HEALTH, PhaseStatus.OK, h0, wait, None, msg)
        if self.sp.big_log and not self.java:
            self._big_log(slog)
        return True, lenient, None, ""

    def _big_log(self, slog: Log) -> None:
        """Thousands of debug lines, as a chatty service writes while it is being tested."""
        r = self.task.resources[0]
        t = self.t
        for i in range(5000):
            t += 0.0002
            slog.lines.append(f"{iso(t)}\terr\tDEBUG:{self.task.package}:cache sweep {i}: "
                              f"{r.plural} index has {i % 97} entries, {i % 13} expired, "
                              f"rebuilt in {0.1 + (i % 7) * 0.03:.2f}ms")

    def _server_banner(self, slog: Log, variant: str) -> None:
        t = self.tick(0.1, 0.9)
        impl = self.tr.impl
        port = self.repo.server_port or self.port
        if impl in ("spring", "javalin"):
            if impl == "javalin":
                lines = ["[main] INFO io.javalin.Javalin - Starting Javalin ...",
                         "[main] INFO org.eclipse.jetty.server.Server - jetty-11.0.20",
                         f"[main] INFO io.javalin.Javalin - Listening on http://localhost:{port}/",
                         "[main] INFO io.javalin.Javalin - Javalin started in 412ms \\o/"]
            else:
                ts = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
                pre = f"{ts}  INFO {self.pid} --- [           main] "
                lines = ["", "  .   ____          _            __ _ _",
                         " /\\\\ / ___'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\",
                         "( ( )\\___ | '_ | '_| | '_ \\/ _` | \\ \\ \\ \\",
                         " \\\\/  ___)| |_)| | | | | || (_| |  ) ) ) )",
                         "  '  |____| .__|_| |_|_| |_\\__, | / / / /",
                         " =========|_|==============|___/=/_/_/_/",
                         " :: Spring Boot ::                (v3.2.5)", "",
                         pre + f"c.e.{self.task.package}.Application : Starting Application "
                         f"v0.0.1-SNAPSHOT using Java 17.0.11 with PID {self.pid}",
                         pre + f"o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized "
                         f"with port {port} (http)",
                         pre + f"o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat started on "
                         f"port {port} (http) with context path ''",
                         pre + f"c.e.{self.task.package}.Application : Started Application in "
                         f"{self.rng.uniform(2, 6):.3f} seconds (process running for "
                         f"{self.rng.uniform(3, 7):.3f})"]
            self.t = slog.many(t, "out", lines, 0.01)
            return
        if variant == "unixsock":
            stamp = datetime.fromtimestamp(t, UTC).strftime("[%Y-%m-%d %H:%M:%S +0000]")
            lines = [f"{stamp} [{self.pid}] [INFO] Starting gunicorn 22.0.0",
                     f"{stamp} [{self.pid}] [INFO] Listening at: unix:/tmp/{self.task.package}"
                     f".sock ({self.pid})",
                     f"{stamp} [{self.pid}] [INFO] Using worker: sync",
                     f"{stamp} [{self.pid + 3}] [INFO] Booting worker with pid: {self.pid + 3}"]
            self.t = slog.many(t, "err", lines, 0.002)
            return
        if impl == "flask":
            lines = [" * Serving Flask app 'app'", " * Debug mode: off"]
            self.t = slog.many(t, "out", lines, 0.0001)
            if variant == "slowstart":
                slog.add(self.t, "err", f"INFO:{self.task.package}:warming the search index "
                         "(this takes a while)")
                return
            self.t = slog.many(self.t, "err", [
                "\x1b[31m\x1b[1mWARNING: This is a development server. Do not use it in a "
                "production deployment. Use a production WSGI server instead.\x1b[0m",
                f" * Running on http://127.0.0.1:{port}", "\x1b[33mPress CTRL+C to quit\x1b[0m"],
                0.00003)
            return
        lines = [f"INFO:     Started server process [{self.pid}]",
                 "INFO:     Waiting for application startup."]
        if variant == "slowstart":
            self.t = slog.many(t, "err", lines, 0.0001)
            return
        lines += ["INFO:     Application startup complete.",
                  f"INFO:     Uvicorn running on http://127.0.0.1:{port} (Press CTRL+C to quit)"]
        self.t = slog.many(t, "err", lines, 0.0001)

    def _crash_output(self, variant: str) -> tuple[int, list[str]]:
        """Exit code and stderr of a service that dies while starting."""
        rd = self.repo_dir
        if self.java:
            if variant == "portinuse":
                return 1, ["", "***************************", "APPLICATION FAILED TO START",
                           "***************************", "", "Description:", "",
                           f"Web server failed to start. Port {self.port} was already in use.",
                           "", "Action:", "",
                           f"Identify and stop the process that's listening on port {self.port} "
                           "or configure this application to listen on another port."]
            if variant == "mainclass":
                return 1, [f"no main manifest attribute, in target/{self.task.name}-0.0.1-"
                           "SNAPSHOT-plain.jar"]
            r0 = self.task.resources[0]
            return 1, ["org.springframework.beans.factory.UnsatisfiedDependencyException: Error "
                       f"creating bean with name '{r0.singular}Controller': Unsatisfied dependency "
                       f"expressed through constructor parameter 0: No qualifying bean of type "
                       f"'com.example.{self.task.package}.{r0.cls}Service' available: expected "
                       "at least 1 bean which qualifies as autowire candidate.",
                       "\tat org.springframework.beans.factory.support.ConstructorResolver."
                       "createArgumentArray(ConstructorResolver.java:795)",
                       "\tat org.springframework.beans.factory.support.ConstructorResolver."
                       "autowireConstructor(ConstructorResolver.java:237)",
                       "\tat org.springframework.boot.SpringApplication.run(SpringApplication."
                       "java:1354)",
                       f"\tat com.example.{self.task.package}.Application.main("
                       "Application.java:10)"]
        uv = self.tr.impl == "fastapi"
        head = ["Traceback (most recent call last):"]
        if uv:
            head += [f'  File "{self.svc_site}/../../../bin/uvicorn", line 8, in <module>',
                     "    sys.exit(main())", "             ^^^^^^",
                     f'  File "{self.svc_site}/uvicorn/importer.py", line 19, in '
                     "import_from_string",
                     "    module = importlib.import_module(module_str)",
                     "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                     f'  File "{PY_LIB}/importlib/__init__.py", line 126, in import_module',
                     "    return _bootstrap._gcd_import(name[level:], package, level)",
                     "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"]
        app_frame = [f'  File "{rd}/app.py", line {7 if not uv else 9}, in <module>',
                     "    from routes import " + ("router" if uv else "bp")]
        r0 = self.task.resources[0]
        if variant == "modnotfound":
            return 1, head + app_frame + [f'  File "{rd}/routes.py", line 2, in <module>',
                                          "    import marshmallow",
                                          "ModuleNotFoundError: No module named 'marshmallow'"]
        if variant == "ownimport":
            return 1, head + app_frame + [
                f'  File "{rd}/routes.py", line 2, in <module>',
                f"    from storage import {r0.cls}Repository",
                f"ImportError: cannot import name '{r0.cls}Repository' from 'storage' "
                f"({rd}/storage.py)"]
        if variant == "circular":
            return 1, head + app_frame + [
                f'  File "{rd}/routes.py", line 2, in <module>', "    from app import log",
                "ImportError: cannot import name 'log' from partially initialized module 'app' "
                f"(most likely due to a circular import) ({rd}/app.py)"]
        if variant == "syntax":
            line = int(self.repo.broken_module.split(":")[1])
            return 1, head + app_frame + [
                f'  File "{rd}/routes.py", line {line}', "    " + "return ...(",
                "    " + " " * 11 + "^", "SyntaxError: '(' was never closed"]
        if variant == "cmdnotfound":
            cmd = "uvicorn" if uv else "gunicorn"
            return 127, [f"start.sh: line 4: {cmd}: command not found"]
        # addrinuse
        if uv:
            return 1, [f"INFO:     Started server process [{self.pid}]",
                       "INFO:     Waiting for application startup.",
                       "INFO:     Application startup complete.",
                       "ERROR:    [Errno 98] error while attempting to bind on address "
                       "('127.0.0.1', 5000): address already in use",
                       "INFO:     Waiting for application shutdown.",
                       "INFO:     Application shutdown complete."]
        return 1, [" * Serving Flask app 'app'", " * Debug mode: off", "Address already in use",
                   "Port 5000 is in use by another program. Either identify and stop that "
                   "program, or start the server with a different port."]

    # -- access log --------------------------------------------------------------------------
    def _access(self, t: float, method: str, path: str, status: int) -> None:
        log = self.logs[Phase.START]
        if self.tr.impl == "flask":
            stamp = datetime.fromtimestamp(t, UTC).strftime("%d/%b/%Y %H:%M:%S")
            req = f"{method} {path} HTTP/1.1"
            if status == 404:
                req = f"\x1b[33m{req}\x1b[0m"
            elif 400 <= status < 500:
                req = f"\x1b[31m\x1b[1m{req}\x1b[0m"
            elif status != 200:
                req = f"\x1b[35m\x1b[1m{req}\x1b[0m"
            log.lines.append(f"{iso(t)}\terr\t127.0.0.1 - - [{stamp}] \"{req}\" {status} -")
        elif self.tr.impl == "fastapi":
            port = self.rng.randint(40000, 60000)
            log.lines.append(f"{iso(t)}\tout\tINFO:     127.0.0.1:{port} - \"{method} {path} "
                             f"HTTP/1.1\" {status} {REASONS.get(status, '')}")

    def _server_error(self, t: float, spec: TestSpec, method: str, path: str) -> None:
        """A 500 in the service: its traceback in start.log."""
        log = self.logs[Phase.START]
        e = spec.endpoint
        loc = self.repo.handler_lines.get(e.key) if e else None
        r = e.resource if e else None
        field_name = r.fields[0].name if r else "id"
        err = self.rng.choice(SERVER_ERRORS).format(field=field_name)
        if self.java:
            return
        lines: list[str]
        if self.tr.impl == "flask":
            stamp = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
            lines = [f"[{stamp}] ERROR in app: Exception on {path} [{method}]",
                     "Traceback (most recent call last):",
                     f'  File "{self.svc_site}/flask/app.py", line 1473, in wsgi_app',
                     "    response = self.full_dispatch_request()",
                     "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                     f'  File "{self.svc_site}/flask/app.py", line 882, in full_dispatch_request',
                     "    rv = self.handle_user_exception(e)",
                     f'  File "{self.svc_site}/flask/app.py", line 880, in full_dispatch_request',
                     "    rv = self.dispatch_request()",
                     f'  File "{self.svc_site}/flask/app.py", line 865, in dispatch_request',
                     "    return self.ensure_sync(self.view_functions[rule.endpoint])"
                     "(**view_args)  # type: ignore[no-any-return]"]
        else:
            lines = ["ERROR:    Exception in ASGI application",
                     "Traceback (most recent call last):",
                     f'  File "{self.svc_site}/uvicorn/protocols/http/h11_impl.py", line 407, in '
                     "run_asgi", "    result = await app(  # type: ignore[func-returns-value]",
                     f'  File "{self.svc_site}/fastapi/routing.py", line 193, in '
                     "run_endpoint_function",
                     "    return await run_in_threadpool(dependant.call, **values)",
                     f'  File "{self.svc_site}/starlette/concurrency.py", line 42, in '
                     "run_in_threadpool", "    return await anyio.to_thread.run_sync(func, *args)"]
        if loc and e is not None:
            func = "stats" if e.role == "stats" else handler_name(e)
            lines += [f'  File "{self.repo_dir}/{loc[0]}", line {loc[1]}, in {func}',
                      f"    {loc[2]}"]
        lines.append(err)
        log.many(t, "err", lines, 0.00002)

    # -- tests ---------------------------------------------------------------------------------
    def _tests(self, deployed: bool) -> tuple[list[TestCase], int, int | None, PhaseStatus]:
        if self.java:
            return self._tests_java(deployed)
        log = self.logs[Phase.TESTS]
        t0 = self.tick(0.001, 0.01)
        sample_abs = self.sample_dir
        log.add(t0, "meta", f"$ {self.test_venv}/bin/python -m pytest tests -v --tb=short -p "
                "no:cacheprovider --continue-on-collection-errors -o junit_family=xunit1 "
                f"--junitxml={sample_abs}/junit.xml")
        t = self.tick(0.3, 0.8)
        header = ["=" * 29 + " test session starts " + "=" * 30,
                  f"platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0 -- "
                  f"{self.test_venv}/bin/python", f"rootdir: {self.repo_dir}",
                  "plugins: anyio-4.4.0"]
        t = log.many(t, "out", header, 0.0008)
        task = self.task
        coll = self.sp.suite == "coll"
        coll_file = task.coll_file if coll else None
        specs = [s for s in task.tests if s.file != coll_file]
        n_err = 1 if coll else 0
        t += self.rng.uniform(0.05, 0.3)
        log.add(t, "out", f"collecting ... collected {len(specs)} items" +
                (f" / {n_err} error" if n_err else ""))
        log.add(t, "out", "")
        if self.sp.suite == "notrun":
            return self._tests_hang(log, t0, specs)
        cases: list[TestCase] = []
        failures: list[tuple[TestSpec, str, str, str]] = []  # spec, word, message, traceback
        errors_section: list[list[str]] = []
        short: list[str] = []
        if coll:
            tb = self._collection_tb(coll_file)
            cases.append(TestCase(id=coll_file, outcome=Outcome.ERROR, duration_seconds=0.0,
                                  message="collection failure", traceback="\n".join(tb),
                                  file=coll_file, line=None))
            title = f" ERROR collecting {coll_file} "
            errors_section.append([title.center(80, "_"), *tb])
            short.append(f"ERROR {coll_file}")
        self.t = t
        plan = self._outcomes(specs, deployed)
        total = len(specs)
        counts = {"passed": 0, "failed": 0, "error": 0}
        for i, (spec, (outcome, msg, tb, dur)) in enumerate(zip(specs, plan, strict=True)):
            t += dur + 0.0025
            word = {"passed": "PASSED", "failed": "FAILED", "error": "ERROR"}[outcome]
            counts[outcome] += 1
            line = f"{spec.id} {word}"
            pct = f"[{round(100 * (i + 1) / total):3d}%]"
            line = line.ljust(79 - len(pct)) + " " + pct if len(line) < 79 - len(pct) \
                else f"{line} {pct}"
            log.lines.append(f"{iso(t)}\tout\t{line}")
            cases.append(TestCase(id=spec.id, outcome=Outcome(outcome),
                                  duration_seconds=round(dur, 3), message=msg, traceback=tb,
                                  file=spec.file, line=spec.line))
            if outcome == "failed":
                failures.append((spec, word, msg, tb))
                short.append(f"FAILED {spec.id} - {msg.splitlines()[0]}"[:200])
            elif outcome == "error":
                errors_section.append([f" ERROR at setup of test_{spec.name} ".center(80, "_"),
                                       *tb.splitlines()])
                short.append(f"ERROR {spec.id} - {msg.splitlines()[0]}"[:200])
        out: list[str] = [""]
        if errors_section:
            out.append(" ERRORS ".center(80, "="))
            for sec in errors_section:
                out += sec
        if failures:
            out.append(" FAILURES ".center(80, "="))
            for spec, _w, _m, tb in failures:
                out.append(f" test_{spec.name} ".center(80, "_"))
                out += tb.splitlines()
        if short:
            out.append(" short test summary info ".center(80, "="))
            out += short
        dur_total = t - t0
        parts = []
        if counts["failed"]:
            parts.append(f"{counts['failed']} failed")
        if counts["passed"]:
            parts.append(f"{counts['passed']} passed")
        n_errors = counts["error"] + n_err
        if n_errors:
            parts.append(f"{n_errors} error" + ("s" if n_errors > 1 else ""))
        out.append(f" {', '.join(parts)} in {dur_total:.2f}s ".center(80, "="))
        self.t = log.many(t + 0.001, "out", out, 0.00001)
        code = 0 if not (counts["failed"] or n_errors) else 1
        status = PhaseStatus.OK if code == 0 else PhaseStatus.FAILED
        self.phase(Phase.TESTS, status, t0, self.t - t0, code,
                   "all passed" if code == 0 else "some tests failed")
        return cases, n_err, code, status

    def _tests_hang(self, log: Log, t0: float, specs: list[TestSpec]
                    ) -> tuple[list[TestCase], int, int | None, PhaseStatus]:
        t = self.t
        k = self.rng.randint(0, max(0, len(specs) // 2))
        for i, spec in enumerate(specs[:k]):
            t += self.rng.uniform(0.005, 0.05)
            pct = f"[{round(100 * (i + 1) / len(specs)):3d}%]"
            log.lines.append(f"{iso(t)}\tout\t{(spec.id + ' PASSED').ljust(79 - len(pct))} {pct}")
        if self.rng.random() < 0.8:
            self.t = t0 + TEST_TIMEOUT + self.rng.uniform(0.1, 0.5)
            log.add(self.t, "meta", f"timed out after {TEST_TIMEOUT}s")
            self.phase(Phase.TESTS, PhaseStatus.TIMEOUT, t0, self.t - t0, None,
                       f"test run timed out after {TEST_TIMEOUT}s")
            return [], 0, None, PhaseStatus.TIMEOUT
        t += 0.2
        lines = ["INTERNALERROR> Traceback (most recent call last):",
                 f"INTERNALERROR>   File \"{self.site}/_pytest/main.py\", line 283, in "
                 "wrap_session",
                 "INTERNALERROR>     session.exitstatus = doit(config, session) or 0",
                 f"INTERNALERROR>   File \"{self.site}/_pytest/junitxml.py\", line 650, in "
                 "pytest_sessionfinish",
                 "INTERNALERROR>     dirname = os.path.dirname(os.path.abspath(self.logfile))",
                 "INTERNALERROR> OSError: [Errno 28] No space left on device"]
        self.t = log.many(t, "out", lines, 0.0001)
        self.phase(Phase.TESTS, PhaseStatus.FAILED, t0, self.t - t0, 3, "pytest internal error")
        return [], 0, 3, PhaseStatus.FAILED

    def _collection_tb(self, rel: str) -> list[str]:
        r0 = self.task.resources[0]
        if self.task.broken_suite:
            stmt, err = "import jsonschema", "E   ModuleNotFoundError: No module named 'jsonschema'"
        else:
            stmt = f"from models import {r0.cls}"
            err = (f"E   ImportError: cannot import name '{r0.cls}' from 'models' "
                   f"({self.repo_dir}/models.py)")
        return [f"ImportError while importing test module '{self.repo_dir}/{rel}'.",
                "Hint: make sure your test modules/packages have valid Python names.",
                "Traceback:", f"{PY_LIB}/importlib/__init__.py:126: in import_module",
                "    return _bootstrap._gcd_import(name[level:], package, level)",
                "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                f"{rel}:2: in <module>", f"    {stmt}", err]

    # -- outcome model -------------------------------------------------------------------------
    def _outcomes(self, specs: list[TestSpec], deployed: bool
                  ) -> list[tuple[str, str, str, float]]:
        """(outcome, message, traceback, duration) per test, in suite order."""
        rng = self.rng
        suite = self.sp.suite
        weak = min(0.9, (1.05 - self.run.skill) * (0.4 + self.task.difficulty))
        crash_at = None
        if deployed and suite == "fail" and rng.random() < 0.08:
            crash_at = rng.randint(len(specs) // 3, max(len(specs) // 3, len(specs) - 1))
        busy_port = self.sp.deploy == "start" and self.repo.variant == "portbusy"
        out: list[tuple[str, str, str, float]] = []
        for i, spec in enumerate(specs):
            self.t += rng.uniform(0.0005, 0.004)
            if crash_at is not None and i == crash_at:
                self._crash_mid_run()
            up = deployed and (crash_at is None or i < crash_at)
            if spec.kind == "defect":
                res = self._defect(spec)
            elif spec.kind == "model":
                if self.tr.model_mismatch:
                    msg = f"AttributeError: type object '{self.task.resources[0].cls}' has no " \
                          "attribute 'from_dict'"
                    tb = _frame(spec.file, spec.req_line, f"test_{spec.name}", spec.req_text)
                    res = ("failed", msg, "\n".join([*tb, f"E   {msg}"]),
                           rng.uniform(0.0002, 0.001))
                else:
                    res = ("passed", "", "", rng.uniform(0.0002, 0.001))
            elif busy_port:
                res = self._status_fail(spec, 404, "<html><body><h1>404 Not Found</h1>"
                                        "<hr><center>nginx/1.24.0</center></body></html>")
            elif not up:
                res = self._conn_error(spec)
            else:
                res = self._api_outcome(spec, suite, weak)
            self.t += res[3]
            out.append(res)
        if suite == "fail" and deployed and not any(o[0] != "passed" for o in out):
            api = [i for i, s in enumerate(specs) if s.kind == "api"]
            i = max(api, key=lambda k: specs[k].hardness)
            out[i] = self._random_failure(specs[i])
        return out

    def _crash_mid_run(self) -> None:
        log = self.logs[Phase.START]
        t = self.t + 0.01
        if self.tr.impl == "fastapi":
            lines = ["ERROR:    Exception in ASGI application",
                     "Traceback (most recent call last):",
                     f'  File "{self.svc_site}/anyio/_backends/_asyncio.py", line 851, in run',
                     "    result = context.run(func, *args)",
                     "MemoryError", "Killed"]
        else:
            lines = ["Fatal Python error: Segmentation fault", "",
                     "Current thread 0x00007f3a1c9fe700 (most recent call first):",
                     f'  File "{self.repo_dir}/models.py", line 60 in create', "Killed"]
        log.many(t, "err", lines, 0.0001)

    def _api_outcome(self, spec: TestSpec, suite: str, weak: float
                     ) -> tuple[str, str, str, float]:
        tr = self.tr
        e = spec.endpoint
        assert e is not None
        fast = self.rng.uniform(0.002, 0.03)
        helper_ok = True
        r = e.resource
        if spec.helper_call_line and r is not None:
            create_key = f"POST:/{r.plural}"
            helper_ok = create_key not in tr.missing and not tr.prefix
        if spec.template != "health" and tr.prefix:
            return self._missing_route(spec, via_helper=bool(spec.helper_call_line))
        if not helper_ok:
            return self._missing_route(spec, via_helper=True)
        if e.key in tr.missing:
            return self._missing_route(spec, via_helper=False)
        if tr.impl == "fastapi" and not tr.conforming:
            if spec.template in ("create_missing", "create_invalid", "update_invalid"):
                return self._status_fail(spec, 422, self._detail_422(spec))
            if spec.template.endswith("_unknown") and spec.body_line:
                self._access(self.t, spec.method, spec.url_path, 404)
                return self._body_fail(spec, f"assert 'error' in {{'detail': "
                                       f"'{r.singular if r else 'object'} not found'}}")
        if suite == "pass":
            self._access(self.t, spec.method, spec.url_path, spec.expect)
            return "passed", "", "", fast
        p = min(0.95, weak * (0.3 + 1.4 * spec.hardness))
        if self.rng.random() < p:
            return self._random_failure(spec)
        self._access(self.t, spec.method, spec.url_path, spec.expect)
        return "passed", "", "", fast

    def _random_failure(self, spec: TestSpec) -> tuple[str, str, str, float]:
        rng = self.rng
        tpl = spec.template
        e = spec.endpoint
        r = e.resource if e else None
        if rng.random() < 0.03:
            return self._read_timeout(spec)
        if tpl == "health":
            return self._body_fail(spec, "AssertionError: assert {'status': 'healthy'} == "
                                   "{'status': 'ok'}\n  \n  Differing items:\n"
                                   "  {'status': 'healthy'} != {'status': 'ok'}\n  "
                                   "Use -v to get more diff")
        if tpl == "stats":
            return self._body_fail(spec, "assert 'count' in {'items': 3, 'total': 3}")
        choice = rng.random()
        if choice < 0.18:
            self._server_error(self.t - 0.001, spec, spec.method, spec.url_path)
            return self._status_fail(spec, 500, '{"error":"internal server error"}\n'
                                     if self.tr.impl == "flask" else "Internal Server Error")
        if tpl == "create":
            if choice < 0.55:
                return self._status_fail(spec, 200, self._json_obj(r))
            if choice < 0.85:
                return self._body_fail(spec, "KeyError: 'id'", key_error=True)
            return self._json_decode(spec)
        if tpl in ("create_missing", "create_invalid", "update_invalid"):
            return self._status_fail(spec, 201 if tpl != "update_invalid" else 200,
                                     self._json_obj(r))
        if tpl.endswith("_unknown") or tpl == "delete_then_get":
            return self._status_fail(spec, 200 if tpl != "delete_unknown" else 204, "")
        if tpl == "list":
            return self._body_fail(spec, "AssertionError: assert False\n +  where False = "
                                   "isinstance({'items': [{'id': 1}], 'total': 1}, list)\n"
                                   " +    where {'items': [{'id': 1}], 'total': 1} = "
                                   "<bound method Response.json of <Response [200]>>()")
        if tpl == "list_contains":
            n = rng.randint(3, 20)
            return self._body_fail(spec, f"assert {n + rng.randint(1, 9)} in "
                                   f"[{', '.join(str(k) for k in range(1, min(n, 10) + 1))}]")
        if tpl == "delete":
            return self._status_fail(spec, 200, self._json_obj(r))
        if tpl in ("get", "action"):
            if choice < 0.6:
                return self._status_fail(spec, 404, '{"error":"not found"}\n')
            return self._body_fail(spec, f"KeyError: '{spec.body_key or 'id'}'", key_error=True)
        if tpl == "update":
            fld = spec.body_key or "value"
            return self._body_fail(spec, f"AssertionError: assert 3 == 7\n +  where 3 = "
                                   f"<built-in method get of dict object>('{fld}')"
                                   if choice < 0.5 else f"KeyError: '{fld}'",
                                   key_error=choice >= 0.5)
        return self._status_fail(spec, 404, '{"error":"not found"}\n')

    # -- failure shapes (python) ---------------------------------------------------------------
    def _test_frames(self, spec: TestSpec, via_helper: bool, helper_line: int,
                     helper_text: str) -> list[str]:
        func = f"test_{spec.name}"
        if via_helper and spec.helper_call_line:
            r = spec.endpoint.resource if spec.endpoint else self.task.resources[0]
            return (_frame(spec.file, spec.helper_call_line, func, spec.helper_call_text)
                    + _frame(spec.file, helper_line, f"_create_{r.singular}", helper_text))
        return []

    def _status_fail(self, spec: TestSpec, got: int, text: str, via_helper: bool = False
                     ) -> tuple[str, str, str, float]:
        method, path = spec.method, spec.url_path
        if via_helper:
            r = spec.endpoint.resource if spec.endpoint else self.task.resources[0]
            method, path = "POST", f"/{r.plural}"
        self._access(self.t, method, path, got)
        if via_helper:
            frames = self._test_frames(spec, True, spec.helper_status_line,
                                       "assert resp.status_code == 201, resp.text")
            expect, has_msg = 201, True
        else:
            frames = _frame(spec.file, spec.status_line, f"test_{spec.name}", spec.status_text)
            expect, has_msg = spec.expect, spec.status_has_msg
        cmp = [f"assert {got} == {expect}", f" +  where {got} = <Response [{got}]>.status_code"]
        if has_msg:
            msg_lines = [f"AssertionError: {text.splitlines()[0] if text else ''}",
                         *text.splitlines()[1:], *cmp]
        else:
            msg_lines = cmp
        tb = frames + [f"E   {m}" for m in msg_lines]
        return "failed", "\n".join(msg_lines), "\n".join(tb), self.rng.uniform(0.003, 0.04)

    def _body_fail(self, spec: TestSpec, message: str, key_error: bool = False
                   ) -> tuple[str, str, str, float]:
        self._access(self.t, spec.method, spec.url_path, spec.expect)
        line, text = (spec.body_line, spec.body_text) if spec.body_line else \
            (spec.status_line, spec.status_text)
        frames = _frame(spec.file, line, f"test_{spec.name}", text, carets=not key_error)
        if key_error:
            frames.append("    " + " " * text.find("[") + "^" * max(3, len(spec.body_key) + 4))
        tb = frames + [f"E   {m}" for m in message.splitlines()]
        return "failed", message, "\n".join(tb), self.rng.uniform(0.003, 0.04)

    def _missing_route(self, spec: TestSpec, via_helper: bool) -> tuple[str, str, str, float]:
        e = spec.endpoint
        path_exists = False
        if e is not None and not via_helper and not self.tr.prefix:
            path_exists = any(o.path == e.path and o.key != e.key and o.key not in self.tr.missing
                              for o in self.task.endpoints)
        code = 405 if path_exists else 404
        if self.tr.impl == "flask":
            body = (FLASK_405_HTML if code == 405 else FLASK_404_HTML) if self.tr.html_404 else \
                ('{"error":"method not allowed"}\n' if code == 405 else '{"error":"not found"}\n')
        else:
            reason = "Method Not Allowed" if code == 405 else "Not Found"
            body = f'{{"detail":"{reason}"}}' if not self.tr.conforming else \
                f'{{"error":"{reason}"}}'
        if not via_helper and code == spec.expect:  # e.g. "unknown id is 404" on a missing route
            if not spec.body_line or '"error"' in body:
                self._access(self.t, spec.method, spec.url_path, code)
                return "passed", "", "", self.rng.uniform(0.002, 0.02)
            if body.startswith("<"):
                return self._json_decode(spec, code, spec.body_line, spec.body_text)
            return self._body_fail(spec, "assert 'error' in {'detail': 'Not Found'}")
        return self._status_fail(spec, code, body, via_helper=via_helper)

    def _conn_error(self, spec: TestSpec, port: int | None = None) -> tuple[str, str, str, float]:
        port = port or self.port
        via_helper = bool(spec.helper_call_line) and spec.kind != "defect"
        if via_helper:
            r = spec.endpoint.resource if spec.endpoint else self.task.resources[0]
            method, url = "POST", f"/{r.plural}"
            frames = self._test_frames(spec, True, spec.helper_req_line, spec.helper_req_text)
        else:
            method, url = spec.method, spec.url_path
            frames = _frame(spec.file, spec.req_line, f"test_{spec.name}", spec.req_text)
        site = self.site
        conn = (f"HTTPConnection(host='127.0.0.1', port={port}): Failed to establish a new "
                "connection: [Errno 111] Connection refused")
        pool = (f"HTTPConnectionPool(host='127.0.0.1', port={port}): Max retries exceeded with "
                f"url: {url} (Caused by NewConnectionError(\"{conn}\"))")
        lineno, fn, text = API_FUNCS[method]
        tb = [f"{site}/urllib3/connection.py:198: in _new_conn",
              "    sock = connection.create_connection(",
              f"{site}/urllib3/util/connection.py:85: in create_connection", "    raise err",
              f"{site}/urllib3/util/connection.py:73: in create_connection",
              "    sock.connect(sa)", "E   ConnectionRefusedError: [Errno 111] Connection refused",
              "", "The above exception was the direct cause of the following exception:",
              f"{site}/urllib3/connectionpool.py:787: in urlopen",
              "    response = self._make_request(",
              f"{site}/urllib3/connectionpool.py:493: in _make_request", "    conn.request(",
              f"{site}/urllib3/connection.py:445: in request", "    self.endheaders()",
              f"{PY_LIB}/http/client.py:1289: in endheaders",
              "    self._send_output(message_body, encode_chunked=encode_chunked)",
              f"{PY_LIB}/http/client.py:1048: in _send_output", "    self.send(msg)",
              f"{PY_LIB}/http/client.py:986: in send", "    self.connect()",
              f"{site}/urllib3/connection.py:276: in connect",
              "    self.sock = self._new_conn()", "                ^^^^^^^^^^^^^^^^",
              f"{site}/urllib3/connection.py:213: in _new_conn", "    raise NewConnectionError(",
              f"E   urllib3.exceptions.NewConnectionError: {conn}", "",
              "The above exception was the direct cause of the following exception:",
              f"{site}/requests/adapters.py:667: in send", "    resp = conn.urlopen(",
              f"{site}/urllib3/connectionpool.py:841: in urlopen",
              "    retries = retries.increment(",
              f"{site}/urllib3/util/retry.py:519: in increment",
              "    raise MaxRetryError(_pool, url, reason) from reason  # type: ignore[arg-type]",
              "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
              f"E   urllib3.exceptions.MaxRetryError: {pool}", "",
              "During handling of the above exception, another exception occurred:",
              *frames,
              f"{site}/requests/api.py:{lineno}: in {fn}", f"    {text}",
              f"{site}/requests/api.py:59: in request",
              "    return session.request(method=method, url=url, **kwargs)",
              f"{site}/requests/sessions.py:589: in request",
              "    resp = self.send(prep, **send_kwargs)",
              f"{site}/requests/sessions.py:703: in send",
              "    r = adapter.send(request, **kwargs)",
              f"{site}/requests/adapters.py:700: in send",
              "    raise ConnectionError(e, request=request)",
              f"E   requests.exceptions.ConnectionError: {pool}"]
        return ("failed", f"requests.exceptions.ConnectionError: {pool}", "\n".join(tb),
                self.rng.uniform(0.001, 0.006))

    def _read_timeout(self, spec: TestSpec) -> tuple[str, str, str, float]:
        site = self.site
        msg = (f"requests.exceptions.ReadTimeout: HTTPConnectionPool(host='127.0.0.1', "
               f"port={self.port}): Read timed out. (read timeout=5)")
        frames = _frame(spec.file, spec.req_line, f"test_{spec.name}", spec.req_text)
        lineno, fn, text = API_FUNCS[spec.method]
        tb = [f"{site}/urllib3/connectionpool.py:536: in _make_request",
              "    response = conn.getresponse()",
              f"{PY_LIB}/socket.py:706: in readinto", "    return self._sock.recv_into(b)",
              "E   TimeoutError: timed out", "",
              "The above exception was the direct cause of the following exception:",
              f"{site}/urllib3/connectionpool.py:367: in _raise_timeout",
              "    raise ReadTimeoutError(",
              f"E   urllib3.exceptions.ReadTimeoutError: HTTPConnectionPool(host='127.0.0.1', "
              f"port={self.port}): Read timed out. (read timeout=5)", "",
              "During handling of the above exception, another exception occurred:", *frames,
              f"{site}/requests/api.py:{lineno}: in {fn}", f"    {text}",
              f"{site}/requests/adapters.py:713: in send",
              "    raise ReadTimeout(e, request=request)", f"E   {msg}"]
        return "failed", msg, "\n".join(tb), 5.0 + self.rng.uniform(0.001, 0.02)

    def _json_decode(self, spec: TestSpec, status: int = 201, line: int = 0, text: str = ""
                     ) -> tuple[str, str, str, float]:
        self._access(self.t, spec.method, spec.url_path, status)
        if not line:
            line, text = spec.body_line - 1, "body = resp.json()"
        site = self.site
        msg = "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
        tb = [f"{site}/requests/models.py:974: in json",
              "    return complexjson.loads(self.text, **kwargs)",
              "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
              f"{PY_LIB}/json/__init__.py:346: in loads", "    return _default_decoder.decode(s)",
              f"{PY_LIB}/json/decoder.py:337: in decode",
              "    obj, end = self.raw_decode(s, idx=_w(s, 0).end())",
              f"{PY_LIB}/json/decoder.py:355: in raw_decode",
              '    raise JSONDecodeError("Expecting value", s, err.value) from None',
              "E   json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "",
              "During handling of the above exception, another exception occurred:",
              f"{spec.file}:{line}: in test_{spec.name}", f"    {text}",
              f"{site}/requests/models.py:978: in json",
              "    raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)", f"E   {msg}"]
        return "failed", msg, "\n".join(tb), self.rng.uniform(0.003, 0.03)

    def _defect(self, spec: TestSpec) -> tuple[str, str, str, float]:
        kind = self.task.defect
        if kind == "wrong_port":
            return self._conn_error(spec, port=8080)
        if kind == "missing_fixture":
            path = f"{self.repo_dir}/{spec.file}"
            tb = [f"file {path}, line {spec.line}",
                  f"  def test_{spec.name}(base_url, admin_token):",
                  "E       fixture 'admin_token' not found",
                  ">       available fixtures: base_url, cache, capfd, capfdbinary, caplog, "
                  "capsys, capsysbinary, doctest_namespace, monkeypatch, pytestconfig, "
                  "record_property, record_testsuite_property, record_xml_attribute, recwarn, "
                  "tmp_path, tmp_path_factory, tmpdir, tmpdir_factory",
                  ">       use 'pytest --fixtures [testpath]' for help on them.", "",
                  f"{path}:{spec.line}"]
            return "error", "fixture 'admin_token' not found", "\n".join(tb), 0.0
        msg = "ModuleNotFoundError: No module named 'jwt'"
        tb = [*_frame(spec.file, spec.req_line, f"test_{spec.name}", spec.req_text), f"E   {msg}"]
        return "failed", msg, "\n".join(tb), self.rng.uniform(0.0005, 0.002)

    def _json_obj(self, r: object) -> str:
        fields = getattr(r, "fields", ())
        parts = ['"id":1']
        for f in fields:
            value = f.json_value()
            parts.append(f'"{f.name}":' + (value.replace(" ", "_") if f.type == "str" else value))
        return "{" + ",".join(parts) + "}\n"

    def _detail_422(self, spec: TestSpec) -> str:
        r = spec.endpoint.resource if spec.endpoint else None
        fld = r.fields[0].name if r else "value"
        return ('{"detail":[{"type":"missing","loc":["body","' + fld + '"],"msg":"Field '
                'required","input":{}}]}')

    # -- java ----------------------------------------------------------------------------------
    def _tests_java(self, deployed: bool
                    ) -> tuple[list[TestCase], int, int | None, PhaseStatus]:
        log = self.logs[Phase.TESTS]
        t0 = self.tick(0.001, 0.01)
        log.add(t0, "meta", f"$ mvn -q -B test -Dsurefire.printSummary=true   (cwd: "
                f"{self.repo_dir}, API_BASE_URL=http://127.0.0.1:{self.port})")
        pkg = self.task.package
        if self.sp.suite == "notrun":
            if self.rng.random() < 0.5:
                r0 = self.task.resources[0]
                lines = ["[ERROR] COMPILATION ERROR : ",
                         f"[ERROR] {self.repo_dir}/src/test/java/com/example/{pkg}/{r0.cls}ApiTest"
                         ".java:[3,1] package io.restassured does not exist",
                         "[ERROR] Failed to execute goal org.apache.maven.plugins:"
                         "maven-compiler-plugin:3.11.0:testCompile (default-testCompile) on "
                         f"project {self.task.name}: Compilation failure"]
                self.t = log.many(self.tick(4, 12), "out", lines, 0.001)
                self.phase(Phase.TESTS, PhaseStatus.FAILED, t0, self.t - t0, 1,
                           "test compilation failed")
                return [], 0, 1, PhaseStatus.FAILED
            self.t = t0 + TEST_TIMEOUT + self.rng.uniform(0.1, 0.5)
            log.add(self.t, "meta", f"timed out after {TEST_TIMEOUT}s")
            self.phase(Phase.TESTS, PhaseStatus.TIMEOUT, t0, self.t - t0, None,
                       f"test run timed out after {TEST_TIMEOUT}s")
            return [], 0, None, PhaseStatus.TIMEOUT
        t = self.tick(3, 8)
        rule = "[INFO] " + "-" * 55
        t = log.many(t, "out", ["[INFO] ", rule, "[INFO]  T E S T S", rule])
        specs = self.task.tests
        cases: list[TestCase] = []
        weak = min(0.9, (1.05 - self.run.skill) * (0.4 + self.task.difficulty))
        by_class: dict[str, list[TestCase]] = {}
        summary: list[str] = []
        for spec in specs:
            e = spec.endpoint
            outcome, msg, tb = "passed", "", ""
            at = (f"\tat com.example.{pkg}.{spec.java_class}.{spec.java_method}("
                  f"{spec.java_class}.java:{spec.status_line})")
            if not deployed:
                outcome, msg = "error", "Connection refused"
                tb = ("java.net.ConnectException: Connection refused\n"
                      "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)\n"
                      "\tat java.base/sun.nio.ch.Net.pollConnectNow(Net.java:682)\n"
                      "\tat java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect("
                      "NioSocketImpl.java:542)\n"
                      "\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:592)\n"
                      "\tat org.apache.http.impl.conn.DefaultHttpClientConnectionOperator.connect"
                      "(DefaultHttpClientConnectionOperator.java:142)\n"
                      "\tat io.restassured.internal.RequestSpecificationImpl."
                      "applyPathParamsAndSendRequest"
                      "(RequestSpecificationImpl.groovy:1711)\n" + at.replace(
                          f":{spec.status_line})", f":{spec.req_line})"))
            else:
                got = None
                if e is not None and (e.key in self.tr.missing or
                                      (self.tr.prefix and spec.template != "health")):
                    got = 404
                elif self.sp.suite == "fail" and self.rng.random() < min(
                        0.95, weak * (0.3 + 1.4 * spec.hardness)):
                    got = self.rng.choice((404, 500, 400, 200 if spec.expect != 200 else 500))
                if got is not None:
                    outcome = "failed"
                    msg = (f"1 expectation failed.\nExpected status code <{spec.expect}> "
                           f"but was <{got}>.\n")
                    tb = ("java.lang.AssertionError: " + msg + "\n"
                          "\tat java.base/jdk.internal.reflect.DirectConstructorHandleAccessor."
                          "newInstance(DirectConstructorHandleAccessor.java:62)\n"
                          "\tat org.codehaus.groovy.reflection.CachedConstructor.invoke"
                          "(CachedConstructor.java:73)\n"
                          "\tat io.restassured.internal.ResponseSpecificationImpl$"
                          "HamcrestAssertionClosure."
                          "validate(ResponseSpecificationImpl.groovy:512)\n"
                          "\tat io.restassured.internal.ValidatableResponseOptionsImpl.statusCode"
                          "(ValidatableResponseOptionsImpl.java:89)\n" + at)
            dur = self.rng.uniform(0.004, 0.2)
            c = TestCase(id=spec.id, outcome=Outcome(outcome), duration_seconds=round(dur, 3),
                         message=msg, traceback=tb, file=spec.file, line=spec.line)
            cases.append(c)
            by_class.setdefault(spec.java_class, []).append(c)
            if outcome != "passed":
                summary.append(f"[ERROR]   {spec.java_class}.{spec.java_method}:{spec.status_line} "
                               f"{msg.splitlines()[0]}")
        if self.sp.suite == "fail" and deployed and all(c.outcome is Outcome.PASSED for c in cases):
            i = max(range(len(specs)), key=lambda k: specs[k].hardness)
            spec = specs[i]
            msg = f"1 expectation failed.\nExpected status code <{spec.expect}> but was <500>.\n"
            cases[i] = TestCase(id=spec.id, outcome=Outcome.FAILED,
                                duration_seconds=cases[i].duration_seconds, message=msg,
                                traceback="java.lang.AssertionError: " + msg,
                                file=spec.file, line=spec.line)
            by_class[spec.java_class] = [cases[j] for j, s in enumerate(specs)
                                         if s.java_class == spec.java_class]
            summary.append(f"[ERROR]   {spec.java_class}.{spec.java_method}:{spec.status_line} "
                           f"{msg.splitlines()[0]}")
        n_fail = sum(c.outcome is Outcome.FAILED for c in cases)
        n_err = sum(c.outcome is Outcome.ERROR for c in cases)
        for cls, cs in by_class.items():
            f = sum(c.outcome is Outcome.FAILED for c in cs)
            er = sum(c.outcome is Outcome.ERROR for c in cs)
            elapsed = sum(c.duration_seconds or 0 for c in cs)
            lines = [f"[INFO] Running com.example.{pkg}.{cls}"]
            tag = "[ERROR]" if f or er else "[INFO]"
            lines.append(f"{tag} Tests run: {len(cs)}, Failures: {f}, Errors: {er}, Skipped: 0, "
                         f"Time elapsed: {elapsed:.3f} s" + (" <<< FAILURE!" if f or er else "")
                         + f" -- in com.example.{pkg}.{cls}")
            for c in cs:
                if c.outcome is not Outcome.PASSED:
                    name = c.id.rsplit("::", 1)[-1]
                    kind = "FAILURE" if c.outcome is Outcome.FAILED else "ERROR"
                    lines.append(f"[ERROR] com.example.{pkg}.{cls}.{name} -- Time elapsed: "
                                 f"{c.duration_seconds:.3f} s <<< {kind}!")
                    lines += c.traceback.splitlines()[:8]
                    lines.append("")
            t = log.many(t + elapsed, "out", lines, 0.0005)
        tail = ["[INFO] ", "[INFO] Results:", "[INFO] "]
        if summary:
            tail += ["[ERROR] Failures: " if n_fail else "[ERROR] Errors: ", *summary, "[INFO] "]
        tail.append(f"[{'ERROR' if n_fail or n_err else 'INFO'}] Tests run: {len(cases)}, "
                    f"Failures: {n_fail}, Errors: {n_err}, Skipped: 0")
        tail.append("[INFO] BUILD " + ("FAILURE" if n_fail or n_err else "SUCCESS"))
        self.t = log.many(t + 0.2, "out", tail, 0.0005)
        code = 1 if n_fail or n_err else 0
        status = PhaseStatus.OK if code == 0 else PhaseStatus.FAILED
        self.phase(Phase.TESTS, status, t0, self.t - t0, code,
                   "all passed" if code == 0 else "some tests failed")
        return cases, 0, code, status


_DEPS = {
    "flask": (("Werkzeug", "3.0.3"), ("Jinja2", "3.1.4"), ("itsdangerous", "2.2.0"),
              ("click", "8.1.7"), ("blinker", "1.8.2"), ("MarkupSafe", "2.1.5")),
    "fastapi": (("starlette", "0.36.3"), ("pydantic-core", "2.18.2"), ("anyio", "4.4.0"),
                ("typing-extensions", "4.12.2"), ("annotated-types", "0.7.0"), ("h11", "0.14.0"),
                ("click", "8.1.7"), ("sniffio", "1.3.1"), ("idna", "3.7")),
}
