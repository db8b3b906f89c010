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


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "n": "\n", "r": "\r"}


_ESCAPE_TABLE = str.maketrans(_ESCAPES)


def escape_text(text: str) -> str:
    """Backslash, newline and carriage return escaped so one record stays on one line."""
    if "\\" not in text and "\n" not in text and "\r" not in text:
        return text
    return text.translate(_ESCAPE_TABLE)


def unescape_text(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _UNESCAPES:
            out.append(_UNESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def format_log_line(line: LogLine) -> str:
    """Serialise one line (without the trailing newline); other control chars are kept."""
    return f"{line.timestamp or ''}\t{line.stream}\t{escape_text(line.text)}"


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
        return LogLine(ts, parts[1], unescape_text(parts[2]))
    return LogLine(None, "out", raw)
