"""A lazy, sparse line index for huge (1 GB+) log files.

:class:`LineIndex` opens a log read-only, indexes it incrementally and reads lines on demand
with :func:`os.pread`; the file is never loaded into memory.

Design. The file is cut into fixed-size blocks (``block_size``, 16 KiB by default). The index is
one ``array('q')`` of cumulative newline counts, ``cum[b]`` = newlines before block ``b``
(``len(cum)`` = blocks + 1), built with ``bytearray.count(b"\\n", ...)`` at C speed over 2 MiB
chunks read into one reused buffer (freed at EOF). That is 8 bytes per block -- 512 KiB per GB
of log, whatever the number of lines. A line's start is found by bisecting ``cum`` for the block
holding the newline before it, reading that one block and stepping through it with ``find``;
``read_range`` then reads on sequentially from there. A line longer than ``max_line_bytes`` is
never read whole by ``read``/``read_range``: its end (for ``cut_bytes``) comes from the index,
at the cost of one more block read.

Line semantics: lines are separated by ``"\\n"``; a final line without ``"\\n"`` counts as a
line; one ``"\\r"`` before the ``"\\n"`` -- or before the end of the indexed region, which acts
like a line end -- is not part of the line. When the index does not (yet) cover the whole file,
its last line is the part of the line that was indexed (see :attr:`LineIndex.partial_last_line`).

Thread-safety: one thread may build the index (``index_more``/``build``) while others call the
readers, ``len`` and ``poll``. Index state is guarded by a lock held only to snapshot or update
it; ``pread`` runs outside the lock. File descriptors replaced by ``poll`` (truncation, rotation)
are closed one replacement later (or by ``close``), so a reader holding a snapshot never reads
from a closed or reused descriptor in practice.

Text is decoded but *not* sanitised: pass it through
:func:`inspector.model.untrusted.safe_text.sanitize`
(or the UI's equivalent) before display.
"""

from __future__ import annotations

import os
import stat
import threading
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from types import TracebackType
from typing import Literal

__all__ = ["LineIndex", "LineRead", "LogOpenError", "PollResult"]

PollResult = Literal["same", "grown", "truncated", "rotated", "deleted"]

_BLOCK = 16 * 1024
"""Default index block size: the index costs 8 bytes per block (512 KiB per GB)."""
_CHUNK = 2 << 20
"""Bytes read per ``preadv`` while indexing (into a buffer kept until EOF is reached)."""
_WINDOW = 64 * 1024
"""Bytes read per ``pread`` by ``read_range`` (at least ``max_line_bytes`` + 2)."""


@dataclass(frozen=True, slots=True)
class LineRead:
    """One line as read for display."""

    text: str
    """Decoded as UTF-8 with ``errors="replace"``; no trailing ``"\\n"``/``"\\r"``; unsanitised."""
    cut_bytes: int
    """Bytes of this line beyond the read limit that were not shown (0 if the whole line was)."""
    invalid_utf8: bool
    """The bytes read were not valid UTF-8 (replacement characters were inserted)."""


class LogOpenError(Exception):
    """A log cannot be opened; ``str()`` names the file and the reason."""


@dataclass(frozen=True, slots=True)
class _Snap:
    """Index state as of one moment.

    ``cum`` is the live array: only its last entry and its length change while indexing, and
    a reset replaces it, so the entries a snapshot relies on (below ``end``) stay valid.
    """

    fd: int
    gen: int
    cum: array[int]
    end: int  # indexed_bytes
    newlines: int  # newlines in [0, end)
    lines: int  # lines in [0, end)


def _open(path: Path) -> tuple[int, os.stat_result]:
    """Open ``path`` read-only; return the fd and its ``fstat``; raise :class:`LogOpenError`."""
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise LogOpenError(f"{path}: no such file") from None
    except NotADirectoryError:
        raise LogOpenError(f"{path}: a parent of the path is not a folder") from None
    except IsADirectoryError:
        raise LogOpenError(f"{path}: is a directory, not a log file") from None
    except PermissionError:
        raise LogOpenError(f"{path}: permission denied") from None
    except OSError as exc:
        raise LogOpenError(f"{path}: cannot open ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise LogOpenError(f"{path}: is a directory, not a log file")
        if not stat.S_ISREG(st.st_mode):
            raise LogOpenError(f"{path}: not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def _trim_utf8(data: bytes) -> bytes:
    """Drop an incomplete UTF-8 sequence at the end of ``data`` (cut at an arbitrary byte)."""
    n = len(data)
    for k in range(1, min(4, n) + 1):
        c = data[n - k]
        if c < 0x80:
            return data
        if c >= 0xC0:  # lead byte of a k-byte tail
            need = 2 if c < 0xE0 else 3 if c < 0xF0 else 4
            return data[: n - k] if need > k else data
    return data


def _decode(data: bytes, cut: int) -> LineRead:
    try:
        return LineRead(data.decode("utf-8"), cut, False)
    except UnicodeDecodeError:
        return LineRead(data.decode("utf-8", "replace"), cut, True)


class LineIndex:
    """Sparse, incrementally built line index over one log file, read lazily with ``pread``.

    Opens ``path`` at once (raising :class:`LogOpenError`) and keeps the descriptor open, so a
    log deleted while followed stays readable; indexing starts with :meth:`index_more` or
    :meth:`build`. ``block_size`` is the index granularity (tests shrink it).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_line_bytes: int = 64 * 1024,
        block_size: int = _BLOCK,
    ) -> None:
        if max_line_bytes < 1 or block_size < 1:
            raise ValueError("max_line_bytes and block_size must be positive")
        self.path = Path(path)
        self.max_line_bytes = max_line_bytes
        self.block_size = block_size
        self._lock = threading.Lock()  # guards the index state below
        self._build_lock = threading.Lock()  # one indexer at a time (shares _buf)
        self._buf = bytearray()
        self._retired: list[int] = []
        self._closed = False
        self._deleted = False
        fd, st = _open(self.path)
        self._fd = fd
        self._dev_ino = (st.st_dev, st.st_ino)
        self.file_size: int = st.st_size
        self._gen = 0
        self._reset_state()

    def _reset_state(self) -> None:
        """Empty the index (caller holds the lock, or is ``__init__``)."""
        self.indexed_bytes: int = 0
        self._cum = array("q", [0])
        self._has_nul = False
        self._last_byte = b"\n"  # last indexed byte ("\n" when empty)

    # -- state -----------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """The index covers the file as of the last stat."""
        return self.indexed_bytes == self.file_size

    @property
    def partial_last_line(self) -> bool:
        """The indexed region is non-empty and does not end in ``"\\n"``."""
        with self._lock:
            return self.indexed_bytes > 0 and self._last_byte != b"\n"

    @property
    def has_nul(self) -> bool:
        """A NUL byte was seen while indexing."""
        return self._has_nul

    def __len__(self) -> int:
        """Lines in the indexed region (a final line without ``"\\n"`` counts)."""
        with self._lock:
            return self._count_lines()

    def _count_lines(self) -> int:
        return self._cum[-1] + (1 if self.indexed_bytes and self._last_byte != b"\n" else 0)

    def memory_bytes(self) -> int:
        """Approximate memory held by the index (the block array and the indexing buffer)."""
        with self._lock:
            return self._cum.buffer_info()[1] * self._cum.itemsize + len(self._buf)

    def _snap(self) -> _Snap:
        with self._lock:
            if self._closed:
                raise ValueError(f"{self.path}: the line index is closed")
            return _Snap(self._fd, self._gen, self._cum, self.indexed_bytes, self._cum[-1],
                         self._count_lines())

    # -- indexing --------------------------------------------------------------------------

    def index_more(self, max_bytes: int = 8 << 20) -> bool:
        """Index up to ``max_bytes`` more; True when EOF (as of a fresh ``fstat``) was reached.

        Also True when there is nothing more to do because :meth:`poll` reset the index
        meanwhile (after ``"truncated"``/``"rotated"`` the caller starts indexing again).
        """
        with self._build_lock:
            snap = self._snap()
            try:
                size = os.fstat(snap.fd).st_size
            except OSError:
                return True  # the descriptor was replaced under us (poll); nothing to do
            with self._lock:
                if self._gen == snap.gen:
                    self.file_size = size
            pos = snap.end
            todo = min(max(max_bytes, 0), size - pos)
            while todo > 0:
                n = min(todo, _CHUNK)
                if len(self._buf) < n:  # kept while indexing: fresh buffers page-fault
                    self._buf = bytearray(max(n, min(_CHUNK, 256 << 10)))
                view = memoryview(self._buf)
                try:
                    got = os.preadv(snap.fd, [view[:n]], pos)
                except OSError:
                    return True
                finally:
                    view.release()
                if got <= 0:
                    break  # shrank under us: poll() will tell
                if not self._commit(snap.gen, pos, got):
                    return True  # reset by poll() meanwhile
                pos += got
                todo -= got
                if got < n:
                    break
            with self._lock:
                done = self._gen != snap.gen or self.indexed_bytes >= self.file_size
            if done:
                self._buf = bytearray()
            return done

    def _commit(self, gen: int, pos: int, n: int) -> bool:
        """Add ``self._buf[:n]`` (file bytes at ``pos``) to the index; False if reset meanwhile."""
        buf, bs = self._buf, self.block_size
        # Counts for the tail of the current (partial) block, then for whole/new blocks.
        first = min(n, (-pos) % bs)
        head = buf.count(b"\n", 0, first) if first else 0
        counts = [buf.count(b"\n", s, min(s + bs, n)) for s in range(first, n, bs)]
        nul = not self._has_nul and buf.find(b"\0", 0, n) >= 0
        last = bytes(buf[n - 1 : n])
        with self._lock:
            if self._gen != gen or self.indexed_bytes != pos:
                return False
            cum = self._cum
            if head:
                cum[-1] += head
            if counts:
                it = accumulate(counts, initial=cum[-1])
                next(it)
                cum.extend(it)
            self.indexed_bytes = pos + n
            self._last_byte = last
            if nul:
                self._has_nul = True
            return True

    def build(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> bool:
        """Index until EOF, reporting ``progress(indexed_bytes, file_size)`` after each step.

        Returns False if ``cancelled()`` turned true (the index built so far stays usable).
        """
        while True:
            if cancelled is not None and cancelled():
                return False
            done = self.index_more()
            if progress is not None:
                progress(self.indexed_bytes, self.file_size)
            if done:
                return True

    # -- locating --------------------------------------------------------------------------

    def _locate_nl(self, snap: _Snap, n: int) -> tuple[int, bytes, int]:
        """Offset of newline number ``n`` (0-based, ``n < snap.newlines``).

        Returns ``(offset, block, block_offset)``: also the block read, to peek around it.
        """
        bs = self.block_size
        with self._lock:
            b = bisect_right(snap.cum, n, 0, (snap.end + bs - 1) // bs + 1) - 1
            k = n - snap.cum[b]
        off = b * bs
        block = os.pread(snap.fd, min(bs, snap.end - off), off)
        p = -1
        for _ in range(k + 1):
            p = block.find(b"\n", p + 1)
        if p < 0:  # the file changed under the index (rewritten in place)
            raise OSError(f"{self.path}: the file changed while being read")
        return off + p, block, off

    def _byte_before(self, snap: _Snap, nl: int, block: bytes, block_off: int) -> int:
        """The byte at ``nl - 1`` (``nl > 0``), from ``block`` when it holds it."""
        if nl - 1 >= block_off:
            return block[nl - 1 - block_off]
        return os.pread(snap.fd, 1, nl - 1)[0]

    @staticmethod
    def _check(snap: _Snap, i: int) -> None:
        if not 0 <= i < snap.lines:
            raise IndexError(f"line {i} out of range (0..{snap.lines - 1})")

    def _line_start(self, snap: _Snap, i: int) -> int:
        return 0 if i == 0 else self._locate_nl(snap, i - 1)[0] + 1

    def _line_end(self, snap: _Snap, i: int, start: int) -> tuple[int, int]:
        """End of line ``i`` (starting at ``start``) without "\\n" and one "\\r"; next start."""
        if i < snap.newlines:
            nl, block, block_off = self._locate_nl(snap, i)
            end = nl
            if end > start and self._byte_before(snap, end, block, block_off) == 0x0D:
                end -= 1
            return end, nl + 1
        end = snap.end  # the final line, without "\n"
        if end > start and os.pread(snap.fd, 1, end - 1) == b"\r":
            end -= 1
        return end, snap.end

    def _span(self, snap: _Snap, i: int) -> tuple[int, int]:
        self._check(snap, i)
        start = self._line_start(snap, i)
        return start, self._line_end(snap, i, start)[0]

    def span(self, i: int) -> tuple[int, int]:
        """Byte offsets ``[start, end)`` of line ``i``, without its ``"\\n"`` and one ``"\\r"``."""
        return self._span(self._snap(), i)

    def line_of_offset(self, offset: int) -> int:
        """The line holding byte ``offset`` (a newline belongs to the line it ends)."""
        snap = self._snap()
        if not 0 <= offset < snap.end:
            raise IndexError(f"offset {offset} outside the indexed region")
        bs = self.block_size
        b = offset // bs
        with self._lock:
            before = snap.cum[b]
        if offset % bs:
            before += os.pread(snap.fd, offset - b * bs, b * bs).count(b"\n")
        return before

    # -- reading ---------------------------------------------------------------------------

    def raw(self, i: int, limit: int | None = None) -> bytes:
        """Bytes of line ``i`` (no ``"\\n"``, no ``"\\r"`` before it), at most ``limit``."""
        lim = self.max_line_bytes if limit is None else limit
        snap = self._snap()
        start, end = self._span(snap, i)
        n = min(end - start, max(lim, 0))
        return os.pread(snap.fd, n, start) if n else b""

    def read(self, i: int) -> LineRead:
        """Line ``i`` decoded for display, capped at ``max_line_bytes``.

        Raises IndexError outside ``0..len-1``, OSError if the file shrank under the index.
        """
        snap = self._snap()
        self._check(snap, i)
        out: list[LineRead] = []
        self._read_lines(snap, i, 1, out)
        return out[0]

    def read_range(self, start: int, count: int) -> list[LineRead]:
        """Lines ``start .. start+count-1`` clipped to ``[0, len)``: one locate, then reads on.

        Never raises for a file that shrank under the index (before :meth:`poll` noticed):
        the lines that could be read are returned.
        """
        snap = self._snap()
        start = max(start, 0)
        stop = min(start + max(count, 0), snap.lines)
        out: list[LineRead] = []
        if start < stop:
            with suppress(OSError):  # shrank or unreadable: what was read so far
                self._read_lines(snap, start, stop - start, out)
        return out

    def _read_lines(self, snap: _Snap, first: int, count: int, out: list[LineRead]) -> None:
        """Append lines ``first .. first+count-1`` (all valid) to ``out``."""
        lim = self.max_line_bytes
        window = max(_WINDOW, lim + 2)
        pos = self._line_start(snap, first)
        buf, buf_off = b"", pos
        short = False
        i = first
        while len(out) < count:
            rel = pos - buf_off
            nl = buf.find(b"\n", rel, rel + lim + 2)
            if nl >= 0:  # the line ends within the read limit (+ a "\r" and the "\n")
                line = buf[rel:nl]
                if line.endswith(b"\r"):
                    line = line[:-1]
                if len(line) > lim:  # just over the limit (the search allows for a "\r")
                    shown = _trim_utf8(line[:lim])
                    out.append(_decode(shown, len(line) - len(shown)))
                else:
                    out.append(_decode(line, 0))
                pos = buf_off + nl + 1
            elif rel + lim + 2 <= len(buf) or buf_off + len(buf) >= snap.end:
                # A long line (its end comes from the index) or the indexed region's last line.
                end, nxt = self._line_end(snap, i, pos)
                shown = buf[rel : rel + min(lim, end - pos)]
                if len(shown) < end - pos:
                    shown = _trim_utf8(shown)
                out.append(_decode(shown, end - pos - len(shown)))
                pos = nxt
            else:  # refill from the start of this line
                if short:
                    raise OSError(f"{self.path}: the file shrank while being read")
                want = min(window, snap.end - pos)
                buf = os.pread(snap.fd, want, pos)
                buf_off = pos
                short = len(buf) < want  # lines read in full before the cut are still fine
                continue
            i += 1

    def iter_blocks(
        self, start_line: int = 0, end_line: int | None = None, block_bytes: int = 4 << 20,
        clip: int | None = None,
    ) -> Iterator[tuple[int, bytes]]:
        """Yield ``(first_line, data)``: raw bytes of whole consecutive lines, about
        ``block_bytes`` at a time, from ``start_line`` up to (excluding) ``end_line``.

        Each line keeps its ``"\\n"`` (and ``"\\r"``), except possibly the indexed region's final
        line. A single line longer than ``block_bytes`` is yielded whole, as one larger block;
        with ``clip``, only its first ``clip`` bytes (and a ``"\\n"``) are, so no block is much
        bigger than ``block_bytes`` (a scan over a 100 MB line reads 100 MB no more).
        Never reads beyond the region indexed when iteration starts.
        """
        snap = self._snap()
        stop_line = snap.lines if end_line is None else min(end_line, snap.lines)
        if start_line < 0 or start_line >= stop_line:
            return
        pos = self._line_start(snap, start_line)
        stop = snap.end if stop_line == snap.lines else self._line_start(snap, stop_line)
        line = start_line
        bs = self.block_size
        step = max(block_bytes, 1)
        while pos < stop:
            data = os.pread(snap.fd, min(step, stop - pos), pos)
            if not data:
                raise OSError(f"{self.path}: the file shrank while being read")
            if pos + len(data) < stop:
                cut = data.rfind(b"\n") + 1
                if cut == 0:  # one line longer than block_bytes: yield it whole (or clipped)
                    end = stop if line >= snap.newlines else self._locate_nl(snap, line)[0] + 1
                    if clip is not None:
                        want = min(end - pos, clip)
                        if want > len(data):
                            data += os.pread(snap.fd, want - len(data), pos + len(data))
                        yield line, data[:want] if want == end - pos else data[:want] + b"\n"
                        if end >= stop:
                            break
                        line, pos = line + 1, end
                        continue
                    data = data + os.pread(snap.fd, end - pos - len(data), pos + len(data))
                elif cut < len(data):
                    data = data[:cut]
            nxt = pos + len(data)
            yield line, data
            if nxt >= stop:
                break
            # Number of the next block's first line, from the index plus one partial block.
            b = nxt // bs
            with self._lock:
                before = snap.cum[b]
            if nxt % bs:
                head = b * bs
                if head >= pos:
                    before += data.count(b"\n", head - pos)
                else:
                    before += os.pread(snap.fd, nxt - head, head).count(b"\n")
            line, pos = before, nxt

    # -- follow mode -----------------------------------------------------------------------

    def poll(self) -> PollResult:
        """Stat the *path* for follow mode (``tail -f``) and report what changed.

        ``"grown"``: ``file_size`` updated, call ``index_more``/``build``. ``"truncated"``
        (same file, smaller than the index) and ``"rotated"`` (another file at the path, or the
        path re-created after ``"deleted"``): reopened, index reset to empty. ``"deleted"``:
        the old descriptor is kept, so what was indexed stays readable. A file that shrank but
        still covers the index only updates ``file_size`` (``"same"``).
        """
        try:
            st = os.stat(self.path)
        except OSError:
            self._deleted = True
            return "deleted"
        with self._lock:
            if self._closed:
                raise ValueError(f"{self.path}: the line index is closed")
            same_file = (st.st_dev, st.st_ino) == self._dev_ino and not self._deleted
            if same_file and st.st_size >= self.indexed_bytes:
                grown = st.st_size > self.file_size
                self.file_size = st.st_size
                return "grown" if grown else "same"
        try:
            fd, st = _open(self.path)
        except LogOpenError:
            self._deleted = True
            return "deleted"
        with self._lock:
            self._retired, old = [self._fd], self._retired
            self._fd = fd
            self._dev_ino = (st.st_dev, st.st_ino)
            self.file_size = st.st_size
            self._gen += 1
            self._reset_state()
            self._deleted = False
        for old_fd in old:
            os.close(old_fd)
        return "truncated" if same_file else "rotated"

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            fds = [self._fd, *self._retired]
            self._retired = []
        for fd in fds:
            os.close(fd)

    def __enter__(self) -> LineIndex:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"LineIndex({str(self.path)!r}, indexed={self.indexed_bytes}, "
                f"size={self.file_size})")
