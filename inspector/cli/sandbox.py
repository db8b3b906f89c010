"""``inspector rerun``, ``inspector request`` and ``inspector sandbox …``: thin over services."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.cli.args import add_maven_options, add_phase_limits, at_least_one
from inspector.cli.errors import EXIT_NOT_DEPLOYED, cli_settings
from inspector.cli.output import print_json

if TYPE_CHECKING:
    from inspector.model import TestCase
    from inspector.model.repo.tampering import TamperFinding
    from inspector.services.deploy.docker_backend import SandboxLimits
    from inspector.services.deploy.warm import DeploymentPool


def _err(msg: str) -> None:
    print(f"inspector: {msg}", file=sys.stderr, flush=True)


@contextmanager
def _cancel_on_sigint() -> Iterator[threading.Event]:
    cancel = threading.Event()

    def on_sigint(signum: int, frame: object) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        _err("cancelling: stopping the sandbox and cleaning up (Ctrl-C again to abort)")
        cancel.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    prev_term = signal.signal(signal.SIGTERM, on_sigint)
    try:
        yield cancel
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, prev_term)


def _settings_allow_local(flag: bool) -> bool:
    """A config problem means nothing can be deployed: exit 2."""
    return flag or cli_settings(EXIT_NOT_DEPLOYED).allow_local_exec


def _settings_any_source(flag: bool) -> bool:
    return flag or cli_settings(EXIT_NOT_DEPLOYED).allow_any_package_source


def _limits(args: argparse.Namespace) -> SandboxLimits:
    from inspector.services.deploy.docker_backend import SandboxLimits

    return SandboxLimits(memory_mb=args.memory, pids=args.pids, cpus=args.cpus,
                         lifetime=args.lifetime, disk_mb=args.disk, tmp_mb=args.tmp,
                         lease=args.lease)


def _pool(args: argparse.Namespace, allow_local: bool) -> DeploymentPool:
    from inspector.cli.args import apply_maven_options
    from inspector.services.deploy.backend import Limits
    from inspector.services.deploy.choose import backend_factory
    from inspector.services.deploy.warm import DeploymentPool

    apply_maven_options(args)
    any_source = _settings_any_source(args.allow_any_package_source)
    return DeploymentPool(backend_factory(allow_local, _limits(args), any_source=any_source),
                          limits=Limits(install=args.install_timeout,
                                        startup=args.startup_timeout, tests=args.test_timeout,
                                        log_cap_mb=args.log_cap_mb),
                          keep_reruns=args.keep_reruns)


def _backend_name(args: argparse.Namespace, allow_local: bool) -> str:
    from inspector.services.deploy.choose import default_backend

    return args.backend or default_backend(allow_local)


def _outcome(case: TestCase | None) -> str:
    if case is None:
        return "—"
    msg = case.first_message_line
    out = case.outcome.value
    return f"{out}: {msg}" if msg and out != "passed" else out


def _print_tampering(findings: list[TamperFinding]) -> None:
    """One "tampering attempt" line per finding (kept out of the run; outcomes unaffected)."""
    from inspector.services.tamper.findings import finding_line

    for f in findings:
        print(f"tampering attempt: {finding_line(f)}")
    if findings:
        print()


def cmd_rerun(args: argparse.Namespace) -> int:
    from inspector.services.deploy.choose import find_target
    from inspector.services.deploy.warm import DeployError
    from inspector.services.rerun.runner import UnknownTest, rerun, resolve_tests

    allow_local = _settings_allow_local(args.allow_local_exec)
    try:
        target = find_target(Path(args.run_dir), args.task, args.sample, args.run)
        wanted = ["failures"] if args.all_failures else (args.test_id or [])
        if not wanted:
            raise UnknownTest("name a TEST_ID (node id or test name) or use --all-failures")
        test_ids = resolve_tests(target, wanted)
    except (DeployError, UnknownTest) as exc:
        _err(f"error: {exc}")
        return 1
    backend = _backend_name(args, allow_local)
    pool = _pool(args, allow_local)
    t0 = time.monotonic()

    def say(msg: str) -> None:
        if not args.quiet:
            _err(f"[{time.monotonic() - t0:5.1f}s] {msg}")

    def on_line(stream: str, text: str) -> None:
        if not args.json and not args.quiet:
            print(text, file=sys.stderr if stream == "err" else sys.stdout, flush=True)

    try:
        with _cancel_on_sigint() as cancel:
            say(f"re-running {len(test_ids)} test(s) of {target.key} on {backend}")
            try:
                report = rerun(pool, target, test_ids, backend, times=args.times,
                               on_line=on_line, say=say, cancel=cancel, fresh=True)
            except DeployError as exc:
                _err(f"error: {exc}")
                return EXIT_NOT_DEPLOYED
    finally:
        pool.close()
    if args.json:
        print_json(json.dumps(report.to_json(), indent=2))
        return report.exit_code
    print()
    _print_tampering(report.all_tampering())
    if not report.deployed:
        print(f"NOT DEPLOYED ({report.deploy_phase or 'deploy'}): {report.deploy_failure}")
        print(f"logs: {report.workdir}")
        return report.exit_code
    counts = report.failure_counts()
    for tid, old, new, comparison in report.results():
        print(f"{tid}")
        print(f"  recorded: {_outcome(old)}")
        print(f"  now:      {_outcome(new)}   [{comparison}]")
        if args.times > 1 and tid in counts:
            f, n = counts[tid]
            print(f"  flakiness: failed {f} of {n} runs ({f / n:.0%})")
    a = report.attempts
    per = f"{sum(x.seconds for x in a) / len(a):.2f}s per run" if a else "no run"
    print(f"\n{'warm' if report.reused else 'cold'} {report.backend}: deploy "
          f"{report.deploy_seconds:.1f}s, tests {per}, total {report.seconds:.1f}s; "
          f"logs: {report.workdir}")
    return report.exit_code


def cmd_request(args: argparse.Namespace) -> int:
    from inspector.model.request.http_request import RequestSpec, to_curl
    from inspector.services.deploy.choose import find_target
    from inspector.services.deploy.warm import DeployError
    from inspector.services.rerun.http_client import send

    allow_local = _settings_allow_local(args.allow_local_exec)
    try:
        target = find_target(Path(args.run_dir), args.task, args.sample, args.run)
    except DeployError as exc:
        _err(f"error: {exc}")
        return 1
    headers = []
    for h in args.header or []:
        name, sep, value = h.partition(":")
        if not sep:
            _err(f"error: --header {h!r}: expected 'Name: value'")
            return 1
        headers.append((name.strip(), value.strip()))
    path, _, qs = args.path.partition("?")
    from urllib.parse import parse_qsl

    spec = RequestSpec(args.method.upper(), path, tuple(parse_qsl(qs, keep_blank_values=True)),
                       tuple(headers), "json" if args.json_body is not None else "none",
                       args.json_body or "")
    problems = spec.validate()
    if problems:
        _err("error: " + "; ".join(problems))
        return 1
    backend = _backend_name(args, allow_local)
    pool = _pool(args, allow_local)
    try:
        with _cancel_on_sigint() as cancel:
            try:
                live, _ = pool.acquire(target, backend, say=lambda m: _err(m), cancel=cancel)
            except DeployError as exc:
                _err(f"error: {exc}")
                return EXIT_NOT_DEPLOYED
            if not live.deployed:
                _err(f"not deployed: {live.failure}")
                return EXIT_NOT_DEPLOYED
            base = live.base_url()
            resp = send(spec, base)
            _err(f"$ {to_curl(spec, base)}")
    finally:
        pool.close()
    if resp.error:
        print(f"error: {resp.error}")
        return 1
    print(f"{resp.http_version} {resp.status} {resp.reason}  ({resp.elapsed_ms:.0f} ms)")
    for k, v in resp.headers:
        print(f"{k}: {v}")
    print()
    print(resp.pretty_body())
    return 0 if resp.status < 400 else 1


def _engine() -> Any:
    """The Docker engine's client, or None (said on stderr) when there is none."""
    from inspector.services.sandbox.engine import EngineUnavailable, connect

    try:
        return connect()
    except EngineUnavailable as exc:
        _err(f"error: {exc}")
        return None


def cmd_sandbox_init(args: argparse.Namespace) -> int:
    """Build the sandbox base image (unless present, or with ``--force``)."""
    from inspector.services.sandbox.apt_sources import AptSource, NoAptSource
    from inspector.services.sandbox.base_image import InitError, init_base_image

    client = _engine()
    if client is None:
        return EXIT_NOT_DEPLOYED
    source = AptSource(args.mirror.rstrip("/"), args.suite or "bookworm", ("main",),
                       Path("--mirror")) if args.mirror else None
    with _cancel_on_sigint() as cancel:
        try:
            res = init_base_image(client, force=args.force, source=source,
                                  say=lambda s: _err(s) if not args.quiet else None,
                                  cancel=cancel)
        except (InitError, NoAptSource) as exc:
            _err(f"error: {exc}")
            return 1
    print(f"{res.image} {res.image_id[:19]} "
          + (f"built in {res.seconds:.0f}s" if res.built else "already present"))
    if getattr(args, "java", False):
        from inspector.services.sandbox.java_image import init_java_image

        with _cancel_on_sigint() as cancel:
            try:
                res = init_java_image(client, force=args.force,
                                      say=lambda s: _err(s) if not args.quiet else None,
                                      cancel=cancel)
            except InitError as exc:
                _err(f"error: {exc}")
                return 1
        print(f"{res.image} {res.image_id[:19]} "
              + (f"built in {res.seconds:.0f}s" if res.built else "already present"))
    return 0


def cmd_sandbox_ls(args: argparse.Namespace) -> int:
    """List the sandbox containers."""
    from inspector.services.sandbox.cleanup import list_sandboxes

    client = _engine()
    if client is None:
        return EXIT_NOT_DEPLOYED
    rows = list_sandboxes(client)
    if args.json:
        print_json(json.dumps([r.__dict__ for r in rows], indent=2))
        return 0
    if not rows:
        print("no sandboxes")
    for r in rows:
        owner = {True: "owner alive", False: "owner gone", None: "other host"}[r.owner_alive]
        left = "  (leftover)" if r.leftover else ""
        print(f"{r.id[:12]}  {r.kind:8} {r.status:8} {r.sample or '-':50} {owner}{left}")
    return 0


def cmd_sandbox_stop(args: argparse.Namespace) -> int:
    """Stop and remove the sandboxes named (by a unique id prefix), or all with ``--all``."""
    from inspector.services.sandbox.cleanup import (
        cleanup_leftovers,
        list_sandboxes,
        remove_container,
    )

    client = _engine()
    if client is None:
        return EXIT_NOT_DEPLOYED
    if args.all:
        removed = cleanup_leftovers(client, everything=True)
    else:
        if not args.ids:
            _err("error: name container ids (from `inspector sandbox ls`) or use --all")
            return 1
        ids = {r.id: r for r in list_sandboxes(client)}
        removed = []
        for want in args.ids:
            hits = [i for i in ids if i.startswith(want)]
            if len(hits) != 1:
                _err(f"error: {want!r} matches {len(hits)} sandboxes")
                return 1
            if remove_container(client, hits[0]):
                removed.append(f"container {ids[hits[0]].name}")
    print("\n".join(f"removed {r}" for r in removed) or "nothing to remove")
    return 0


def cmd_sandbox_prune(args: argparse.Namespace) -> int:
    """Remove the leftovers of inspectors that are gone."""
    from inspector.services.sandbox.cleanup import cleanup_leftovers

    client = _engine()
    if client is None:
        return EXIT_NOT_DEPLOYED
    removed = cleanup_leftovers(client)
    print("\n".join(f"removed {r}" for r in removed) or "no leftovers")
    return 0


def _deploy_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", help="runs folder, run folder or RepoGenesis output folder")
    p.add_argument("task", help="task name")
    p.add_argument("--sample", type=int, default=0, help="sample number (default 0)")
    p.add_argument("--run", help="part of the run id, when several runs hold TASK")
    sandbox_options(p)


def sandbox_options(p: argparse._ActionsContainer) -> None:
    """The backend and sandbox options of every command that deploys a sample."""
    from inspector.services.logs.caps import DEFAULT_KEEP_RERUNS

    p.add_argument("--backend", choices=["docker", "local"],
                   help="default: docker when an engine is reachable")
    p.add_argument("--allow-local-exec", action="store_true",
                   help="allow the local backend to run the untrusted code as a process")
    p.add_argument("--memory", type=int, default=768, metavar="MB", help="sandbox memory")
    p.add_argument("--pids", type=int, default=256, help="sandbox process limit")
    p.add_argument("--cpus", type=float, default=1.0, help="sandbox CPU share")
    p.add_argument("--lifetime", type=float, default=3600.0, metavar="S",
                   help="wall clock after which the sandbox ends itself")
    p.add_argument("--disk", type=int, default=256, metavar="MB",
                   help="free space in the sandbox's /repo (tmpfs, besides the repo's files)")
    p.add_argument("--tmp", type=int, default=128, metavar="MB", help="size of the sandbox's /tmp")
    p.add_argument("--lease", type=float, default=60.0, metavar="S",
                   help="the sandbox ends this long after the inspector stops renewing it")
    p.add_argument("--allow-any-package-source", action="store_true",
                   help="install requirements from URLs, VCS links, local paths or other "
                        "indexes too (default: only the configured package index)")
    add_phase_limits(p)
    add_maven_options(p)
    p.add_argument("--keep-reruns", type=at_least_one, default=DEFAULT_KEEP_RERUNS, metavar="N",
                   help="re-runs whose logs are kept per sample; older ones are removed when "
                        f"a new one starts (default {DEFAULT_KEEP_RERUNS})")
    p.add_argument("--quiet", action="store_true", help="no progress or test output")


def rerun_arguments(rr: argparse.ArgumentParser) -> None:
    """The sample, the sandbox options, the tests and how often."""
    _deploy_options(rr)
    rr.add_argument("test_id", nargs="*", help="pytest node id or test name (repeatable)")
    rr.add_argument("--all-failures", action="store_true",
                    help="every recorded failing test, on one deployment")
    rr.add_argument("--times", type=int, default=1, metavar="N",
                    help="run N times and report how often each test fails")
    rr.add_argument("--json", action="store_true", help="machine-readable report")


def request_arguments(rq: argparse.ArgumentParser) -> None:
    """The sample, the sandbox options and the request."""
    _deploy_options(rq)
    rq.add_argument("method")
    rq.add_argument("path", help="path with optional ?query")
    rq.add_argument("--json-body", metavar="JSON", help="JSON request body")
    rq.add_argument("-H", "--header", action="append", help="'Name: value' (repeatable)")


def init_arguments(init: argparse.ArgumentParser) -> None:
    """``sandbox init``: rebuild, the mirror and its suite."""
    init.add_argument("--force", action="store_true", help="rebuild even if present")
    init.add_argument("--mirror", help="Debian mirror URL (default: from /etc/apt)")
    init.add_argument("--suite", help="Debian suite with --mirror (default bookworm)")
    init.add_argument("--quiet", action="store_true")
    init.add_argument("--java", action="store_true",
                      help="also build the Java image (JDK 17 and Maven from the same Debian "
                           "sources) for Java tasks")


def ls_arguments(ls: argparse.ArgumentParser) -> None:
    """``sandbox ls``: ``--json``."""
    ls.add_argument("--json", action="store_true")


def stop_arguments(st: argparse.ArgumentParser) -> None:
    """``sandbox stop``: ids or ``--all``."""
    st.add_argument("ids", nargs="*")
    st.add_argument("--all", action="store_true")
