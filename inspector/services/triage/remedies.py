"""Causal re-runs: a suspected cause's mechanical remedy tried on a fresh deployment.

:func:`confirm` deploys a **fresh** copy of the sample (never a warm deployment of the pool,
which it neither reuses nor stops), applies the remedy, runs the tests that decide and compares
them with the recorded outcomes (:mod:`.remedy_outcome`). The recorded run is never changed:
the repo and the task are copied when the remedy changes them, and the re-run's logs go to a
folder of their own (below). Remedies, Docker and local alike:

* ``install_test_package``: the package goes into the golden test runner's environment only
  (Docker: ``/opt/runner`` in a runner image of its own, from wheels only, by the install
  container — the one step with a network, the configured index; local: the runner's
  virtualenv), never the repo's; the files that did not collect (else the suite) are run;
* ``install_repo_package``: the package is appended to the repo copy's ``requirements.txt``
  (the stock default bundle plus the package when the repo has none), which is installed as
  usual (Docker: unprivileged install container, then a sandbox with no network at all);
  the suite is run;
* ``add_task_file``: a file of the task folder the stock harness does not copy is placed where
  a stock run would have needed it: a data file (``README.md``) at its path in the repo copy
  (linked beside the staged suite like the repo's own data files), a root pytest
  configuration file (``pytest.ini``, ``conftest.py``…) in a copy of the golden suite (pytest
  then takes ``tests/`` as its rootdir; ids stay repo-relative); the recorded failures (else
  the suite) are run;
* ``run_alone``: the test (``Remedy.target``, or ``Remedy.tests``) alone on a fresh
  deployment;
* ``run_as_script`` is not supported (:class:`UnsupportedRemedy`): how a README means a
  script-style suite to be run is not mechanical enough to try blindly.

Package names must be one plain requirement (``pandas``, ``Babel>=2.12``) from the configured
index, whatever ``allow_any_package_source`` says.

**Logs** are kept like re-run logs (:mod:`inspector.services.logs.rerun_logs`): one folder per
re-run, ``<log root>/<task>/<sample>/<stamp>-<backend>`` (``logs/install.log``, ``start.log``,
``health.log``, ``tests-1.log``, and ``remedy.log``: what was applied and the verdict), the
newest ``pool.keep_reruns`` of a sample kept, a folder in use never pruned. The log root is
``<run folder>/remedies`` when the sample comes from a run folder that can be written, else
``<pool work root>/remedies/<run id>``; :attr:`Confirmation.log` is relative to the run folder
when it is inside it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from inspector.model import Phase, TestCase
from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    RUN_ALONE,
    Confirmation,
    Remedy,
    TestSuggestion,
)
from inspector.model.repo.requirement_sources import plain_requirement_problem
from inspector.services.deploy.backend import Backend, Limits, SampleJob
from inspector.services.deploy.local import COPY_IGNORE, STOCK_BUNDLE
from inspector.services.deploy.steps import DeployOutcome, deploy
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.host.ports import PortLock
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.logs.rerun_logs import InUse, prune_deployments
from inspector.services.rerun.runner import LineSink, UnknownTest, recorded_cases, resolve_tests
from inspector.services.suite.golden import CONFIG_FILES
from inspector.services.triage.remedy_outcome import RemedyRun, is_collection_error, judge

__all__ = ["DEFAULT_TIMEOUT", "SUPPORTED", "RemedyError", "UnsupportedRemedy", "confirm",
           "confirm_suggestions", "log_root_for"]

DEFAULT_TIMEOUT = 1200.0
"""Seconds one causal re-run may take in all (install, start, tests)."""
SUPPORTED = (INSTALL_TEST_PACKAGE, INSTALL_REPO_PACKAGE, ADD_TASK_FILE, RUN_ALONE)
REMEDY_LOG = "remedy.log"
_CONFIG_NAMES = frozenset({name for name, _ in CONFIG_FILES} | {"conftest.py"})

Say = Callable[[str], None]


class RemedyError(ValueError):
    """The remedy cannot be tried on this sample (bad package name, missing task file, unknown
    test); the message names what is wrong. Nothing was deployed."""


class UnsupportedRemedy(RemedyError):
    """A remedy kind causal re-runs do not try (``run_as_script``)."""


@dataclass
class _Plan:
    """What to deploy and run: the (copied) target, the runner's extra packages, the tests."""

    target: Target
    test_ids: list[str] | None  # None: the whole suite
    test_packages: tuple[str, ...] = ()
    applied: tuple[str, ...] = ()  # what was changed, for remedy.log


def confirm(remedy: Remedy, target: Target, pool: DeploymentPool, backend: str, *,
            on_line: LineSink | None = None, say: Say | None = None,
            cancel: threading.Event | None = None, timeout: float = DEFAULT_TIMEOUT,
            log_root: Path | None = None) -> Confirmation:
    """Try ``remedy`` on a fresh deployment of ``target`` and say what it showed.

    ``pool`` lends its backends (``docker`` or ``local``, as configured: local only when the
    user allowed it), limits and ``keep_reruns``; nothing is taken from or put in its warm
    deployments. ``on_line(stream, text)`` sees every log line (install, start, tests) as it is
    written, ``say`` the steps. ``cancel`` (or ``timeout`` seconds in all) stops the re-run and
    tears it down; the Confirmation then says so (``supports`` None). ``log_root``: see the
    module docstring.

    Raises :class:`RemedyError` when the remedy cannot be tried (:class:`UnsupportedRemedy`
    for ``run_as_script``) and :class:`~inspector.services.deploy.warm.DeployError` when the
    backend is not available; never changes the recorded run.
    """
    if remedy.kind not in SUPPORTED:
        raise UnsupportedRemedy(f"{target.key}: {remedy.describe()!r} is not tried by a causal "
                                f"re-run (supported: {', '.join(SUPPORTED)})")
    say = say or (lambda m: None)
    cancel = cancel or threading.Event()
    scratch = Path(tempfile.mkdtemp(prefix="gi-remedy-"))
    try:
        plan = _prepare(remedy, target, scratch)
        backend_obj = pool.backend(backend)  # DeployError when unavailable
        root = log_root or log_root_for(target, pool)
        sample_dir = root / _safe(target.task.name) / str(target.sample)
        prune_deployments(sample_dir, pool.keep_reruns - 1)
        folder = sample_dir / f"{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}-{backend}"
        folder.mkdir(parents=True, exist_ok=True)
        in_use = InUse(folder)
        try:
            return _confirm_in(remedy, target, plan, pool, backend_obj, backend, folder,
                               on_line, say, cancel, timeout)
        finally:
            in_use.release()
    finally:
        _remove(scratch)


def confirm_suggestions(suggestions: Sequence[TestSuggestion],
                        targets: Mapping[str, Target] | Callable[[str], Target | None],
                        pool: DeploymentPool, backend: str, *,
                        on_line: LineSink | None = None, say: Say | None = None,
                        cancel: threading.Event | None = None,
                        timeout: float = DEFAULT_TIMEOUT, log_root: Path | None = None
                        ) -> list[TestSuggestion]:
    """Copies of ``suggestions`` with :attr:`~TestSuggestion.confirmation` set for those with
    a supported :attr:`~TestSuggestion.remedy` (others unchanged). ``targets`` gives the
    :class:`Target` of a sample id (``run/task/index``). One re-run per distinct (sample,
    remedy): suggestions sharing it share its Confirmation. A remedy that cannot be tried gets
    a Confirmation saying why (``supports`` None); a sample with no target, an unsupported
    kind or a cancelled re-run gets none. The other arguments are :func:`confirm`'s
    (``timeout`` applies to each re-run)."""
    cancel = cancel or threading.Event()
    lookup = targets.get if isinstance(targets, Mapping) else targets
    done: dict[tuple[str, Remedy], Confirmation | None] = {}
    out: list[TestSuggestion] = []
    for s in suggestions:
        remedy = s.remedy
        if remedy is None or remedy.kind not in SUPPORTED or cancel.is_set():
            out.append(s)
            continue
        key = (s.item.sample, remedy)
        if key not in done:
            target = lookup(s.item.sample)
            done[key] = None if target is None else _confirm_or_say(
                remedy, target, pool, backend, on_line, say, cancel, timeout, log_root)
        found = done[key]
        out.append(replace(s, confirmation=found) if found is not None else s)
    return out


def _confirm_or_say(remedy: Remedy, target: Target, pool: DeploymentPool, backend: str,
                    on_line: LineSink | None, say: Say | None, cancel: threading.Event,
                    timeout: float, log_root: Path | None) -> Confirmation | None:
    try:
        found = confirm(remedy, target, pool, backend, on_line=on_line, say=say, cancel=cancel,
                        timeout=timeout, log_root=log_root)
    except RemedyError as exc:
        return Confirmation(remedy.describe(), None, f"not tried: {exc}", backend=backend)
    return None if cancel.is_set() else found


def log_root_for(target: Target, pool: DeploymentPool) -> Path:
    """Where the remedy folders of ``target`` go: ``<run folder>/remedies`` when the sample
    comes from a run folder this process can write, else ``<pool work root>/remedies/<run>``."""
    run = _run_folder(target)
    if run is not None and os.access(run, os.W_OK | os.X_OK):
        return run / "remedies"
    return pool.work_root / "remedies" / _safe(target.run_id)


def _run_folder(target: Target) -> Path | None:
    """The run folder holding the recorded ``samples/<task>/<n>/result.json``, if any."""
    src = target.recorded.source_file if target.recorded else None
    if src is None or src.name != "result.json" or len(src.parents) < 4:
        return None
    run = src.parents[3]
    return run if (run / "run.json").is_file() and src.parents[2].name == "samples" else None


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:120] or "_"


# -- preparing ------------------------------------------------------------------------------

def _prepare(remedy: Remedy, target: Target, scratch: Path) -> _Plan:
    """The plan for ``remedy``: copies made under ``scratch``; RemedyError when it cannot be
    tried."""
    recorded = recorded_cases(target)
    if remedy.kind != RUN_ALONE and target.task.language != "python":
        raise RemedyError(f"{target.key}: {remedy.describe()!r} applies to Python tasks only "
                          f"(this one is {target.task.language})")
    try:
        chosen = resolve_tests(target, list(remedy.tests)) if remedy.tests else None
    except UnknownTest as exc:
        raise RemedyError(str(exc)) from None
    if remedy.kind == RUN_ALONE:
        if chosen is None:
            try:
                chosen = resolve_tests(target, [remedy.target])
            except UnknownTest as exc:
                raise RemedyError(str(exc)) from None
        return _Plan(target, chosen, applied=(f"run alone: {', '.join(chosen)}",))
    if remedy.kind == INSTALL_TEST_PACKAGE:
        _check_package(target, remedy.target)
        if chosen is None:
            files = sorted(c.id for c in recorded.values() if is_collection_error(c))
            chosen = files or None
        return _Plan(target, chosen, (remedy.target,),
                     (f"{remedy.target} goes into the test runner's environment only, not the "
                      "repo's",))
    if remedy.kind == INSTALL_REPO_PACKAGE:
        _check_package(target, remedy.target)
        repo = _copy_repo(target, scratch)
        note = _add_requirement(repo, remedy.target)
        return _Plan(replace(target, repo=repo), chosen, applied=(note,))
    return _add_task_file(remedy, target, scratch, chosen, recorded)


def _check_package(target: Target, package: str) -> None:
    problem = plain_requirement_problem([package])
    if problem:
        raise RemedyError(f"{target.key}: {problem}")


def _copy_repo(target: Target, scratch: Path) -> Path:
    """A copy of the generated repo (as the backends copy it: no .git, venvs, caches)."""
    dest = scratch / "repo"
    try:
        shutil.copytree(target.repo, dest, symlinks=True, ignore=COPY_IGNORE)
    except (OSError, shutil.Error) as exc:
        raise RemedyError(f"{target.key}: cannot copy the generated repo {target.repo}: "
                          f"{exc}") from None
    return dest


def _add_requirement(repo: Path, package: str) -> str:
    """Append ``package`` to the copy's requirements.txt (replaced by a regular file: a
    symlink is never written through); what was done."""
    req = repo / "requirements.txt"
    text = None
    if req.is_file():
        text = req.read_text(encoding="utf-8", errors="replace")
    if req.exists() or req.is_symlink():
        if req.is_dir() and not req.is_symlink():
            shutil.rmtree(req)
        else:
            req.unlink()
    if text is None:
        req.write_text("\n".join([*STOCK_BUNDLE, package]) + "\n", encoding="utf-8")
        return (f"the repo has no requirements.txt: the copy gets the stock default bundle "
                f"plus {package}")
    sep = "" if not text or text.endswith("\n") else "\n"
    req.write_text(f"{text}{sep}{package}\n", encoding="utf-8")
    return f"{package} appended to the copy's requirements.txt"


def _add_task_file(remedy: Remedy, target: Target, scratch: Path, chosen: list[str] | None,
                   recorded: dict[str, TestCase]) -> _Plan:
    task = target.task
    rel = Path(remedy.target)
    if task.root is None:
        raise RemedyError(f"{target.key}: the task has no folder to take {remedy.target} from")
    if rel.is_absolute() or ".." in rel.parts or not rel.parts or rel.parts[0] == "tests":
        raise RemedyError(f"{target.key}: {remedy.target!r} is not a file of the task folder "
                          "outside tests/ (the harness copies tests/ already)")
    src = task.root / rel
    if src.is_symlink() or not src.is_file():
        raise RemedyError(f"{target.key}: the task has no file {remedy.target} "
                          f"(looked at {src})")
    if chosen is None:
        fails = sorted(i for i, c in recorded.items() if c.outcome.is_failure)
        chosen = fails or None
    if len(rel.parts) == 1 and rel.name in _CONFIG_NAMES:
        if task.tests_dir is None:
            raise RemedyError(f"{target.key}: the task has no tests/ to configure")
        tests = scratch / "task" / "tests"
        shutil.copytree(task.tests_dir, tests, symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache"))
        dest = tests / rel.name
        if dest.exists():
            raise RemedyError(f"{target.key}: tests/{rel.name} exists already; the root "
                              f"{rel.name} cannot be staged beside it")
        shutil.copyfile(src, dest)
        new_task = replace(task, tests_dir=tests)
        return _Plan(replace(target, task=new_task), chosen, applied=(
            f"the task's {rel} staged with the golden suite (pytest's rootdir: tests/)",))
    repo = _copy_repo(target, scratch)
    dest = repo / rel
    for parent in list(reversed(dest.relative_to(repo).parents))[1:]:
        p = repo / parent
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            raise RemedyError(f"{target.key}: the repo's {parent} is not a folder; "
                              f"{rel} cannot be placed")
    dest.parent.mkdir(parents=True, exist_ok=True)
    had = dest.exists() or dest.is_symlink()
    if had:
        if dest.is_dir() and not dest.is_symlink():
            shutil.rmtree(dest)
        else:
            dest.unlink()
    shutil.copyfile(src, dest)
    return _Plan(replace(target, repo=repo), chosen, applied=(
        f"the task's {rel} placed at {rel} in the repo copy"
        + (" (replacing the repo's own)" if had else ""),))


# -- running --------------------------------------------------------------------------------

def _confirm_in(remedy: Remedy, target: Target, plan: _Plan, pool: DeploymentPool,
                backend_obj: Backend, backend: str, folder: Path, on_line: LineSink | None,
                say: Say, cancel: threading.Event, timeout: float) -> Confirmation:
    note = PhaseLog(folder / REMEDY_LOG, pool.limits.log_cap)
    try:
        return _tell_and_run(remedy, target, plan, pool, backend_obj, backend, folder, on_line,
                             say, cancel, timeout, note)
    finally:
        note.close()


def _tell_and_run(remedy: Remedy, target: Target, plan: _Plan, pool: DeploymentPool,
                  backend_obj: Backend, backend: str, folder: Path, on_line: LineSink | None,
                  say: Say, cancel: threading.Event, timeout: float, note: PhaseLog
                  ) -> Confirmation:
    def tell(msg: str) -> None:
        note.meta(msg)
        say(msg)

    tell(f"causal re-run of {target.key} on a fresh {backend} deployment: "
         f"{remedy.describe()}")
    for line in plan.applied:
        tell(line)
    tell("tests: " + (", ".join(plan.test_ids) if plan.test_ids else "the whole suite"))
    stop = threading.Event()
    finished = threading.Event()
    deadline = time.monotonic() + max(1.0, timeout)
    why: list[str] = []

    def watch() -> None:
        while not finished.wait(0.2):
            if cancel.is_set():
                why.append("was cancelled")
            elif time.monotonic() > deadline:
                why.append(f"timed out after {timeout:.0f}s")
            else:
                continue
            stop.set()
            return

    watcher = threading.Thread(target=watch, daemon=True, name="remedy-deadline")
    watcher.start()
    try:
        run, log = _run(plan, pool.limits, backend_obj, backend, folder, on_line, tell, stop,
                        deadline)
    finally:
        finished.set()
        watcher.join()
    run.stopped = why[0] if why else ""
    verdict = judge(remedy, recorded_cases(target), _recorded_deployed(target), run)
    tell(f"outcome: {verdict.outcome} (supports: {verdict.supports})")
    return Confirmation(remedy.describe(), verdict.supports, verdict.outcome, verdict.passed,
                        verdict.failed, verdict.collected, backend,
                        _relative(log or note.path, _run_folder(target)))


def _recorded_deployed(target: Target) -> bool:
    rec = target.recorded
    return bool(rec is not None and rec.deployment is not None and rec.deployment.success)


def _relative(path: Path, run: Path | None) -> str:
    if run is not None:
        with contextlib.suppress(ValueError):
            return path.relative_to(run).as_posix()
    return str(path)


def _run(plan: _Plan, limits: Limits, backend_obj: Backend, backend: str,
         folder: Path, on_line: LineSink | None, tell: Say, stop: threading.Event,
         deadline: float) -> tuple[RemedyRun, Path | None]:
    """Deploy the plan's target, run its tests, tear everything down; the run and its most
    telling log (the tests', else the failed phase's)."""
    t = plan.target
    job = SampleJob(t.run_id, t.task, t.sample, t.repo, folder, limits=limits, cancel=stop,
                    test_packages=plan.test_packages)
    port_lock: PortLock | None = None
    if backend == "local":
        tell(f"waiting for port {job.port}")
        lock = PortLock(job.port)
        if not lock.try_enter(stop, deadline - time.monotonic()):
            return RemedyRun(False, "start", f"port {job.port} stayed in use by another "
                             "deployment"), None
        port_lock = lock
    logs = {ph: PhaseLog(folder / "logs" / f"{ph.value}.log", limits.log_cap, on_line=on_line)
            for ph in (Phase.INSTALL, Phase.START, Phase.HEALTH)}
    session = None
    try:
        session = backend_obj.open(job)
        outcome = deploy(session, logs, tell)
        if not outcome.deployed:
            return _not_deployed(outcome, logs), logs[_phase(outcome)].path
        tests_log = PhaseLog(folder / "logs" / "tests-1.log", limits.log_cap, on_line=on_line)
        tell("running " + (f"{len(plan.test_ids)} test(s)" if plan.test_ids else
                           "the whole suite"))
        try:
            test_run = session.run_tests(tests_log, plan.test_ids)
        finally:
            tests_log.close()
        cases: list[TestCase] = []
        with contextlib.suppress(ValueError):
            cases = test_run.cases()[0]
        return RemedyRun(True, cases=cases, tests_message=test_run.outcome.message,
                         tests_ran=test_run.junit is not None), tests_log.path
    finally:
        if session is not None:
            session.close()
        for log in logs.values():
            log.close()
        if port_lock is not None:
            port_lock.__exit__(None, None, None)
        tell("torn down")


def _phase(outcome: DeployOutcome) -> Phase:
    failed = outcome.failed
    return failed.phase if failed is not None and failed.phase in (
        Phase.INSTALL, Phase.START, Phase.HEALTH) else Phase.INSTALL


def _not_deployed(outcome: DeployOutcome, logs: dict[Phase, PhaseLog]) -> RemedyRun:
    failed = outcome.failed
    phase = _phase(outcome)
    start_error = ""
    if phase is Phase.START:
        start_error = next((t.strip() for t in reversed(logs[Phase.START].tail)
                            if re.match(r"\s*\w*(Error|Exception)\b", t)), "")
    return RemedyRun(False, phase.value, failed.message if failed else "not deployed",
                     start_error)


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
