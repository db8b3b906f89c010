"""Sessions: at most ``max_sessions`` app processes, each ended (and reaped) with its tab.

:class:`AppProcess` is textual-serve's :class:`~textual_serve.app_service.AppService` with the
process started without a shell (an argument vector), in its own process group, and asked to
die with the server (``PR_SET_PDEATHSIG`` on Linux), so a killed server leaves nothing behind.
:meth:`AppProcess.end` asks the app to quit, then terminates, then kills its process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

QUIT_GRACE = 20.0
"""Seconds an app has to quit by itself (it stops its deployments first)."""
TERM_GRACE = 3.0
"""Seconds between SIGTERM and SIGKILL."""


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the server dies, however it dies."""
    if sys.platform.startswith("linux"):
        # Linux only: prctl
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class AppProcess(AppService):
    """One browser tab's app process."""

    def __init__(self, argv: list[str], *, write_bytes: Callable[[bytes], Awaitable[None]],
                 write_str: Callable[[str], Awaitable[None]],
                 close: Callable[[], Awaitable[None]],
                 download_manager: DownloadManager) -> None:
        super().__init__(" ".join(argv), write_bytes=write_bytes, write_str=write_str,
                         close=close, download_manager=download_manager)
        self.argv = argv

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True,
            preexec_fn=_die_with_parent)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def end(self, quit_grace: float = QUIT_GRACE) -> None:
        """Quit the app; after ``quit_grace`` s terminate its process group, then kill it.
        Returns once the process is reaped."""
        process = self._process
        with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
            await asyncio.wait_for(self.stop(), quit_grace)
        if process is None:
            return
        for sig, wait in ((signal.SIGTERM, TERM_GRACE), (signal.SIGKILL, None)):
            if process.returncode is not None:
                break
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            try:
                await asyncio.wait_for(process.wait(), wait)
            except TimeoutError:
                continue
        await process.wait()
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class SessionLimit:
    """At most ``most`` sessions at once; :meth:`take` says whether one more may start."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"--max-sessions {most}: must be at least 1")
        self.most = most
        self.live: set[AppProcess] = set()
        self._reserved = 0

    @property
    def in_use(self) -> int:
        return self._reserved

    @property
    def full(self) -> bool:
        return self._reserved >= self.most

    def take(self) -> bool:
        """Reserve a place (``False`` when all are in use)."""
        if self.full:
            return False
        self._reserved += 1
        return True

    def give_back(self) -> None:
        self._reserved = max(0, self._reserved - 1)

    async def end_all(self) -> None:
        """End every live session (server shutdown)."""
        await asyncio.gather(*(s.end(quit_grace=5.0) for s in list(self.live)),
                             return_exceptions=True)
