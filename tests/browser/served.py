"""Driving ``inspector serve`` in a real browser: the server as a subprocess, the terminal's
text as xterm.js holds it, keys typed into it, the app processes a server started.

textual-serve's page draws on a canvas, so the text is read from the xterm.js ``Terminal``
the page script creates: :data:`CAPTURE` (an init script) keeps a reference to it (and to
the page script's session object that owns it) as it is made, and :func:`screen_text` reads
its visible rows through xterm's public buffer API — the characters the canvas shows.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.procs import alive, children

CAPTURE = """
(() => {
  window.__terminals = [];
  window.__sessions = [];
  Object.defineProperty(Object.prototype, 'terminal', {
    configurable: true,
    set(value) {
      Object.defineProperty(this, 'terminal', {value, writable: true, configurable: true,
                                               enumerable: true});
      if (value && value.buffer) {
        window.__terminals.push(value);
        window.__sessions.push(this);  // the page script's session object (connect())
      }
    },
  });
})();
"""

_TEXT = """() => {
  const t = (window.__terminals || [])[0];
  if (!t) return '';
  const b = t.buffer.active, rows = [];
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    rows.push(line ? line.translateToString(true) : '');
  }
  return rows.join('\\n');
}"""

SERVE_TIMEOUT = 30.0


def screen_text(page: Any) -> str:
    """The terminal's visible rows, as text."""
    return str(page.evaluate(_TEXT))


def wait_for_text(page: Any, *wanted: str, timeout: float = 60.0) -> str:
    """Poll the terminal until every string in ``wanted`` is on screen; the screen text."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen_text(page)
        if all(w in text for w in wanted):
            return text
        time.sleep(0.1)
    raise AssertionError(f"not on screen after {timeout:.0f}s: {wanted!r}\n--- screen ---\n{text}"
                         f"\n--- machine ---\n{machine_state()}")


def machine_state() -> str:
    """Load and the processes busiest over half a second: whether a missed screen was a
    starved machine."""
    with open("/proc/loadavg") as fh:
        load = fh.read().strip()
    top = subprocess.run(["top", "-b", "-c", "-n", "2", "-d", "0.5", "-o", "%CPU", "-w", "160"],
                         capture_output=True, text=True, check=False).stdout
    last = top.rsplit("\ntop - ", 1)[-1].splitlines()
    start = next((i for i, line in enumerate(last) if "PID" in line and "COMMAND" in line), 0)
    return f"load {load}\n" + "\n".join(last[start:start + 12])


def press(page: Any, *keys: str, pause: float = 0.25) -> None:
    """Keys into the terminal (``type:TEXT`` types TEXT); the terminal is focused first."""
    page.focus(".xterm-helper-textarea")
    for key in keys:
        if key.startswith("type:"):
            page.keyboard.type(key[5:])
        else:
            page.keyboard.press(key)
        time.sleep(pause)


def until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s: {what}")
        time.sleep(0.1)


@dataclass
class Served:
    """A running ``inspector serve``: its process, the printed URL, when it was started."""

    process: subprocess.Popen[str]
    url: str
    started: float
    app_pids: set[int] = field(default_factory=set)

    @property
    def base(self) -> str:
        return self.url.split("?", 1)[0].rstrip("/")

    @property
    def path(self) -> str:
        """The server's own random path (``/…/``), where its page and cookies live."""
        return urlsplit(self.url).path

    def as_annotator(self, context: Any, name: str = "tester") -> None:
        """The browser has answered the annotator form already (it is asked once)."""
        context.add_cookies([{"name": "inspector_annotator", "value": name,
                              "domain": urlsplit(self.url).hostname, "path": self.path}])

    def sessions(self) -> list[int]:
        """The app processes running now (remembered, to check none outlives the server)."""
        now = children(self.process.pid)
        self.app_pids.update(now)
        return now


@contextmanager
def serve(root: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``inspector serve ROOT --port 0 ARGS`` until the block ends; then the server is stopped
    (SIGTERM, SIGKILL if it must) and no app process it started may be left running."""
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", "serve", str(root), "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **(env or {})})
    served: Served | None = None
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if " at http://" not in line:
            proc.kill()
            raise AssertionError(f"serve did not start: {line!r} {proc.communicate()[1]!r}")
        served = Served(proc, line.split(" at ", 1)[1].strip(), t0)
        yield served
    finally:
        if served is not None:
            served.sessions()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=SERVE_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        left = [p for p in (served.app_pids if served else ()) if alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"app processes outlived the server: {left}"
