"""Where a run's generated repos may be: its paths are data, never trusted as they are.

A ``result.json`` ``repo.path`` (or a RepoGenesis ``predictions_dir``) could name ``/etc`` or,
through a symlink, the user's home: the Files tab would list it and a re-run would pack it into
the sandbox. A repo is opened only when its path, symlinks resolved, lies inside

* the folder the user opened (their explicit choice: ``inspector PATH``), or
* the run's neighbourhood, where its predictions are: up to two folders above the run (the
  ``<corpus>/runs/<run>`` and ``<corpus>/predictions/<run>`` layout, whether the user opened
  the corpus, its ``runs`` folder or the run itself), never reaching ``/``, a
  top-level folder such as ``/home`` or ``/tmp``, or the user's home folder, and never above
  a repository boundary (a folder holding ``.git``).

A declared predictions folder outside those is not used either.
Anything else is a load problem naming the file and the path; the repo is then not opened.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from inspector.model.untrusted.errors import LoadIssue

NEIGHBOURHOOD_UP = 2
REPO_REFUSED = "repo not opened: "
"""How a sample's note starts when its repo path was refused (the rest says why)."""


def _resolve(path: Path) -> Path | None:
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _is_broad(folder: Path) -> bool:
    """``/``, a top-level folder, or the user's home folder or one above it: too broad to
    hold one run's repos."""
    if len(folder.parts) <= 2:
        return True
    home = _resolve(Path.home())
    return home is not None and _inside(home, folder)


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def neighbourhood(location: Path, opened: Path | None = None) -> Path | None:
    """The folder a run at ``location`` (a run folder, output folder or report file) may
    point into: up to :data:`NEIGHBOURHOOD_UP` folders above the run (see the module
    docstring); ``opened`` is accepted for the callers' symmetry and does not narrow it."""
    loc = _resolve(location if _is_dir(location) else location.parent)
    if loc is None:
        return None
    top = loc
    for _ in range(NEIGHBOURHOOD_UP):
        try:
            if (top / ".git").exists():
                break
        except OSError:
            break
        if _is_broad(top.parent):
            break
        top = top.parent
    return top


@dataclass(frozen=True, slots=True)
class RepoScope:
    """The folders (resolved) a run's generated repos may be in."""

    roots: tuple[Path, ...]
    described: str  # how the allowed places are named in a problem

    def admits(self, path: Path, resolved: bool = False) -> bool:
        """Whether ``path``, symlinks resolved, lies inside one of :attr:`roots`
        (``resolved``: ``path`` is already ``realpath``'s answer, not resolved again)."""
        real = path if resolved else _resolve(path)
        return real is not None and any(_inside(real, root) for root in self.roots)

    def check(self, path: Path, source: Path, field: str, raw: str,
              resolved: bool = False) -> LoadIssue | None:
        """``None`` when the repo at ``path`` may be opened, else the problem (a warning:
        the sample loads without its repo) naming ``source`` and the path (``resolved``: as
        in :meth:`admits`)."""
        if self.admits(path, resolved):
            return None
        real = _resolve(path)
        where = f" (resolves to {real})" if real is not None and str(real) != raw else ""
        return LoadIssue(source, field, f"{raw!r}{where} is outside the places a repo may be "
                                        f"({self.described}); the repo is not opened",
                         "warning")


def run_scope(location: Path, predictions: Iterable[Path], opened: Path | None = None,
              source: Path | None = None, field: str = "") -> tuple[RepoScope, list[LoadIssue]]:
    """The scope of a run at ``location`` declaring ``predictions`` folders, opened by the
    user as ``opened``; plus a warning for each declared predictions folder outside the run's
    neighbourhood (named as ``source``'s ``field``)."""
    issues: list[LoadIssue] = []
    named: dict[Path, str] = {}
    top = _resolve(opened) if opened is not None and _is_dir(opened) else None
    if top is not None:
        named[top] = "the folder you opened"
    area = neighbourhood(location, opened)
    if area is not None and not any(_inside(area, r) for r in named):
        named[area] = "the run's neighbourhood"
    scope = RepoScope(tuple(named), " and ".join(f"{what} {path}"
                                                 for path, what in named.items()))
    for folder in predictions:
        if not scope.admits(folder):
            real = _resolve(folder)
            issues.append(LoadIssue(
                source or location, field,
                f"predictions folder {str(folder)!r}" + (f" (resolves to {real})" if real and
                                                         str(real) != str(folder) else "")
                + f" is outside {scope.described}; its repos are not opened", "warning"))
    return scope, issues
