"""Waiting for a Textual app under test, in one place: every UI, snapshot and hostile-file test
waits through these two, so a machine under load needs one fix here, not one per test file."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual.worker import WorkerCancelled

UNTIL_TIMEOUT = 60.0
"""Seconds :func:`until` waits by default: generous, a loaded CI machine is slow, and a
condition that holds returns at once."""


async def _workers_done(app: Any, pilot: Any) -> bool:
    """Wait for every worker; False when one was cancelled five times over (an exclusive worker
    replaced by a newer one is not an error, the newer one is then waited for)."""
    for _ in range(5):
        try:
            await app.workers.wait_for_complete()
            return True
        except WorkerCancelled:
            await pilot.pause(0.05)
    return False


async def settle(app: Any, pilot: Any, rounds: int = 3, still: int = 0) -> None:
    """Until every worker (indexing, health, highlighting) is done and the screen drew, ``rounds``
    times over (a worker's result may start another). With ``still``, then until ``still``
    renders in a row, 0.1 s apart, are the same (at most 9 s): on a loaded machine a table's
    columns are still being measured when the workers are done (snapshots need this)."""
    for _ in range(rounds):
        await _workers_done(app, pilot)
        await pilot.pause()
    if not still:
        return
    last, same = None, 0
    for _ in range(90):
        await pilot.pause(0.1)
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        now = app.export_screenshot()
        same = same + 1 if now == last else 0
        if same >= still - 1:
            return
        last = now


async def until(pilot: Any, condition: Callable[[], object], what: str = "the condition",
                timeout: float = UNTIL_TIMEOUT, step: float = 0.1, drain: bool = False) -> None:
    """Poll ``condition`` every ``step`` s while the app runs (workers keep posting, so no
    settle here); fail naming ``what`` after ``timeout`` s. Then let the screen draw once.
    ``drain``: each poll also lets the screen process its pending messages (``pilot.pause``)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        await (pilot.pause(step) if drain else asyncio.sleep(step))
    if pilot.app.is_running:
        await pilot.pause()
