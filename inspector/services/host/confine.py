"""A local service in a box of its own: what it can see, write and leave behind.

Three ways to run ``start.sh``, the strongest this machine allows (:func:`isolation`):

* ``uid`` (the inspector runs as root): a new mount and PID namespace (``unshare``) whose init
  is :data:`INIT`. The whole filesystem is remounted read-only there; ``/tmp``, ``/var/tmp``
  and ``/dev/shm`` are fresh private tmpfs; the repo copy is bound back writable (owned by
  ``nobody``), the venv and its interpreter read-only; folders the service must not see (the
  staged golden suite, the private report folder) are covered by an empty tmpfs, and folders
  ``nobody`` could not traverse (``/root`` holding the venv cache, a 0700 session folder) are
  replaced by a tmpfs holding only what the service needs. The service then runs as
  ``nobody`` with every capability dropped and ``no_new_privs`` (``setpriv``).
* ``userns`` (not root, unprivileged user namespaces allowed): the same box inside a user
  namespace; the service keeps the user's own uid (the only one mapped), without capabilities.
* ``none``: the stock process group, plus every descendant tracked (a unique token in the
  environment, the port's owner): teardown still kills a double-forked daemon that keeps
  the port, but the service can write anything the user can.

In a namespace, teardown is exact: killing its init kills every process in it, however it
forked; and the init holds a lifeline pipe to the process that started it, so the service
dies with that process too, however it died (a crashed or killed cluster worker).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.services.host.proctree import (
    alive_pids,
    boot_ticks,
    group_alive,
    kill_all,
    tracked_pids,
)

ENV_MODE = "GENESIS_LOCAL_ISOLATION"
MODES = ("uid", "userns", "none")
TOKEN_VAR = "GENESIS_SERVICE_TOKEN"
SCRATCH = (("/tmp", "1777", "1g"), ("/var/tmp", "1777", "256m"), ("/dev/shm", "1777", "256m"))
NOBODY = "nobody"

# The namespace's init (pid 1). argv[1]: the JSON plan. Prepares the mounts, starts the service
# through setpriv, reaps every process of the namespace, reports the start command's exit on
# the status pipe (``exit N``), and exits once nothing of the service is left.
INIT = r"""
import ctypes, json, os, re, signal, sys
plan = json.loads(sys.argv[1])
status = plan["status_fd"]
os.set_inheritable(status, False)
def say(kind, text):
    try:
        os.write(status, f"{kind} {text}\n".encode())
    except OSError:
        pass
libc = ctypes.CDLL(None, use_errno=True)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND = 1, 2, 4, 8, 32, 4096
ST_TO_MS = {2: 2, 4: 4, 8: 8, 1024: 1024, 2048: 2048, 4096: 1 << 21}
def mount(src, tgt, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None
    if libc.mount(enc(src), enc(tgt), enc(fstype), flags, enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {tgt}: {os.strerror(err)}")
def remount(path, ro):
    # a bind remount changes this namespace's mount only, never the file system; the flags a
    # user namespace locked (nosuid, nodev, atime) are kept
    kept = os.statvfs(path).f_flag
    flags = sum(ms for st, ms in ST_TO_MS.items() if kept & st)
    mount(None, path, None, MS_REMOUNT | MS_BIND | flags | (MS_RDONLY if ro else 0))
def mountpoints():
    with open("/proc/self/mountinfo") as fh:
        points = [line.split()[4] for line in fh]
    return [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), p) for p in points]
try:
    fds = {src: os.open(src, os.O_PATH | os.O_DIRECTORY) for _, src, _ in plan["binds"]}
    for point in mountpoints():
        if point.split("/")[1] in ("proc", "sys", "dev"):
            continue
        try:
            remount(point, True)
        except OSError as exc:
            if point == "/":
                raise
            say("note", f"left {point} as it was ({exc.strerror})")
    for path in plan["hide"]:
        if os.path.isdir(path):
            mount("gi-hidden", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "size=4k,mode=000")
    for path, mode, size in plan["fresh"]:
        if os.path.isdir(path):
            mount("gi-box", path, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={mode},size={size}")
    for path, src, writable in plan["binds"]:
        if path != src and os.path.realpath(path) == src:
            continue
        os.makedirs(path, exist_ok=True)
        mount(f"/proc/self/fd/{fds[src]}", path, None, MS_BIND)
        remount(path, not writable)
    for fd in fds.values():
        os.close(fd)
    home = plan["home"]
    os.makedirs(home, exist_ok=True)
    if plan["uid"] is not None:
        os.chown(home, plan["uid"], plan["gid"])
    os.chmod(home, 0o700)
    for name, target in plan.get("home_links", {}).items():
        os.symlink(target, os.path.join(home, name))
except Exception as exc:
    say("error", f"could not prepare the service's namespace: {exc}")
    os._exit(125)
signal.signal(signal.SIGTERM, lambda *_: os.kill(-1, signal.SIGTERM))
lifeline = plan.get("lifeline_fd")
if lifeline is not None:
    # the other end is held by the process that started the service: when it dies, however
    # (a crashed or killed worker), the read ends and the whole namespace goes with it
    import threading
    os.set_inheritable(lifeline, False)
    def watch():
        try:
            while os.read(lifeline, 1):
                pass
        except OSError:
            pass
        os.kill(-1, signal.SIGKILL)
        os._exit(137)
    threading.Thread(target=watch, daemon=True).start()
pid = os.fork()
if pid == 0:
    try:
        os.chdir(plan["cwd"])
        os.execv(plan["argv"][0], plan["argv"])
    except OSError as exc:
        os.write(2, f"could not start {plan['argv'][-1]}: {exc}\n".encode())
    os._exit(127)
code = 0
while True:
    try:
        child, st = os.wait()
    except ChildProcessError:
        break
    if child == pid:
        code = os.waitstatus_to_exitcode(st)
        say("exit", code)
os._exit(code if code >= 0 else 128 - code)
"""


@dataclass
class Box:
    """What the service may see: ``writable`` (the repo copy), ``readable`` (its venv and
    interpreter) and ``hidden`` (folders it must not see at all). ``keep_uid``: in ``uid``
    mode, run as the inspector's user (still without capabilities, on the read-only file
    system) — Maven reads a ``~/.m2`` only that user can read."""

    writable: list[Path] = field(default_factory=list)
    readable: list[Path] = field(default_factory=list)
    hidden: list[Path] = field(default_factory=list)
    keep_uid: bool = False
    # names in the service's private home linked to folders it may read (Java: ``.m2``, so a
    # start.sh reading ``$HOME/.m2/repository`` finds what Maven resolved)
    home_links: dict[str, str] = field(default_factory=dict)


_probed: dict[str, bool] = {}
_probe_lock = threading.Lock()


def isolation(requested: str | None = None) -> str:
    """The mode to use: ``requested`` (or ``$GENESIS_LOCAL_ISOLATION``) if set and not
    ``auto``, else the strongest this machine supports."""
    choice = (requested or os.environ.get(ENV_MODE, "") or "auto").strip().lower()
    if choice in MODES:
        return choice
    if choice != "auto":
        raise ValueError(f"{ENV_MODE}={choice!r}: expected auto, uid, userns or none")
    if os.geteuid() == 0 and _works("uid"):
        return "uid"
    if _works("userns"):
        return "userns"
    return "none"


def available() -> list[str]:
    """The modes this machine supports, strongest first (``none`` always)."""
    uid = ["uid"] if os.geteuid() == 0 and _works("uid") else []
    return [*uid, *(["userns"] if _works("userns") else []), "none"]


def _works(mode: str) -> bool:
    with _probe_lock:
        if mode not in _probed:
            _probed[mode] = _probe(mode)
        return _probed[mode]


def _probe(mode: str) -> bool:
    tools = [shutil.which("unshare"), shutil.which("setpriv")]
    if None in tools:
        return False
    cmd = [tools[0] or "unshare", *_unshare_flags(mode), tools[1] or "setpriv",
           *_setpriv_flags(mode, _nobody()), "--", "true"]
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _unshare_flags(mode: str) -> list[str]:
    user = ["--user", "--map-root-user"] if mode == "userns" else []
    return [*user, "--mount", "--pid", "--fork", "--kill-child", "--mount-proc",
            "--propagation", "private"]


def _setpriv_flags(mode: str, ids: tuple[int, int]) -> list[str]:
    who = [f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups"] if mode == "uid" else []
    return [*who, "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all",
            "--no-new-privs"]


def _nobody() -> tuple[int, int]:
    try:
        pw = pwd.getpwnam(NOBODY)
        return pw.pw_uid, pw.pw_gid
    except KeyError:
        return 65534, 65534


def describe(mode: str, keep_uid: bool = False) -> str:
    """One line for the start log: how the service is isolated."""
    if mode == "uid":
        who = "this user" if keep_uid else "nobody"
        return ("isolation: own mount and PID namespace, read-only file system except the repo "
                "copy and a private /tmp, golden tests and report hidden; runs as "
                f"{who} without capabilities")
    if mode == "userns":
        return ("isolation: own user, mount and PID namespace, read-only file system except "
                "the repo copy and a private /tmp, golden tests and report hidden; runs "
                "without capabilities as this user")
    return ("isolation: NONE — no namespaces here (unshare unavailable or not permitted); the "
            "service runs as this user in a process group, every descendant tracked for "
            "teardown; it is not isolated")


def give_to_service(root: Path, mode: str, box: Box) -> None:
    """Make ``root`` (the repo copy) the service's own: owned by ``nobody`` in ``uid`` mode."""
    if mode != "uid" or box.keep_uid:
        return
    uid, gid = _nobody()
    for dirpath, dirnames, filenames in os.walk(root):
        os.lchown(dirpath, uid, gid)
        for name in dirnames + filenames:
            os.lchown(os.path.join(dirpath, name), uid, gid)


def take_back(root: Path) -> None:
    """Make ``root`` (a venv built in the box) the inspector's own again, without setuid or
    setgid bits: nothing run as ``nobody`` later can change it."""
    uid, gid = os.geteuid(), os.getegid()
    for dirpath, dirnames, filenames in os.walk(root):
        for path in [dirpath, *(os.path.join(dirpath, n) for n in dirnames + filenames)]:
            os.lchown(path, uid, gid)
            st = os.lstat(path)
            if st.st_mode & 0o6000 and not os.path.islink(path):
                os.chmod(path, st.st_mode & 0o1777)


def interpreter_home(venv: Path) -> list[Path]:
    """The base interpreter's installation a venv runs on (``home`` in ``pyvenv.cfg``)."""
    try:
        text = (venv / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            home = Path(os.path.realpath(value.strip()))
            return [home.parent if home.name == "bin" else home]
    return []


class Service:
    """A started ``start.sh`` (or fallback command) and everything it spawns."""

    def __init__(self, cmd: list[str], cwd: Path, env: dict[str, str], box: Box, mode: str,
                 note: Callable[[str], None] = lambda m: None) -> None:
        self.mode = mode
        self.note = note
        self.token = secrets.token_hex(12)
        self._exit: int | None = None
        self.setup_error = ""  # the namespace could not be prepared (not the repo's fault)
        self._status_done = threading.Event()
        self._lifeline: int | None = None
        env = dict(env)
        env[TOKEN_VAR] = self.token
        self.started = boot_ticks()  # tracked_pids compares /proc start times, in ticks
        if mode == "none":
            self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
            self._status_done.set()
            return
        env = {k: v for k, v in env.items() if not k.startswith("XDG_")}
        env["HOME"] = "/tmp/home"
        ids = _nobody()
        drop = mode == "uid" and not box.keep_uid
        r, w = os.pipe()
        life_r, self._lifeline = os.pipe()  # ours stays open while this process lives
        plan = {"status_fd": w, "lifeline_fd": life_r, "cwd": str(cwd), "home": "/tmp/home",
                "uid": ids[0] if drop else None, "gid": ids[1] if drop else None,
                "hide": [str(p) for p in box.hidden], "home_links": box.home_links,
                **_layout(box, ids if drop else None),
                "argv": [shutil.which("setpriv") or "setpriv",
                         *_setpriv_flags("uid" if drop else "userns", ids), "--", *cmd]}
        try:
            self.proc = subprocess.Popen(
                [shutil.which("unshare") or "unshare", *_unshare_flags(mode), sys.executable,
                 "-I", "-S", "-c", INIT, json.dumps(plan)],
                cwd="/", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL, start_new_session=True, pass_fds=(w, life_r))
        except BaseException:
            os.close(self._lifeline)
            self._lifeline = None
            raise
        finally:
            os.close(w)
            os.close(life_r)
        threading.Thread(target=self._read_status, args=(r,), daemon=True,
                         name=f"service-status-{self.proc.pid}").start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read_status(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as fh:
            for raw in fh:
                kind, _, text = raw.decode(errors="replace").strip().partition(" ")
                if kind == "exit":
                    with contextlib.suppress(ValueError):
                        self._exit = int(text)
                elif kind in ("note", "error"):
                    self.note(text)
                    if kind == "error":
                        self.setup_error = text
        self._status_done.set()

    def exited(self) -> int | None:
        """The start command's exit code once it exited (its children may live on)."""
        if self.mode == "none":
            return self.proc.poll()
        if self._exit is not None:
            return self._exit
        if self.proc.poll() is not None:  # init is gone: so is everything
            self._status_done.wait(1.0)
            return self._exit if self._exit is not None else self.proc.returncode
        return None

    def alive(self) -> bool:
        """True while any process of the deployment runs (zombies do not count)."""
        if self.mode != "none":
            return self.proc.poll() is None
        if self.proc.poll() is None or group_alive(self.proc.pid):
            return True
        return bool(alive_pids(self._tracked()))

    def pids(self) -> set[int]:
        """Host pids of every live process of the deployment (in ``none`` mode: those
        tracked)."""
        if self.mode == "none":
            return alive_pids(self._tracked() | {self.proc.pid})
        init = self._init_pid()
        if init is None:
            return set()
        try:
            ns = os.readlink(f"/proc/{init}/ns/pid")
        except OSError:
            return set()
        out = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if os.readlink(entry / "ns" / "pid") == ns:
                        out.add(int(entry.name))
        return alive_pids(out) - {init}

    def _tracked(self) -> set[int]:
        return tracked_pids(self.proc.pid, self.token, self._port, self.started)

    _port: int | None = None

    def watch_port(self, port: int) -> None:
        """Count the owner of ``port`` as part of the service (``none`` mode)."""
        self._port = port

    def stop(self, grace: float = 3.0) -> None:
        """SIGTERM everything, SIGKILL what is left after ``grace`` seconds."""
        if self.mode == "none":
            kill_all(lambda: self._tracked() | {self.proc.pid}, self.proc.pid, grace)
        else:
            init = self._init_pid()
            if init is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(init, signal.SIGTERM)
                deadline = time.monotonic() + grace
                while self.proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                # the namespace's init dies, and with it every process of the namespace
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(init, signal.SIGKILL)
            if self.proc.poll() is None and self._init_pid() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        if self._lifeline is not None and self.proc.poll() is not None:
            os.close(self._lifeline)
            self._lifeline = None

    def _init_pid(self) -> int | None:
        pid = self.proc.pid
        try:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            return None
        return int(kids[0]) if kids else None


def _layout(box: Box, ids: tuple[int, int] | None) -> dict[str, list[list[str | bool]]]:
    """The tmpfs to mount (``fresh``: path, mode, size) and the folders to bind into the box
    (``binds``: path, source, writable), parents first; ``ids``: the uid and gid the service
    will run as, if not the inspector's."""
    fresh: dict[str, tuple[str, str]] = {p: (m, s) for p, m, s in SCRATCH}
    binds: dict[str, tuple[str, bool]] = {}
    wanted = [(p, True) for p in box.writable] + [(p, False) for p in box.readable]
    for given, writable in wanted:
        real = os.path.realpath(given)
        # a path reached through a symlink is bound there too when the symlink is not in the
        # box (env paths, shebangs and pyvenv.cfg may name either)
        for where in dict.fromkeys([real, os.path.abspath(given)]):
            top = next((s for s in fresh if _under(Path(where), Path(s))), None)
            if top is None and ids is not None:
                blocked = _blocked_ancestor(Path(where), ids[0])
                if blocked is not None:
                    top = str(blocked)
                    fresh.setdefault(top, ("0755", "16m"))
            if top is None and where != real:
                continue  # the symlink, on the read-only root, leads to the real path
            if top is not None or writable:
                before = binds.get(where, (real, False))
                binds[where] = (real, writable or before[1])
    return {"fresh": [[p, m, s] for p, (m, s) in fresh.items()],
            "binds": [[p, src, w] for p, (src, w) in sorted(binds.items(),
                                                             key=lambda i: len(i[0]))]}


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _blocked_ancestor(path: Path, uid: int) -> Path | None:
    """The outermost folder on the way to ``path`` that ``uid`` cannot traverse."""
    for folder in [*reversed(path.parents), path][1:]:
        try:
            st = folder.stat()
        except OSError:
            return None
        if st.st_uid != uid and not st.st_mode & 0o001:
            return folder
    return None
