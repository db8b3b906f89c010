"""Showing files of a generated (untrusted) repository safely.

``preview_file`` never opens anything outside the repository (``..``, absolute paths and
symlinks that resolve outside are refused before any open), never reads more than
``max_bytes`` (+1) of a file, never blocks on a FIFO, and passes all text through
:func:`inspector.model.untrusted.safe_text.sanitize`. ``list_repo_tree`` lists the repository
without following symlinked directories.

File names in ``FilePreview.rel_path`` and ``TreeEntry.name``/``rel_path``/``link_target`` are
raw: sanitize them before display. Notices are already sanitized.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from inspector.model.repo.generated_repo import SKIP_DIRS, within
from inspector.model.untrusted.safe_text import sanitize

PreviewKind = Literal["text", "binary", "too_large", "symlink_outside", "symlink", "not_found",
                      "unreadable", "directory", "outside"]

BINARY_SNIFF_BYTES = 8192
HEX_DUMP_BYTES = 512
TREE_SKIP_DIRS = SKIP_DIRS

# Control bytes that do not occur in text (\t \n \f \r \b and ESC do: logs, form feeds).
_NON_TEXT_BYTES = bytes(b for b in (*range(0x20), 0x7F) if b not in b"\t\n\f\r\b\x1b")
_TEXT_BYTES = bytes(b for b in range(0x100) if b not in _NON_TEXT_BYTES)
_HIGH_BYTES = bytes(range(0x80, 0x100))

_BY_SUFFIX = {
    ".sh": "bash", ".bash": "bash", ".yml": "yaml", ".yaml": "yaml", ".toml": "toml",
    ".java": "java", ".json": "json", ".md": "markdown", ".markdown": "markdown",
    ".py": "python", ".pyi": "python", ".properties": "ini", ".cfg": "ini", ".ini": "ini",
    ".xml": "xml",
}
_BY_NAME = {"pom.xml": "xml", "dockerfile": "docker", "containerfile": "docker",
            "go.mod": "text", "go.sum": "text", "start.sh": "bash"}


@dataclass(frozen=True)
class FilePreview:
    """What to show for one file. ``line_count`` counts the lines of ``text``."""

    rel_path: str
    kind: PreviewKind
    text: str = ""
    notice: str = ""
    lexer: str = "text"
    size: int = 0
    truncated: bool = False
    line_count: int = 0


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a repository listing; ``kind`` is "dir", "file", "symlink" or "other"."""

    name: str
    rel_path: str
    kind: Literal["dir", "file", "symlink", "other"]
    size: int = 0
    children: tuple[TreeEntry, ...] = ()
    link_target: str = ""  # the symlink's text, as os.readlink returns it
    escapes: bool = False  # the symlink resolves outside the repository
    broken: bool = False  # the symlink's target is missing or a loop
    error: str = ""  # e.g. a directory that could not be listed


@dataclass(frozen=True)
class RepoTree:
    root: Path
    entries: tuple[TreeEntry, ...]
    count: int
    truncated: bool = False
    notice: str = ""

    def walk(self) -> Iterator[tuple[int, TreeEntry]]:
        """(depth, entry) in display order (depth-first, dirs before files)."""
        stack = [(0, e) for e in reversed(self.entries)]
        while stack:
            depth, entry = stack.pop()
            yield depth, entry
            stack.extend((depth + 1, c) for c in reversed(entry.children))


def lexer_for(name: str) -> str:
    """A Pygments lexer alias for a file name; "text" when unknown."""
    base = os.path.basename(name)
    return _lexer_for(base.lower(), base)


@lru_cache(maxsize=512)
def _lexer_for(lower: str, base: str) -> str:
    if lower in _BY_NAME:
        return _BY_NAME[lower]
    if lower.startswith("requirements") and lower.endswith((".txt", ".in")):
        return "text"
    if lower.startswith("dockerfile") or lower.endswith(".dockerfile"):
        return "docker"
    suffix = os.path.splitext(lower)[1]
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    try:
        # start-up: pygments is loaded only when this runs
        from pygments.lexers import get_lexer_for_filename
        from pygments.util import ClassNotFound

        try:
            aliases = get_lexer_for_filename(base).aliases
        except ClassNotFound:
            return "text"
    except Exception:  # a broken Pygments plugin must not break previews
        return "text"
    return aliases[0] if aliases else "text"


def _line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _looks_binary(sample: bytes) -> bool:
    if not sample:
        return False
    if b"\0" in sample:
        return True
    odd = len(sample) - len(sample.translate(None, _NON_TEXT_BYTES))
    if odd > len(sample) * 0.10:
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
        return False
    except UnicodeDecodeError:  # not UTF-8: Latin-1 text is mostly ASCII, binary is not
        high = len(sample) - len(sample.translate(None, _HIGH_BYTES))
        return high > len(sample) * 0.30


def hex_dump(data: bytes) -> str:
    """``00000000  7f 45 4c 46 ...  |.ELF...|`` lines, 16 bytes each."""
    lines = []
    for off in range(0, len(data), 16):
        chunk = data[off:off + 16]
        hexes = " ".join(f"{b:02x}" for b in chunk)
        if len(chunk) > 8:
            hexes = hexes[:23] + " " + hexes[23:]
        ascii_ = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)
        lines.append(f"{off:08x}  {hexes:<49} |{ascii_}|")
    return "\n".join(lines)


def _fail(rel_path: str, kind: PreviewKind, notice: str, size: int = 0) -> FilePreview:
    return FilePreview(rel_path=rel_path, kind=kind, notice=sanitize(notice), size=size)


def preview_file(repo_root: Path, rel_path: str, *, max_bytes: int = 1_000_000,
                 max_lines: int = 20_000) -> FilePreview:
    """A safe, bounded preview of ``repo_root/rel_path`` (see module docstring)."""
    if not rel_path or "\0" in rel_path:
        return _fail(rel_path, "not_found", "invalid path")
    if os.path.isabs(rel_path):
        return _fail(rel_path, "outside", "absolute path: only paths inside the repository")
    parts = Path(rel_path).parts
    if ".." in parts:
        return _fail(rel_path, "outside", "'..' in path: only paths inside the repository")
    root = os.path.realpath(repo_root)
    if not os.path.isdir(root):
        return _fail(rel_path, "not_found", "repository folder not found")
    candidate = os.path.join(root, *parts)

    # Find the last symlink along the path (lstat only: nothing is opened).
    link, link_text = "", ""
    for i in range(1, len(parts) + 1):
        prefix = os.path.join(root, *parts[:i])
        try:
            if os.path.islink(prefix):
                link, link_text = prefix, os.readlink(prefix)
        except OSError:
            break
    real = os.path.realpath(candidate)
    shown_link = os.path.relpath(link, root) if link else ""
    if not within(real, root):
        if link:
            return _fail(rel_path, "symlink_outside",
                         f"{shown_link} is a symlink to {link_text}, outside the repository; "
                         "not opened")
        return _fail(rel_path, "outside", "resolves outside the repository")
    try:
        st = os.stat(real)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _fail(rel_path, "symlink", f"symlink loop at {shown_link or rel_path}")
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            if link:
                return _fail(rel_path, "symlink",
                             f"broken symlink: {shown_link} points to {link_text}")
            return _fail(rel_path, "not_found", "no such file")
        return _fail(rel_path, "unreadable", f"cannot read: {exc.strerror}")
    via = f"symlink to {os.path.relpath(real, root)}" if link else ""
    if stat.S_ISDIR(st.st_mode):
        return _fail(rel_path, "directory", "; ".join(filter(None, ["directory", via])))
    if not stat.S_ISREG(st.st_mode):
        return _fail(rel_path, "unreadable", "not a regular file (device, FIFO or socket)",
                     st.st_size)
    return _read_preview(rel_path, real, st, via, max_bytes, max_lines)


def _read_preview(rel_path: str, real: str, st: os.stat_result, via: str, max_bytes: int,
                  max_lines: int) -> FilePreview:
    size = st.st_size
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        return _fail(rel_path, "unreadable", f"cannot open: {exc.strerror}", size)
    with os.fdopen(fd, "rb") as fh:
        opened = os.fstat(fh.fileno())
        if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino) \
                or not stat.S_ISREG(opened.st_mode):
            return _fail(rel_path, "unreadable", "file changed while opening it", size)
        try:
            head = fh.read(min(BINARY_SNIFF_BYTES, max_bytes + 1))
            if _looks_binary(head[:BINARY_SNIFF_BYTES]):
                dump = hex_dump(head[:HEX_DUMP_BYTES])
                shown = f" (first {HEX_DUMP_BYTES} shown)" if size > HEX_DUMP_BYTES else ""
                notice = "; ".join(filter(None, [f"binary file, {size:,} bytes{shown}", via]))
                return FilePreview(rel_path, "binary", dump, sanitize(notice), "text", size,
                                   size > HEX_DUMP_BYTES, _line_count(dump))
            data = head + fh.read(max(0, max_bytes + 1 - len(head)))
        except OSError as exc:
            return _fail(rel_path, "unreadable", f"cannot read: {exc.strerror}", size)

    notices = [via] if via else []
    cut_bytes = len(data) > max_bytes
    data = data[:max_bytes]
    try:  # an incomplete character at a cut is not an error
        text = codecs.getincrementaldecoder("utf-8")().decode(data, final=not cut_bytes)
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        notices.append("not valid UTF-8: undecodable bytes shown as \ufffd")
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
        notices.append("CRLF line endings")
    lines = _line_count(text)
    cut_lines = lines > max_lines
    if cut_lines:
        text = "\n".join(text.split("\n", max_lines)[:max_lines]) + "\n"
        total_lines, lines = lines, max_lines
    if cut_bytes and cut_lines:
        notices.insert(0, f"showing the first {max_lines:,} lines of {size:,} bytes")
    elif cut_bytes:
        notices.insert(0, f"showing the first {max_bytes:,} of {max(size, len(data)):,} bytes")
    elif cut_lines:
        notices.insert(0, f"showing the first {max_lines:,} of {total_lines:,} lines")
    if not text and not cut_bytes:
        notices.append("empty file")
    truncated = cut_bytes or cut_lines
    return FilePreview(rel_path=rel_path, kind="too_large" if truncated else "text",
                       text=sanitize(text), notice=sanitize("; ".join(notices)),
                       lexer=lexer_for(rel_path), size=size, truncated=truncated,
                       line_count=lines)


@dataclass
class _Node:
    name: str
    rel_path: str
    real: str
    children: list[_Node | TreeEntry] = field(default_factory=list)
    error: str = ""
    frozen: TreeEntry | None = None


def _sort_key(entry: os.DirEntry[str]) -> tuple[int, str, str]:
    try:
        is_dir = entry.is_dir(follow_symlinks=False)
    except OSError:
        is_dir = False
    return (0 if is_dir else 1, entry.name.lower(), entry.name)


def list_repo_tree(repo_root: Path, *, max_entries: int = 20_000,
                   skip_dirs: frozenset[str] = TREE_SKIP_DIRS) -> RepoTree:
    """Sorted nested listing (dirs first, then files), breadth-first up to ``max_entries``.

    Symlinks are listed, never descended into, and marked when they escape or are broken.
    """
    root = os.path.realpath(repo_root)
    if not os.path.isdir(root):
        return RepoTree(Path(repo_root), (), 0, False, "repository folder not found")
    top = _Node("", "", root)
    dir_nodes: list[_Node] = [top]
    queue: deque[_Node] = deque([top])
    count, truncated = 0, False
    while queue and not truncated:
        node = queue.popleft()
        try:
            with os.scandir(node.real) as it:
                entries = sorted(it, key=_sort_key)
        except OSError as exc:
            node.error = f"cannot list: {exc.strerror}"
            continue
        for entry in entries:
            if count >= max_entries:
                truncated = True
                break
            rel = f"{node.rel_path}/{entry.name}" if node.rel_path else entry.name
            try:
                if entry.is_symlink():
                    node.children.append(_symlink_entry(entry, rel, root))
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name in skip_dirs:
                        continue
                    child = _Node(entry.name, rel, entry.path)
                    node.children.append(child)
                    dir_nodes.append(child)
                    queue.append(child)
                elif entry.is_file(follow_symlinks=False):
                    size = entry.stat(follow_symlinks=False).st_size
                    node.children.append(TreeEntry(entry.name, rel, "file", size))
                else:
                    node.children.append(TreeEntry(entry.name, rel, "other"))
            except OSError as exc:
                node.children.append(TreeEntry(entry.name, rel, "other", error=exc.strerror
                                               or "cannot stat"))
            count += 1
    for node in reversed(dir_nodes):  # children are frozen before their parents
        node.frozen = TreeEntry(node.name, node.rel_path, "dir", error=node.error,
                                children=tuple(map(_frozen, node.children)))
    notice = (f"showing the first {max_entries:,} entries (listing stopped there)"
              if truncated else "")
    return RepoTree(Path(repo_root), _frozen(top).children, count, truncated, notice)


def _frozen(item: _Node | TreeEntry) -> TreeEntry:
    if isinstance(item, TreeEntry):
        return item
    assert item.frozen is not None
    return item.frozen


def _symlink_entry(entry: os.DirEntry[str], rel: str, root: str) -> TreeEntry:
    target = os.readlink(entry.path)
    real = os.path.realpath(entry.path)
    escapes = not within(real, root)
    broken = not escapes and not os.path.exists(real)
    return TreeEntry(entry.name, rel, "symlink", link_target=target, escapes=escapes,
                     broken=broken)
