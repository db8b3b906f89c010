"""Sessions: at most ``max_sessions`` tabs at once, each app process ended (and reaped) with
its tab.

A place (:class:`Slot`) is held by one tab's open socket and given back when the socket closes;
a tab that reconnects (a reload: the page keeps a per-tab id, :data:`TAB_ID`) takes its own
place back, and its old socket is closed.

:class:`AppProcess` is textual-serve's :class:`~textual_serve.app_service.AppService` with the
process started without a shell (an argument vector), in its own process group, and asked to
die with the server (``PR_SET_PDEATHSIG`` on Linux), so a killed server leaves nothing behind.
:meth:`AppProcess.end` asks the app to quit, then terminates, then kills its process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

QUIT_GRACE = 20.0
"""Seconds an app has to quit by itself (it stops its deployments first)."""
TERM_GRACE = 3.0
"""Seconds between SIGTERM and SIGKILL."""
CLOSE_GRACE = 0.75
"""Seconds a socket beyond the cap waits for a place: a tab's old socket may close just after
its new one opened (reload)."""
TAB_ID = re.compile(r"^[0-9a-f]{32}$")
"""The page's per-tab id (random, kept across a reload of that tab only)."""


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
                 download_manager: DownloadManager,
                 env: dict[str, str] | None = None) -> None:
        super().__init__(" ".join(argv), write_bytes=write_bytes, write_str=write_str,
                         close=close, download_manager=download_manager)
        self.argv = argv
        self.env = env or {}

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = {**self._build_environment(width=width, height=height), **self.env}
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


@dataclass(eq=False)
class Slot:
    """One place, held by one tab's socket: ``tab`` the page's id, ``browser`` its browser's."""

    tab: str | None = None
    browser: str | None = None
    end: Callable[[], Awaitable[object]] | None = None
    """Closes the socket that holds it (when the same tab reconnects)."""


class SessionLimit:
    """At most ``most`` tabs at once; :meth:`acquire` gives a place or says none is free."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"--max-sessions {most}: must be at least 1")
        self.most = most
        self.live: set[AppProcess] = set()
        self.held: list[Slot] = []
        self._freed = asyncio.Event()
        self._closing: set[asyncio.Task[object]] = set()

    @property
    def in_use(self) -> int:
        return len(self.held)

    @property
    def full(self) -> bool:
        return len(self.held) >= self.most

    def holds(self, browser: str | None) -> bool:
        """Whether a tab of ``browser`` holds a place (its reload will get one)."""
        return browser is not None and any(s.browser == browser for s in self.held)

    async def acquire(self, tab: str | None = None, browser: str | None = None,
                      wait: float = CLOSE_GRACE) -> Slot | None:
        """A place for ``tab``: its own old one if it holds one (the old socket is closed),
        else a free one, waiting up to ``wait`` s for one to be given back; ``None`` when
        all stay in use."""
        old = next((s for s in self.held if tab is not None and s.tab == tab), None)
        if old is not None:
            self.give_back(old)
            if old.end is not None:
                closing = asyncio.ensure_future(old.end())
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while self.full:
            left = deadline - loop.time()
            if left <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._freed.wait(), left)
        slot = Slot(tab, browser)
        self.held.append(slot)
        return slot

    def give_back(self, slot: Slot) -> None:
        """The place is free again (once; a place handed over is not given back twice)."""
        if slot in self.held:
            self.held.remove(slot)
            freed, self._freed = self._freed, asyncio.Event()
            freed.set()

    async def end_all(self) -> None:
        """End every live session (server shutdown)."""
        await asyncio.gather(*(s.end(quit_grace=5.0) for s in list(self.live)),
                             return_exceptions=True)
