"""Virtualenvs cached by the hash of what they install.

A venv is built in place under an exclusive lock and marked complete only when the install
succeeded, so a crash or a failed install never leaves a half-built venv that looks usable.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol

from inspector import paths
from inspector.model.repo.requirement_sources import check_requirement_sources
from inspector.services.host.install_settings import (
    CONFIG_FILES,
    content_settings,
    identity,
    identity_key,
)
from inspector.services.logs.phase_log import PhaseLog

if TYPE_CHECKING:
    from inspector.services.host.install_box import InstallBox

MARKER = ".genesis-complete"
LAYOUT = "2"  # bump when how a venv is built changes


def default_cache_dir() -> Path:
    """``venvs`` in :func:`inspector.paths.cache_root`."""
    return paths.cache_root() / "venvs"


@dataclass
class VenvResult:
    ok: bool
    path: Path
    cached: bool
    exit_code: int | None
    message: str
    replaced: str = ""  # why a cached venv was not reused but rebuilt (see VenvCache._stale)


def install_identity(installer: str) -> str:
    """Everything besides the requirements that decides what a venv built here holds: the
    installer, the platform, this process's pip/uv index settings and config files
    (credentials hashed; :mod:`.install_settings`). Safe to log."""
    return identity(content_settings(), installer, CONFIG_FILES)


def requirements_key(requirements: str, extra: tuple[str, ...] = (),
                     install: str = "") -> str:
    """The cache key of a venv: the layout, the interpreter, ``install``
    (:func:`install_identity`), the requirements and ``extra``."""
    h = hashlib.sha256()
    # The interpreter the venv is made from (``python`` and ``python3`` of one venv are the same)
    h.update(f"{LAYOUT}|{sys.version_info[:3]}|{os.path.realpath(sys.executable)}".encode())
    if install:  # a key without it is what it was
        h.update(f"|install {identity_key(install)}".encode())
    h.update(requirements.encode())
    for e in extra:
        h.update(b"\0" + e.encode())
    return h.hexdigest()[:20]


class CommandLog(Protocol):
    """Where :func:`run_logged` writes: a :class:`PhaseLog`, or a wrapper around one."""

    def meta(self, text: str) -> None: ...

    def pump(self, stream: IO[bytes], name: str) -> threading.Thread: ...


def run_logged(cmd: list[str], log: CommandLog, cwd: Path | None, env: dict[str, str] | None,
               timeout: float, cancelled: Callable[[], bool]) -> int | None:
    """Run a command, streaming its output into ``log``. None means timeout or cancel."""
    log.meta("$ " + " ".join(cmd))
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    assert proc.stdout and proc.stderr
    pumps = [log.pump(proc.stdout, "out"), log.pump(proc.stderr, "err")]
    deadline = time.monotonic() + timeout
    code: int | None = None
    while True:
        try:
            code = proc.wait(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            if cancelled() or time.monotonic() > deadline:
                _killpg(proc)
                log.meta("cancelled" if cancelled() else f"timed out after {timeout:.0f}s")
                code = None
                break
    for p in pumps:
        p.join(timeout=2)
    return code


def _killpg(proc: subprocess.Popen[bytes]) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


_UV_LOCK = threading.Lock()
_UV: list[str | None] = []


def uv_binary() -> str | None:
    """The ``uv`` executable shipped with the ``uv`` package (or on PATH), if any; looked up
    once (``uv.find_uv_bin`` reads ``sysconfig``, whose lazy set-up is not thread-safe)."""
    with _UV_LOCK:
        if not _UV:
            try:
                from uv import find_uv_bin

                _UV.append(find_uv_bin())
            except (ImportError, FileNotFoundError):
                _UV.append(shutil.which("uv"))
        return _UV[0]


def _uv_env() -> dict[str, str]:
    """pip's index settings from the environment, passed on to uv so both see the same index."""
    env = dict(os.environ)
    for pip_key, uv_key in (("PIP_INDEX_URL", "UV_INDEX_URL"),
                            ("PIP_EXTRA_INDEX_URL", "UV_EXTRA_INDEX_URL"),
                            ("PIP_FIND_LINKS", "UV_FIND_LINKS")):
        if env.get(pip_key) and not env.get(uv_key):
            env[uv_key] = env[pip_key]
    cert = env.get("PIP_CERT")
    if cert and not env.get("SSL_CERT_FILE"):
        env["SSL_CERT_FILE"] = cert
    return env


class VenvCache:
    """Creates venvs keyed by requirements hash under ``root``.

    Installs with uv when it is available (``installer="auto"``): several times faster than
    pip on a cold cache. pip stays the judge: when uv cannot install the requirements the
    install is retried with pip, whose verdict (and error lines) count, as in the stock
    harness. ``installer="pip"`` (or ``GENESIS_INSTALLER=pip``) uses pip only.

    Requirements are installed only from the configured package index: a line pointing pip
    anywhere else (URL, VCS, local path, other index, ...) fails the install before anything
    runs, and before a cached venv is reused, unless ``allow_any_source``
    (:mod:`inspector.model.repo.requirement_sources`).
    """

    def __init__(self, root: Path | None = None, installer: str | None = None,
                 allow_any_source: bool = False) -> None:
        self.root = root or default_cache_dir()
        self.allow_any_source = allow_any_source
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        choice = installer or os.environ.get("GENESIS_INSTALLER", "auto")
        self.uv = uv_binary() if choice != "pip" else None

    def get(self, requirements: str, packages_args: list[str], log: PhaseLog,
            timeout: float, cancelled: Callable[[], bool], label: str = "",
            extra_key: tuple[str, ...] = (), box: InstallBox | None = None) -> VenvResult:
        """A venv with the given pip arguments installed (e.g. ``['-r', 'req.txt']``);
        ``requirements`` is the text installed (checked against the package-source policy).
        ``box``: run the install commands in it (:mod:`.install_box`)."""
        if not self.allow_any_source:
            problems = check_requirement_sources(requirements)
            if problems:
                msg = problems[0].message()
                for p in problems:
                    log.meta("refused: " + p.message())
                return VenvResult(False, self.root / "refused", False, 1, msg)
        install = install_identity("uv" if self.uv else "pip")
        key = requirements_key(requirements, extra_key, install)
        path = self.root / key
        with self._guard:
            tlock = self._locks.setdefault(key, threading.Lock())
        self.root.mkdir(parents=True, exist_ok=True)
        with tlock:
            fd = os.open(self.root / f"{key}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                stale = ""
                if (path / MARKER).is_file():
                    stale = self._stale(path)
                    if not stale:
                        log.meta(f"reusing cached virtualenv {label}{path} (requirements hash "
                                 f"{key})")
                        return VenvResult(True, path, True, 0, "cached virtualenv reused")
                    log.meta(f"not reusing cached virtualenv {label}{path}: {stale}; rebuilding")
                if path.exists():
                    shutil.rmtree(path, ignore_errors=True)
                log.meta(f"building virtualenv {label}{path} (requirements hash {key}; "
                         f"{install})")
                result = self._build(path, requirements, packages_args, log, timeout, cancelled,
                                     box)
                result.replaced = stale
                return result
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def _stale(self, path: Path) -> str:
        """Why the complete venv at ``path`` must not be reused ("" to reuse it)."""
        return ""

    def _complete(self, path: Path, requirements: str, log: PhaseLog) -> None:
        """Mark the venv at ``path`` complete (built and installed)."""
        (path / MARKER).write_text(requirements)

    def _build(self, path: Path, requirements: str, packages_args: list[str], log: PhaseLog,
               timeout: float, cancelled: Callable[[], bool],
               box: InstallBox | None = None) -> VenvResult:
        deadline = time.monotonic() + timeout
        if self.uv:
            create = [self.uv, "venv", "--quiet", "--seed", "--python", sys.executable,
                      str(path)]
        else:
            create = [sys.executable, "-m", "venv", str(path)]
        code = run_logged(create, log, None, _uv_env() if self.uv else None, 120, cancelled)
        if code != 0:
            return VenvResult(False, path, False, code, "could not create virtualenv")
        py = str(path / "bin" / "python")
        with (box.building(path, self.uv, log) if box is not None
              else contextlib.nullcontext(run_logged)) as run:
            code = self._install(run, py, packages_args, log, timeout, deadline, cancelled)
        if code != 0:
            return self._failed(path, code, log, cancelled)
        self._complete(path, requirements, log)
        return VenvResult(True, path, False, 0, "dependencies installed")

    def _install(self, run: Callable[..., int | None], py: str, packages_args: list[str],
                 log: PhaseLog, timeout: float, deadline: float,
                 cancelled: Callable[[], bool]) -> int | None:
        if self.uv:
            code = run([self.uv, "pip", "install", "--python", py, *packages_args],
                       log, None, _uv_env(), timeout, cancelled)
            if code in (0, None):
                return code
            log.meta("uv could not install these requirements; retrying with pip, whose "
                     "verdict counts (the stock harness installs with pip)")
        return run([py, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                    *packages_args], log, None, None, max(1.0, deadline - time.monotonic()),
                   cancelled)

    @staticmethod
    def _failed(path: Path, code: int | None, log: PhaseLog,
                cancelled: Callable[[], bool]) -> VenvResult:
        tail = next((t for t in reversed(log.tail) if "ERROR" in t), "")
        msg = ("cancelled" if cancelled() else "pip install timed out"
               if code is None else f"pip install failed (exit {code})")
        shutil.rmtree(path, ignore_errors=True)
        return VenvResult(False, path, False, code, f"{msg}: {tail}" if tail else msg)
