"""Absolute paths of the evaluating machine taken out of text meant to be shared.

:func:`shown_paths` rewrites every absolute path it finds in a text (log lines, tracebacks,
test messages, commands):

* a path under one of the scope's ``roots`` (the runs folder, a run's folder) is shown
  relative to it, behind the root's short name (``sample_runs/runs/r1/result.json``);
* a path through a folder named like one of the scope's ``anchors`` (a run's folder name,
  as the run was recorded on the machine that evaluated it) is shown from that folder on
  (``r1/samples/t/0/junit.xml``);
* a path inside a generated repository as the harness staged it (``…/gi-TASK-xxxx/repo/``,
  or the sandbox's ``/repo/``) is shown relative to the repository (``app/models.py``);
* any other machine path keeps only its last components: from ``site-packages`` (or
  ``dist-packages``) on when it has one, else its last two, never a user's name
  (``…/site-packages/flask/app.py``, ``…/importlib/__init__.py``).

What counts as a machine path: every Windows path (``C:\\…``, ``\\\\server\\share``), every
``file://`` URL, a POSIX path under a root, an anchor, a ``machine`` prefix (the user's home,
the temp folder), or starting with a system top-level folder (:data:`TOP_LEVEL`). Other
absolute-looking text (``/api/users/1``, a URL's path) is left alone. A path with spaces is
found whole when it is quoted or under a known prefix; unquoted, it ends at the first space.

Pure: no file system access (the caller gives the roots and the machine's prefixes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

TOP_LEVEL = frozenset({
    "tmp", "var", "private", "home", "root", "Users", "usr", "opt", "work", "mnt", "srv",
    "workspace", "workspaces", "builds", "github", "runner", "nix", "Volumes", "Library",
    "media", "snap", "repo", "etc", "proc", "lib", "lib64", "bin", "sbin", "scratch",
    "cygdrive",
})
"""First folders of a POSIX path that make it a machine path (not a URL route)."""

ELLIPSIS = "…"
_USER_AREAS = frozenset({"home", "users", "documents and settings"})
_PACKAGES = frozenset({"site-packages", "dist-packages"})
_STAGING = re.compile(r"gi-.+")  # the local harness's staging folder, holding repo/
_ABSOLUTE = re.compile(r"/|[A-Za-z]:[\\/]|\\\\")


@dataclass(frozen=True, slots=True)
class PathScope:
    """What paths are known: ``roots`` (absolute prefix, short name shown for it),
    ``anchors`` (folder names a path is shown from), ``machine`` (prefixes of this machine,
    found whole even with spaces)."""

    roots: tuple[tuple[str, str], ...] = ()
    anchors: frozenset[str] = frozenset()
    machine: tuple[str, ...] = ()

    @classmethod
    def of(cls, roots: Iterable[tuple[str, str]] = (), anchors: Iterable[str] = (),
           machine: Iterable[str] = ()) -> PathScope:
        """A scope with trailing separators trimmed, empty or ``/`` entries dropped."""
        r = {p.rstrip("/\\"): name for p, name in roots if p.rstrip("/\\")}
        m = {p.rstrip("/\\") for p in machine if p.rstrip("/\\")}
        return cls(tuple(sorted(r.items(), key=lambda kv: -len(kv[0]))),
                   frozenset(a for a in anchors if a),
                   tuple(sorted(m, key=len, reverse=True)))


_END = r"""\s"'`<>|,;()\[\]{}"""  # characters that end an unquoted path
_POSIX = rf"(?<![\w.~/\\-])/[^{_END}:/]+(?:/[^{_END}:]*)?"
_WINDOWS = rf"(?<![\w/\\])(?:[A-Za-z]:[\\/]|\\\\[\w.$-]+[\\/])[^{_END}:*?]*"
_FILE_URL = rf"\bfile://[^{_END}]*"
_QUOTED = r"""(?P<q>["'])(?P<inner>(?:/|[A-Za-z]:[\\/]|\\\\)[^"'\n]*)(?P=q)"""


@lru_cache(maxsize=32)
def _pattern(scope: PathScope) -> re.Pattern[str]:
    known = [re.escape(p) for p, _ in scope.roots] + [re.escape(p) for p in scope.machine]
    spaced = [k for k in known if " " in k]
    parts = [_QUOTED, _FILE_URL]
    if spaced:
        parts.append(rf"(?:{'|'.join(spaced)})(?:[\\/][^{_END}:]*)?")
    parts += [_WINDOWS, _POSIX]
    return re.compile("|".join(f"(?:{p})" for p in parts))


def _split(path: str) -> tuple[str, list[str]]:
    """The separator a path uses and its components (drive and host left out)."""
    sep = "\\" if "\\" in path and "/" not in path.lstrip("/") else "/"
    comps = [c for c in re.split(r"[\\/]+", path) if c]
    if comps and re.fullmatch(r"[A-Za-z]:", comps[0]):
        comps = comps[1:]
    return sep, comps


def _tail(comps: list[str], sep: str) -> str:
    """A machine path's last components: never a user's name or the top-level folder."""
    lowered = [c.lower() for c in comps]
    start = 1 if comps else 0
    for i, c in enumerate(lowered):
        if c in _USER_AREAS:
            start = max(start, i + 2)
    kept = comps[start:]
    pkg = max((i for i, c in enumerate(kept) if c.lower() in _PACKAGES), default=None)
    kept = kept[pkg:] if pkg is not None else kept[-2:]
    return ELLIPSIS + (sep + sep.join(kept) if kept else "")


def _relative(comps: list[str], scope: PathScope) -> str | None:
    """The path relative to a repository, or from an anchor folder, if it has one."""
    for i in range(len(comps) - 1):
        if comps[i + 1] == "repo" and _STAGING.fullmatch(comps[i]):
            return "/".join(comps[i + 2:]) or "repo"
    if comps and comps[0] == "repo":
        return "/".join(comps[1:]) or "repo"
    for i in range(len(comps) - 1, -1, -1):
        if comps[i] in scope.anchors:
            return "/".join(comps[i:])
    return None


def _is_machine(path: str, comps: list[str], scope: PathScope) -> bool:
    if not path.startswith("/") or path.startswith("//"):
        return True  # Windows drive or UNC path
    if not comps:
        return False
    return (comps[0] in TOP_LEVEL or any(c in scope.anchors for c in comps)
            or any(c.lower() in _PACKAGES for c in comps)
            or any(path == m or path.startswith(m + "/") for m in scope.machine))


def shown_path(path: str, scope: PathScope = PathScope()) -> str:
    """One absolute path (or ``file://`` URL) as the report shows it; other text unchanged."""
    if path.lower().startswith("file://"):
        rest = path[7:]
        rest = rest[rest.find("/"):] if "/" in rest else ""
        return shown_path(rest, scope) if rest.strip("/") else ELLIPSIS
    for root, name in scope.roots:
        if path == root:
            return name or "."
        if path.startswith((root + "/", root + "\\")):
            rel = path[len(root) + 1:]
            return f"{name}/{rel}" if name else rel
    if not _ABSOLUTE.match(path):
        return path
    sep, comps = _split(path)
    if not _is_machine(path, comps, scope):
        return path
    inside = _relative(comps, scope)
    return inside if inside is not None else _tail(comps, sep)


_shown = lru_cache(maxsize=4096)(shown_path)  # tracebacks repeat the same paths


def _replace(m: re.Match[str], scope: PathScope) -> str:
    if m.group("q"):
        return m.group("q") + _shown(m.group("inner"), scope) + m.group("q")
    return _shown(m.group(0), scope)


def shown_paths(text: str, scope: PathScope = PathScope()) -> str:
    """``text`` with every absolute path of the machine shown as :func:`shown_path` does."""
    if "/" not in text and "\\" not in text:
        return text
    return _pattern(scope).sub(lambda m: _replace(m, scope), text)
