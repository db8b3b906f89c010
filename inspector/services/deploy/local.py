"""Local-process backend: one :class:`~.local_session.LocalSession` per sample (per-repo
virtualenv, ``start.sh`` boxed, the golden suite run from outside the repo's reach), a
:class:`~.java_local.JavaSession` for a Java task.

Runs untrusted generated code on this machine, so it refuses to work unless the user allowed
it explicitly (``--allow-local-exec`` or ``allow_local_exec = true`` in the config). As root
(or with user namespaces) the service gets its own mount and PID namespace and no
capabilities; the Docker sandbox backend is the fully isolated alternative.
"""

from __future__ import annotations

from pathlib import Path

from inspector.services.deploy.backend import SampleJob
from inspector.services.deploy.java_local import JavaSession
from inspector.services.deploy.local_session import LocalSession
from inspector.services.deploy.runner_env import RunnerEnvs
from inspector.services.host import confine
from inspector.services.host.venvs import VenvCache


class LocalExecNotAllowed(RuntimeError):
    """Raised when the local backend is used without the user's explicit permission."""


class LocalBackend:
    """Deploys generated repos as local processes.

    ``isolation``: ``uid``, ``userns`` or ``none`` (see :mod:`.confine`); None or ``auto``:
    ``$GENESIS_LOCAL_ISOLATION``, else the strongest this machine supports.
    """

    name = "local"

    def __init__(self, allow_exec: bool, cache: VenvCache | None = None,
                 work_root: Path | None = None, isolation: str | None = None) -> None:
        if not allow_exec:
            raise LocalExecNotAllowed(
                "the local backend runs untrusted generated code directly on this machine; "
                "pass --allow-local-exec (or set allow_local_exec = true in the config) to "
                "accept that, or use the Docker sandbox backend")
        try:
            self.isolation = confine.isolation(isolation)
        except ValueError as exc:
            raise LocalExecNotAllowed(str(exc)) from None
        self.cache = cache or VenvCache()
        self.runners = RunnerEnvs(self.cache)  # apart from the repos' venvs, sealed
        self.work_root = work_root

    def open(self, job: SampleJob) -> LocalSession:
        if job.task.language == "java":
            return JavaSession(self, job)
        return LocalSession(self, job)
