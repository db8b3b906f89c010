"""A sandbox lives only while its inspector does: a lease renewed by a heartbeat.

Every sandbox container (service and install) runs :data:`WATCHDOG` as its main process (under
Docker's init). It ends the container when the lease file :data:`LEASE_FILE` has not been renewed
for ``idle`` seconds, when the hard wall clock ``lifetime`` is over, or when the command it runs
(the install script) exits. The lease file lives in a root-owned tmpfs (:data:`LEASE_DIR`) that
the sandboxed code cannot write; the inspector renews it from a :class:`Heartbeat` thread
(``touch`` as root, through ``docker exec``) for as long as the session is open. A SIGKILLed
inspector renews nothing, so its sandboxes end within ``idle`` seconds instead of running on
until the wall clock; a service container is created with auto-remove, so it is then gone.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docker.models.containers import Container

LEASE_DIR = "/gi"
LEASE_FILE = f"{LEASE_DIR}/lease"
LEASE_TMPFS = "rw,noexec,nosuid,nodev,size=1m,mode=0755"  # root-owned: only root may renew
EXIT_LEASE, EXIT_WALL_CLOCK = 75, 76  # the watchdog's exit codes when it ends the sandbox

# python3 -I -S -c WATCHDOG LEASE IDLE LIFETIME [CMD...]
WATCHDOG = r"""
import os, sys, time
lease, idle, life, cmd = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
born, t0 = time.time(), time.monotonic()
child = None
if cmd:
    child = os.fork()
    if child == 0:
        os.execvp(cmd[0], cmd)
def say(msg):
    print(f"sandbox watchdog: {msg}", flush=True)
while True:
    if child:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            sys.exit(os.waitstatus_to_exitcode(status))
    try:
        renewed = max(os.stat(lease).st_mtime, born)
    except OSError:
        renewed = born
    quiet = time.time() - renewed
    if quiet > idle:
        say(f"lease not renewed for {quiet:.0f}s (the inspector is gone): ending the sandbox")
        sys.exit(EXIT_LEASE)
    if time.monotonic() - t0 > life:
        say(f"wall clock of {life:.0f}s reached: ending the sandbox")
        sys.exit(EXIT_WALL_CLOCK)
    time.sleep(0.5)
""".replace("EXIT_LEASE", str(EXIT_LEASE)).replace("EXIT_WALL_CLOCK", str(EXIT_WALL_CLOCK))


def watchdog_command(idle: float, lifetime: float, cmd: list[str] | None = None) -> list[str]:
    """The container command: the watchdog (system Python, isolated), optionally running
    ``cmd`` as its child."""
    return ["/usr/bin/python3", "-I", "-S", "-c", WATCHDOG, LEASE_FILE, f"{idle:g}",
            f"{lifetime:g}", *(cmd or [])]


def renew(container: Container) -> bool:
    """Touch the lease (as root: the sandboxed users cannot); False if that failed."""
    try:
        code, _ = container.exec_run(["/usr/bin/touch", LEASE_FILE], user="0:0")
    except Exception:  # noqa: BLE001 - the container is gone or out of processes
        return False
    return code == 0


def heartbeat_interval(idle: float) -> float:
    """How often to renew a lease of ``idle`` seconds: a few renewals may fail in a row."""
    return max(0.5, min(10.0, idle / 5))


class Heartbeat:
    """Renews a container's lease every :func:`heartbeat_interval` until :meth:`stop`."""

    def __init__(self, container: Container, idle: float) -> None:
        self.container = container
        self.interval = heartbeat_interval(idle)
        self.failures = 0
        self._stop = threading.Event()
        renew(container)
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"lease-{container.short_id}")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.failures = 0 if renew(self.container) else self.failures + 1

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(RuntimeError):
            self._thread.join(self.interval + 5)
