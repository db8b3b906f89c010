"""A repo's package installs in a box of their own (local backend).

Installing a requirement runs its build (an sdist's ``setup.py``): repo code. The install
commands (``uv pip install``, ``pip install``) therefore run in the box :mod:`.confine` gives
``start.sh``: own mount and PID namespace, the whole file system read-only, ``nobody`` (in
``uid`` mode) without capabilities and with ``no_new_privs``. Writable are only the venv being
built and a private scratch folder beside it (temp files and the installers' caches, removed
afterwards); readable besides the read-only file system: the base interpreter, the installer
and the repo copy (its ``requirements.txt``). The network stays (the package index). Whatever
the build leaves running dies with the box when the command exits; the venv is the
inspector's own again afterwards (:func:`.confine.take_back`).

The venv is created outside the box (no repo code runs then). Mode ``none`` has no box: the
caller installs unboxed (see :mod:`.runner_env` for what still protects the test runner).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.services.host import confine

if TYPE_CHECKING:
    from inspector.services.host.venvs import CommandLog

Runner = Callable[[list[str], "CommandLog", Path | None, dict[str, str] | None, float,
                   Callable[[], bool]], int | None]


def describe(mode: str) -> str:
    """One line for the install log: how the install commands are isolated."""
    who = "nobody" if mode == "uid" else "this user"
    return (f"install isolation: own mount and PID namespace, read-only file system except the "
            f"venv being built and a private scratch folder; runs as {who} without "
            "capabilities (no_new_privs); network kept for the package index")


@dataclass
class InstallBox:
    """How to box a repo's installs: ``mode`` (``uid`` or ``userns``, never ``none``) and the
    folders the installer may read beyond the read-only file system (the repo copy)."""

    mode: str
    readable: list[Path] = field(default_factory=list)

    @contextlib.contextmanager
    def building(self, venv: Path, installer: str | None, log: CommandLog) -> Iterator[Runner]:
        """While building ``venv``: a ``run_logged``-like runner whose commands run boxed."""
        scratch = venv.parent / f".{venv.name}.box"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(mode=0o700)
        for sub in ("tmp", "uv-cache", "pip-cache"):
            (scratch / sub).mkdir()
        extra = {"TMPDIR": str(scratch / "tmp"), "UV_CACHE_DIR": str(scratch / "uv-cache"),
                 "PIP_CACHE_DIR": str(scratch / "pip-cache"), "UV_LINK_MODE": "copy",
                 **_configs(scratch)}
        readable = [*confine.interpreter_home(venv), *self.readable]
        if installer:
            readable.append(Path(os.path.realpath(installer)).parent)
        box = confine.Box(writable=[venv, scratch], readable=readable)
        log.meta(describe(self.mode))
        try:
            confine.give_to_service(venv, self.mode, box)
            confine.give_to_service(scratch, self.mode, box)

            def run(cmd: list[str], log: CommandLog, cwd: Path | None,
                    env: dict[str, str] | None, timeout: float,
                    cancelled: Callable[[], bool]) -> int | None:
                full = dict(os.environ if env is None else env)
                full.update(extra)
                return _run_boxed(cmd, log, cwd or scratch, full, box, self.mode, timeout,
                                  cancelled)

            yield run
        finally:
            if self.mode == "uid" and venv.exists():
                confine.take_back(venv)
            shutil.rmtree(scratch, ignore_errors=True)


def _configs(scratch: Path) -> dict[str, str]:
    """The installers' user configuration, copied where the box can read it (the home folder
    holding it is out of the box's reach, and the box has a home of its own)."""
    out: dict[str, str] = {}
    config_home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    for var, candidates in (
            ("PIP_CONFIG_FILE", [config_home / "pip" / "pip.conf",
                                 Path.home() / ".pip" / "pip.conf"]),
            ("UV_CONFIG_FILE", [config_home / "uv" / "uv.toml"])):
        if os.environ.get(var):  # given explicitly: that file, or (not a file) none at all
            candidates = [Path(os.environ[var])]
        for given in candidates:
            if given.is_file():
                copy = scratch / Path(given).name
                with contextlib.suppress(OSError):
                    shutil.copyfile(given, copy)
                    copy.chmod(0o644)
                    out[var] = str(copy)
                break
    return out


def _run_boxed(cmd: list[str], log: CommandLog, cwd: Path, env: dict[str, str],
               box: confine.Box, mode: str, timeout: float,
               cancelled: Callable[[], bool]) -> int | None:
    """Run ``cmd`` in ``box``, streaming its output into ``log``; None on timeout or cancel.
    Everything it started is killed when it exits."""
    log.meta("$ " + " ".join(cmd))
    service = confine.Service(cmd, cwd, env, box, mode, log.meta)
    proc = service.proc
    assert proc.stdout and proc.stderr
    pumps = [log.pump(proc.stdout, "out"), log.pump(proc.stderr, "err")]
    deadline = time.monotonic() + timeout
    code = service.exited()
    while code is None:
        if cancelled() or time.monotonic() > deadline:
            log.meta("cancelled" if cancelled() else f"timed out after {timeout:.0f}s")
            break
        time.sleep(0.05)
        code = service.exited()
    service.stop(grace=0.5)
    for p in pumps:
        p.join(timeout=2)
    return code
