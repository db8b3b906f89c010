"""Why a sample's test suite did not run (fully): the first real cause line pytest printed.

Runs record it in ``result.json`` (``tests.cause``); for runs recorded before that, it is
derived here from the sample's tests log and JUnit cases.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from inspector.model import Phase, SampleResult, SuiteCause, SuiteStatus, Task
from inspector.model.suite.pytest_output import Locate, find_cause
from inspector.services.logs.phase_log import read_output
from inspector.services.repo.references import Ref, resolve_path


def needs_cause(status: SuiteStatus, collection_errors: int, exit_code: int | None,
                ran: bool) -> bool:
    """Whether a suite is one that did not run (fully), so its cause is worth finding.
    ``ran``: the test phase ran at all (the service deployed)."""
    return ran and (status is not SuiteStatus.RAN or collection_errors > 0
                    or exit_code not in (0, 1))


def _exists(root: Path | None, rel: str) -> bool:
    if root is None:
        return False
    try:
        path = (root / rel).resolve()
        return path.is_file() and path.is_relative_to(root.resolve())
    except (OSError, ValueError):
        return False


def locator(cwd: str | None, task: Task | None, repo: Path | None) -> Locate:
    """Maps a path pytest printed to one relative to the repo root, if it names a golden test
    file (the task's ``tests/`` replaced the repo's) or a file of the generated repo.

    ``cwd`` is the folder pytest ran in (absolute, on the machine that ran it); without it,
    the longest trailing part of the path that exists is taken (see ``resolve_path``).
    """
    task_root = task.root if task else None
    tests = task.tests_dir if task else None
    tests_name = tests.name if tests is not None else "tests"

    def ours(rel: str) -> bool:
        if rel.startswith(tests_name + "/") and tests is not None:
            return _exists(tests, rel[len(tests_name) + 1:])
        return _exists(repo, rel) or _exists(task_root, rel)

    def locate(raw: str) -> str | None:
        raw = raw.replace("\\", "/").strip()
        if cwd:
            base = posixpath.normpath(cwd)
            if posixpath.isabs(raw):
                rel = posixpath.relpath(posixpath.normpath(raw), base)
                if rel.startswith("../") or rel == "..":
                    return None
            else:
                rel = posixpath.normpath(raw)
            return rel if not rel.startswith("../") and ours(rel) else None
        hit = resolve_path(raw, {"task": task_root, "repo": repo})
        return hit[1] if hit else None

    return locate


def cause_of(s: SampleResult, task: Task | None = None) -> SuiteCause | None:
    """The recorded cause of ``s``'s suite not running (fully), or one derived from its tests
    log for older runs; None when the suite ran, or nothing explains it."""
    t = s.tests
    tests_phase = s.deployment.phase(Phase.TESTS)
    ran = s.deployment.success and (tests_phase is None or tests_phase.status.value != "skipped")
    if not t.has_cases or not needs_cause(t.status, t.collection_errors, s.exit_code, ran):
        return None
    if t.cause is not None:
        return t.cause
    log = s.logs.get(Phase.TESTS)
    lines = read_output(log) if log is not None else []
    return find_cause(lines, s.exit_code, t.cases, locator(None, task, s.repo_path),
                        tests_phase.message if tests_phase else "")


def cause_ref(cause: SuiteCause, repo: Path | None, task: Task | None) -> Ref | None:
    """The file:line the cause points at, as a reference the UI can open (golden tests in
    the task folder first), or None when it names no file that exists."""
    if not cause.file:
        return None
    hit = resolve_path(cause.file, {"task": task.root if task else None, "repo": repo})
    if hit is None:
        return None
    return Ref(hit[0], hit[1], cause.line or 1, cause.location)
