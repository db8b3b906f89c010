"""Running commands inside a sandbox container: streamed output, a wall clock, cancellation.

Every command runs in its own session (``setsid -w``) under ``timeout -s KILL`` and records its
process-group id in a pid file, so a cancel or a stop kills exactly that command's process tree.
The harness's own tools are named by absolute path (the image's ``PATH`` starts with the repo's
environment, whose install step could have put a ``timeout`` or ``tar`` there).
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.services.logs.line_buffer import LineBuffer
from inspector.services.sandbox.docker_api import api_of, exec_frames, raw_socket

if TYPE_CHECKING:
    from docker.models.containers import Container

Sink = Callable[[str, str], None]
"""``(stream, line)`` with stream ``out`` or ``err``."""
LinesSink = Callable[[str, list[str]], None]
"""``(stream, lines)``: the lines one chunk of output completed (cheaper for a flood)."""

_WRAP = ('umask "$GI_UMASK"; echo $$ > "/tmp/gi-exec-$GI_TOKEN.pid"; '
         'exec /usr/bin/timeout -s KILL "$GI_LIMIT" "$@"')
SETSID, BASH = "/usr/bin/setsid", "/bin/bash"


def _lines(sink: Sink, lines_sink: LinesSink | None, stream: str) -> LineBuffer:
    """A bounded, linear-time line splitter feeding ``stream``'s lines to ``lines_sink``
    (a chunk's lines at once) or else to ``sink`` (one by one)."""
    if lines_sink is not None:
        return LineBuffer(lambda texts: lines_sink(stream, texts))
    return LineBuffer.each(lambda text: sink(stream, text))


@dataclass
class ExecHandle:
    """A command started in a container; ``wait`` for its exit code, ``kill`` to stop it."""

    container: Container
    exec_id: str
    token: str
    thread: threading.Thread
    error: str | None = None
    user: str = "1000:1000"

    def running(self) -> bool:
        return self.thread.is_alive()

    def exit_code(self) -> int | None:
        info = api_of(self.container).exec_inspect(self.exec_id)
        return None if info.get("Running") else info.get("ExitCode")

    def pgid(self) -> int | None:
        code, out = self.container.exec_run(
            ["/usr/bin/cat", f"/tmp/gi-exec-{self.token}.pid"], user=self.user)
        text = out.decode(errors="replace").strip() if code == 0 and isinstance(out, bytes) \
            else ""
        return int(text) if text.isdigit() else None

    def kill(self) -> None:
        """SIGKILL the command's whole process group (best effort: the container may be gone).

        Sent as the command's own user: the sandbox has no capabilities, so root could not."""
        with contextlib.suppress(Exception):
            pgid = self.pgid()
            if pgid:
                self.container.exec_run(["/usr/bin/kill", "-KILL", "--", f"-{pgid}"],
                                        user=self.user)

    def wait(self, timeout: float, cancel: threading.Event | None = None) -> int | None:
        """The exit code; None when cancelled or not finished after ``timeout`` (then killed)."""
        deadline = time.monotonic() + timeout
        while self.thread.is_alive():
            if (cancel is not None and cancel.is_set()) or time.monotonic() > deadline:
                self.kill()
                self.thread.join(5)
                return None
            self.thread.join(0.1)
        if self.error:
            return None
        return self.exit_code()


def start_exec(container: Container, cmd: list[str], sink: Sink, *, limit: float,
               env: dict[str, str] | None = None, workdir: str = "/repo",
               user: str = "1000:1000", lines_sink: LinesSink | None = None,
               umask: str = "022") -> ExecHandle:
    """Start ``cmd`` in ``container`` with its output streamed line by line into ``sink``
    (or, given ``lines_sink``, a chunk's lines at once into that)."""
    token = secrets.token_hex(6)
    full_env = dict(env or {})
    full_env.update({"GI_TOKEN": token, "GI_LIMIT": str(max(1, int(limit))), "GI_UMASK": umask})
    api = api_of(container)
    exec_id = api.exec_create(container.id, [SETSID, "-w", BASH, "-c", _WRAP, "gi", *cmd],
                              stdout=True, stderr=True, environment=full_env, workdir=workdir,
                              user=user)["Id"]
    out, err = _lines(sink, lines_sink, "out"), _lines(sink, lines_sink, "err")
    handle: ExecHandle

    def pump() -> None:
        try:
            for o, e in api.exec_start(exec_id, stream=True, demux=True):
                out.feed(o)
                err.feed(e)
        except Exception as exc:  # noqa: BLE001 - the container was removed under us
            handle.error = f"{type(exc).__name__}: {exc}"
        out.flush()
        err.flush()

    thread = threading.Thread(target=pump, daemon=True, name=f"exec-{token}")
    handle = ExecHandle(container, exec_id, token, thread, user=user)
    thread.start()
    return handle


def run_exec(container: Container, cmd: list[str], sink: Sink, *, limit: float,
             env: dict[str, str] | None = None, cancel: threading.Event | None = None,
             workdir: str = "/repo", user: str = "1000:1000",
             lines_sink: LinesSink | None = None, umask: str = "022") -> int | None:
    """Run ``cmd`` to the end (or until ``limit``/``cancel``); None means killed."""
    handle = start_exec(container, cmd, sink, limit=limit, env=env, workdir=workdir, user=user,
                        lines_sink=lines_sink, umask=umask)
    return handle.wait(limit + 10, cancel)


class ExecFailed(RuntimeError):
    """A harness command inside the sandbox could not run or did not finish in time."""


def exec_io(container: Container, cmd: list[str], *, user: str, stdin: bytes | None = None,
            timeout: float = 60.0, max_out: int = 64 * 2**20, workdir: str = "/"
            ) -> tuple[int | None, bytes, bytes]:
    """Run a harness command to the end: ``stdin`` streamed in, ``(exit code, stdout,
    stderr)`` out (stdout cut at ``max_out`` bytes).

    The way into and out of the sandbox's tmpfs folders and read-only root (``put_archive``
    and ``get_archive`` see neither): e.g. ``tar -x`` fed through stdin.
    """
    api = api_of(container)
    exec_id = api.exec_create(container.id, cmd, stdin=stdin is not None, stdout=True,
                              stderr=True, user=user, workdir=workdir)["Id"]
    sock = api.exec_start(exec_id, socket=True)
    raw = raw_socket(sock)
    raw.settimeout(timeout)
    failure: list[str] = []

    def feed() -> None:
        try:
            if stdin:
                view = memoryview(stdin)
                for at in range(0, len(view), 1 << 20):
                    raw.sendall(view[at:at + (1 << 20)])
            raw.shutdown(socket.SHUT_WR)
        except OSError as exc:
            failure.append(f"{type(exc).__name__}: {exc}")

    writer = threading.Thread(target=feed, daemon=True, name="exec-stdin")
    writer.start()
    out, err = bytearray(), bytearray()
    try:
        for stream, data in exec_frames(sock):
            if stream == 1:
                if len(out) < max_out:
                    out += data[:max_out - len(out)]
            elif len(err) < 65536:
                err += data
    except OSError as exc:
        raise ExecFailed(f"{cmd[0]}: {type(exc).__name__}: {exc}") from None
    finally:
        writer.join(timeout)
        with contextlib.suppress(OSError):
            raw.close()
    info = api.exec_inspect(exec_id)
    code = None if info.get("Running") else info.get("ExitCode")
    return code, bytes(out), bytes(err)


def follow_logs(container: Container, write: Callable[[str], None],
                cancel: threading.Event, timeout: float) -> str | None:
    """Copy a started container's output into ``write`` line by line until it exits.

    Returns None when it exited by itself; otherwise the container is killed and the reason
    (``cancelled`` or ``timed out after Ns``) is returned.
    """
    lines = LineBuffer.each(write)
    done = threading.Event()

    def pump() -> None:
        try:
            for chunk in container.logs(stream=True, follow=True):
                lines.feed(chunk)
        except Exception:  # noqa: BLE001 - the container went away: nothing more to read
            pass
        lines.flush()
        done.set()

    threading.Thread(target=pump, daemon=True, name=f"logs-{container.short_id}").start()
    deadline = time.monotonic() + timeout
    while not done.wait(0.2):
        if cancel.is_set() or time.monotonic() > deadline:
            with contextlib.suppress(Exception):
                container.kill()
            return "cancelled" if cancel.is_set() else f"timed out after {timeout:.0f}s"
    return None
