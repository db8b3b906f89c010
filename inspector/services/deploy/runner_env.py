"""The test runner's venv (local backend): built apart, sealed, checked before each use.

The runner's venv holds pytest, requests, httpx and the task's ``tests/requirements.txt``:
trusted inputs only, installed by the inspector outside any box. Nothing a repo does may change
it, since every later sample of the task runs its tests there:

* **apart**: its own cache folder (``runner-venvs`` beside the repos' ``venvs``), never bound
  into a repo's install box (:mod:`.install_box`) or service box (:mod:`.confine`), where the
  whole file system is read-only anyway;
* **sealed**: the bytecode of what every run imports (pytest, requests, httpx) is written when
  it is built and none later (a ``.pth`` of its own sets ``sys.dont_write_bytecode``: pytest's
  rewritten plugin modules too), so a test run writes nothing into it; a
  digest over all its files (paths, kinds, modes, contents, link targets) is recorded in its
  marker;
* **checked**: when first taken from the cache by this process (against the marker), then
  before and after each test run (against the digest this process built or checked); a venv
  that changed is rebuilt, and the change is a tampering finding (:data:`KIND`) on the sample
  it was seen in.

Isolation ``none`` (no namespaces: not root, no user namespaces) has no box: a requirement's
build and the service run as the inspector's user and can write the runner's venv. The
checks still catch that within a process (the digest is held in memory from the moment the
venv was built or checked) and across processes as long as the marker is not rewritten too; a
same-user attacker that rewrites both between two inspector processes is not caught there
(``none`` is no security boundary; use the Docker backend or run as root).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding
from inspector.services.host.venvs import MARKER, VenvCache, VenvResult
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.suite.reach import record_names

RUNNERS = "runner-venvs"
KIND = "runner_env_changed"
LABEL = "(test runner) "
NO_BYTECODE = "_genesis_runner.pth"  # the runner's python writes no bytecode into its venv
WARM_UP = "import pytest, _pytest.junitxml, requests, httpx"


def env_digest(root: Path) -> str:
    """sha256 over every entry under ``root`` (its marker aside), never following symlinks."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        for name in sorted(filenames + [d for d in dirnames
                                        if os.path.islink(os.path.join(dirpath, d))]):
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel == MARKER:
                continue
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            h.update(f"{rel}\0{stat.S_IFMT(st.st_mode)}\0{st.st_mode & 0o7777}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(path).encode(errors="surrogateescape"))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
            h.update(b"\n")
        h.update(f"{rel_dir}/\0{os.lstat(dirpath).st_mode & 0o7777}\n".encode())
    return h.hexdigest()


def _digest_or_none(path: Path) -> str | None:
    try:
        return env_digest(path)
    except OSError:
        return None


class _SealedCache(VenvCache):
    """A :class:`VenvCache` whose venvs are sealed when built and checked when reused."""

    def __init__(self, root: Path, like: VenvCache, seen: dict[str, str]) -> None:
        super().__init__(root, allow_any_source=like.allow_any_source)
        self.uv = like.uv
        self.seen = seen
        self.seen_lock = threading.Lock()

    def _complete(self, path: Path, requirements: str, log: PhaseLog) -> None:
        # the bytecode of what every test run imports, now; none written later (pytest's
        # rewritten plugin modules included): running the venv's python never writes into it
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run([str(path / "bin" / "python"), "-I", "-c", WARM_UP],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=300)
        for site in (path / "lib").glob("python*/site-packages"):
            (site / NO_BYTECODE).write_text("import sys; sys.dont_write_bytecode = True\n")
        # what it provides and imports (the golden runner's reach), sealed with the rest
        with contextlib.suppress(OSError, ValueError, subprocess.SubprocessError):
            record_names(path)
        digest = env_digest(path)
        (path / MARKER).write_text(json.dumps({"requirements": requirements,
                                               "digest": digest}))
        with self.seen_lock:
            self.seen[str(path)] = digest
        log.meta(f"test-runner environment sealed (digest {digest[:16]})")

    def _stale(self, path: Path) -> str:
        try:
            recorded = json.loads((path / MARKER).read_text()).get("digest")
        except (OSError, ValueError, AttributeError):
            recorded = None
        if not isinstance(recorded, str):
            return "its marker records no digest"
        with self.seen_lock:
            before = self.seen.get(str(path))
        if before == recorded:
            return ""  # checked by this process, and before every test run
        now = _digest_or_none(path)
        with self.seen_lock:
            if now == recorded and before is None:
                self.seen[str(path)] = recorded
                return ""
            self.seen.pop(str(path), None)
        return (f"its files changed since it was built (digest {str(now)[:16]}, recorded "
                f"{recorded[:16]})")


class RunnerEnvs:
    """The test runners' venvs of a backend whose repo venvs are in ``repos``."""

    def __init__(self, repos: VenvCache) -> None:
        self.seen: dict[str, str] = {}
        self.cache = _SealedCache(repos.root.with_name(RUNNERS), repos, self.seen)

    def get(self, requirements: str, args: list[str], log: PhaseLog, timeout: float,
            cancelled: Callable[[], bool]) -> tuple[VenvResult, list[TamperFinding]]:
        """The runner's venv for these requirements, and a finding if the cached one had
        changed (by an earlier evaluation, or another process) and was rebuilt."""
        result = self.cache.get(requirements, args, log, timeout, cancelled, LABEL, ("tests",))
        if not result.replaced:
            return result, []
        return result, [TamperFinding(
            KIND, "", "the cached test-runner environment had changed since it was built, "
            f"before this sample was deployed ({result.replaced}); it was rebuilt and the "
            "tests ran in the rebuilt one", False)]

    def changed(self, path: Path) -> str:
        """Why the venv at ``path`` is not what it was when it was built or last checked by
        this process ("" when it is)."""
        with self.cache.seen_lock:
            expected = self.seen.get(str(path))
        now = _digest_or_none(path)
        if expected is not None and now == expected:
            return ""
        return f"digest {str(now)[:16]}, expected {str(expected)[:16]}"

    def discard(self, path: Path) -> None:
        """Make the next use of the venv at ``path`` rebuild it (it was changed)."""
        with self.cache.seen_lock:
            self.seen.pop(str(path), None)
        (path / MARKER).unlink(missing_ok=True)
