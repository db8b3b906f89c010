"""Cutting a byte stream into lines: linear time, bounded memory, whatever the stream holds.

A process's output is read in chunks (never ``readline``, which holds a whole line however
long it is). Each line is kept up to ``limit`` bytes; the rest of an overlong line is only
counted, and the line is passed on with a note saying how many bytes were cut. A stream with
no newline at all therefore costs one bounded buffer and one pass over its bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import IO

MAX_LINE_CHARS = 64 * 1024
"""Longest line a phase log stores, the note about what was cut included."""
NOTE_ROOM = 48
"""Room kept for `` … [N bytes cut]`` so a cut line never exceeds :data:`MAX_LINE_CHARS`."""
MAX_LINE_BYTES = MAX_LINE_CHARS - NOTE_ROOM
READ_SIZE = 32 * 1024
"""Bytes asked for per read of a pipe (below the line limit: a read's lines are decoded at
once)."""


def cut_note(count: int, unit: str = "bytes") -> str:
    """The note appended to a line whose end was dropped."""
    return f" … [{count} {unit} cut]"


def utf8_prefix(data: bytes) -> bytes:
    """``data`` without an incomplete UTF-8 sequence at its end (it was cut mid-character)."""
    n = len(data)
    for k in range(1, min(4, n) + 1):
        c = data[n - k]
        if c < 0x80:
            return data
        if c >= 0xC0:  # the lead byte of the last character
            need = 2 if c < 0xE0 else 3 if c < 0xF0 else 4
            return data[: n - k] if need > k else data
    return data


Emit = Callable[[list[str]], None]
"""Receives the lines completed by one chunk (never an empty list)."""


class LineBuffer:
    """Feeds bytes, calls ``emit(lines)`` with the lines each chunk completes (``flush`` for
    the last one).

    Memory is at most ``limit`` bytes beyond the chunk being fed, whatever the input; each
    byte is looked at a bounded number of times, so a newline-less stream is processed in
    linear time. ``cut_lines`` and ``cut_bytes`` count the overlong lines and the bytes
    dropped from them.
    """

    def __init__(self, emit: Emit, limit: int = MAX_LINE_BYTES) -> None:
        if limit < 1:
            raise ValueError("limit must be positive")
        self.emit = emit
        self.limit = limit
        self._buf = bytearray()
        self._over = 0  # bytes of the current line beyond the limit (dropped)
        self.lines = 0
        self.cut_lines = 0
        self.cut_bytes = 0

    @classmethod
    def each(cls, emit: Callable[[str], None], limit: int = MAX_LINE_BYTES) -> LineBuffer:
        """A buffer calling ``emit(text)`` once per line."""

        def many(lines: list[str]) -> None:
            for text in lines:
                emit(text)

        return cls(many, limit)

    def feed(self, chunk: bytes | None) -> None:
        if not chunk:
            return
        out: list[str] = []
        start, n = 0, len(chunk)
        if self._buf or self._over:  # finish the line begun in an earlier chunk
            nl = chunk.find(b"\n")
            if nl < 0:
                self._take(chunk, 0, n)
                return
            self._take(chunk, 0, nl)
            out.append(self._held())
            start = nl + 1
        last = chunk.rfind(b"\n", start)
        if last >= start:
            if last - start <= self.limit:  # no line in there can be too long: decode at once
                text = chunk[start:last].decode("utf-8", "replace")
                lines = text.split("\n")
                if "\r" in text:
                    lines = [t[:-1] if t.endswith("\r") else t for t in lines]
                out += lines
            else:
                self._lines(chunk, start, last, out)
            start = last + 1
        if start < n:
            self._take(chunk, start, n)
        if out:
            self.lines += len(out)
            self.emit(out)

    def _lines(self, chunk: bytes, start: int, last: int, out: list[str]) -> None:
        """The lines of ``chunk[start:last]`` (``last`` is a newline), one by one."""
        while start <= last:
            nl = chunk.find(b"\n", start, last + 1)
            if nl - start <= self.limit:
                out.append(self._text(chunk[start:nl], 0))
            else:
                self._take(chunk, start, nl)
                out.append(self._held())
            start = nl + 1

    def flush(self) -> None:
        """Emit the last line when the stream ended without a newline."""
        if self._buf or self._over:
            self.lines += 1
            self.emit([self._held()])

    def _take(self, chunk: bytes, start: int, end: int) -> None:
        room = self.limit - len(self._buf)
        take = min(room, end - start)
        if take > 0:
            with memoryview(chunk) as view:
                self._buf += view[start:start + take]
        self._over += (end - start) - max(take, 0)

    def _held(self) -> str:
        data, over = bytes(self._buf), self._over
        self._buf.clear()
        self._over = 0
        return self._text(data, over)

    def _text(self, data: bytes, over: int) -> str:
        if over:
            kept = utf8_prefix(data)
            over += len(data) - len(kept)
            self.cut_lines += 1
            self.cut_bytes += over
            return kept.decode("utf-8", "replace") + cut_note(over)
        text = data.decode("utf-8", "replace")
        return text[:-1] if text.endswith("\r") else text


def pump(stream: IO[bytes], emit: Emit, name: str,
         limit: int = MAX_LINE_BYTES) -> threading.Thread:
    """Copy a pipe into ``emit`` on a daemon thread, reading it in chunks; ``emit`` gets the
    lines each read completed."""
    read = getattr(stream, "read1", None) or stream.read

    def run() -> None:
        lines = LineBuffer(emit, limit)
        try:
            while chunk := read(READ_SIZE):
                lines.feed(chunk)
        except (OSError, ValueError):
            pass
        lines.flush()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread
