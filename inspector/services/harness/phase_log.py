"""Writing per-phase logs: every line gets a timestamp the moment it is read."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from inspector.model.logs import LogLine, format_log_line, parse_log_line

MAX_LINE_CHARS = 64 * 1024


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class PhaseLog:
    """Append-only, thread-safe writer of one phase's log file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = path.open("a", encoding="utf-8", errors="replace")
        self._lock = threading.Lock()
        self.lines = 0
        self.tail: list[str] = []

    def write(self, text: str, stream: str = "out") -> None:
        if len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + f" … [{len(text) - MAX_LINE_CHARS} chars cut]"
        self.write_line(LogLine(now_iso(), stream, text))

    def write_line(self, line: LogLine) -> None:
        """Append a line as it is (its own timestamp)."""
        with self._lock:
            self._append(line)

    def _append(self, line: LogLine) -> None:
        if self._fh.closed:
            return
        self._fh.write(format_log_line(line) + "\n")
        self._fh.flush()
        self.lines += 1
        self.tail.append(line.text)
        if len(self.tail) > 200:
            del self.tail[:100]

    def meta(self, text: str) -> None:
        self.write(text, "meta")

    def pump(self, stream: IO[bytes], name: str) -> threading.Thread:
        """Copy a process pipe into this log on a daemon thread, line by line."""

        def run() -> None:
            try:
                for raw in iter(stream.readline, b""):
                    self.write(raw.decode("utf-8", errors="replace").rstrip("\r\n"), name)
            except (OSError, ValueError):
                pass

        t = threading.Thread(target=run, name=f"pump-{self.path.stem}-{name}", daemon=True)
        t.start()
        return t

    def close(self) -> None:
        with self._lock:
            if not self._fh.closed:
                self._fh.close()


def read_output(path: Path, limit: int = 200_000) -> list[str]:
    """The out/err lines of a phase log (the harness's own meta lines left out), at most the
    last ``limit`` of them; [] when the log cannot be read."""
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            lines = [parse_log_line(raw) for raw in fh]
    except OSError:
        return []
    return [ln.text for ln in lines if ln.stream != "meta"][-limit:]


class SectionLog(PhaseLog):
    """A log section written while another command writes the same log: its lines (each
    timestamped when read) are kept in memory and appended in one piece by :meth:`flush_to`,
    so two commands running at once never interleave their output."""

    def __init__(self, path: Path) -> None:  # noqa: D107 - ``path`` is the log it joins
        self.path = path
        self._lock = threading.Lock()
        self.lines = 0
        self.tail = []
        self._held: list[LogLine] = []

    def _append(self, line: LogLine) -> None:
        self._held.append(line)
        self.lines += 1
        self.tail.append(line.text)

    def flush_to(self, log: PhaseLog) -> None:
        with self._lock:
            held, self._held = self._held, []
        with log._lock:
            for line in held:
                log._append(line)

    def close(self) -> None:
        pass
