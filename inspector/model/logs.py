"""Per-phase deployment logs: one line per output line, each with a timestamp.

On disk (run format v1) a log line is ``<ISO-8601 timestamp>\\t<stream>\\t<text>``, where
stream is ``out`` (stdout), ``err`` (stderr) or ``meta`` (the harness's own notes, e.g. the
command it ran). Lines that do not follow this shape are kept as text without a timestamp.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

STREAMS = ("out", "err", "meta")


@dataclass(frozen=True, slots=True)
class LogLine:
    timestamp: str | None
    stream: str
    text: str

    @property
    def time(self) -> datetime | None:
        if not self.timestamp:
            return None
        try:
            return datetime.fromisoformat(self.timestamp)
        except ValueError:
            return None


def format_log_line(line: LogLine) -> str:
    """Serialise one line (without the trailing newline); control chars in text are kept."""
    text = line.text.replace("\n", "\\n").replace("\r", "\\r")
    return f"{line.timestamp or ''}\t{line.stream}\t{text}"


def parse_log_line(raw: str) -> LogLine:
    """Parse one stored line; never raises."""
    raw = raw.rstrip("\n")
    parts = raw.split("\t", 2)
    if len(parts) == 3 and parts[1] in STREAMS:
        ts = parts[0] or None
        if ts is not None:
            try:
                datetime.fromisoformat(ts)
            except ValueError:
                return LogLine(None, "out", raw)
        return LogLine(ts, parts[1], parts[2])
    return LogLine(None, "out", raw)
