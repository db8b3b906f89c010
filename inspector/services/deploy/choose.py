"""Choosing and creating deployment backends (Docker sandbox by default, local when allowed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.model import discover_runs
from inspector.model.runs.repo_scope import REPO_REFUSED
from inspector.services.deploy.backend import Backend
from inspector.services.deploy.local import LocalBackend, LocalExecNotAllowed
from inspector.services.deploy.warm import DeployError, Target
from inspector.services.host.venvs import VenvCache
from inspector.services.sandbox.engine import EngineUnavailable, engine_reachable

if TYPE_CHECKING:
    from inspector.services.deploy.docker_backend import SandboxLimits

BACKENDS = ("docker", "local")


def default_backend(allow_local: bool) -> str:
    """``docker`` when an engine answers, else ``local`` if allowed, else ``docker`` (whose
    error then says how to start an engine)."""
    if engine_reachable():
        return "docker"
    return "local" if allow_local else "docker"


def backend_factory(allow_local: bool, sandbox_limits: SandboxLimits | None = None,
                    cleanup: bool = True, any_source: bool = False
                    ) -> Callable[[str], Backend]:
    """A factory for :class:`~.deployments.DeploymentPool`. The Docker backend removes what a
    dead inspector left behind when it is first created. ``any_source``: install requirements
    from anywhere, not only the configured package index (the user's opt-out)."""

    def make(name: str) -> Backend:
        if name == "local":
            try:
                return LocalBackend(allow_exec=allow_local,
                                    cache=VenvCache(allow_any_source=any_source))
            except LocalExecNotAllowed as exc:
                raise DeployError(str(exc)) from None
        if name == "docker":
            # start-up: the Docker backend (and docker) only when it is chosen
            from inspector.services.deploy.java_docker import SandboxBackend
            from inspector.services.sandbox.cleanup import cleanup_leftovers
            from inspector.services.sandbox.engine import connect

            try:
                client = connect()
            except EngineUnavailable as exc:
                raise DeployError(str(exc)) from None
            if cleanup:
                cleanup_leftovers(client)
            return SandboxBackend(client, sandbox_limits, allow_any_source=any_source)
        raise DeployError(f"unknown backend {name!r} (choose docker or local)")

    return make


def find_target(path: Path, task: str, sample: int = 0, run: str | None = None) -> Target:
    """The sample of ``task`` in the runs under ``path`` (``run`` narrows by part of the id)."""
    if not path.exists():
        raise DeployError(f"{path}: no such file or folder")
    found = discover_runs(path)
    runs = [r for r in found.named(run) if r.samples_for(task)]
    if not runs:
        names = sorted({t for r in found.all_runs for t in r.task_names})
        raise DeployError(f"{path}: no run with task {task!r}"
                          + (f" (tasks: {', '.join(names)})" if names else ""))
    if len(runs) > 1:
        ours = [r for r in runs if r.source.format != "repogenesis"]
        if len(ours) == 1 and run is None:
            runs = ours
        else:
            raise DeployError(f"{path}: {len(runs)} runs have task {task!r}; pick one with "
                              "--run: " + ", ".join(r.id for r in runs))
    r = runs[0]
    samples = {s.sample: s for s in r.samples_for(task)}
    if sample not in samples:
        raise DeployError(f"{r.id}/{task}: no sample {sample} (have {sorted(samples)})")
    result = samples[sample]
    refused = [n for n in result.notes if n.startswith(REPO_REFUSED)]
    if result.repo_path is None and refused:  # a repo outside where repos may be: not opened
        raise DeployError(f"{result.sample_id}: {refused[0]} ({result.source_file})")
    t = r.tasks.get(task) or found.tasks.get(task)
    if t is None:
        raise DeployError(f"{r.id}: task {task!r} is not in the tasks folder, so its golden "
                          "tests cannot be found")
    return Target.from_result(result, t)
