"""Label files on disk: one JSON file per annotator, written atomically under a lock.

Layout of a labels folder (by default ``<runs folder>/labels``)::

    labels/
      taxonomy.json            optional: the project's own taxonomy (else the bundled one)
      annotators/<name>.json   one file per annotator
      adjudication.json        the adjudicator's final labels, with the originals kept
      .locks/                  lock files (safe to delete when no inspector runs)

Every change re-reads the file under an exclusive ``fcntl`` lock, applies one edit (which is
added to the label's history) and replaces the file atomically (temp file, fsync, rename,
fsync of the folder). A kill at any moment leaves the previous or the new file. A file that
cannot be read — corrupt, not a label file, or from a newer inspector — raises
:class:`LabelFileError` and is never overwritten.
"""

from __future__ import annotations

import errno
import fcntl
import getpass
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspector.model.labels.label_file import (
    ItemRef,
    Label,
    LabelFile,
    apply_edit,
    dumps_labels,
    parse_label_file,
    valid_annotator,
)
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.taxonomy import Taxonomy, load_taxonomy
from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.files import read_regular
from inspector.model.untrusted.jsonfields import parse_json_bytes
from inspector.services.storage.atomic import (
    STALE_TEMP_SECONDS,
    shared_file_mode,
    sweep_stale_temps,
    write_bytes_atomic,
)

DEFAULT_TAXONOMY = Path(__file__).resolve().parents[2] / "data" / "taxonomy.json"
ADJUDICATOR = "adjudication"


MAX_LABEL_FILE_BYTES = 64 * 1024 * 1024
"""Label files larger than this are refused (a symlink to /dev/zero must not fill memory)."""


class LabelFileError(LoadError):
    """A label file cannot be used; ``str()`` names the file. It is left untouched."""


def _write(path: Path, content: LabelFile) -> None:
    """Serialise ``content`` completely, then replace ``path`` atomically; any failure is a
    :class:`LabelFileError` naming ``path`` (the file on disk is then unchanged)."""
    try:
        data = dumps_labels(content.to_json()).encode("utf-8")
    except (RecursionError, ValueError, TypeError) as exc:
        raise LabelFileError(path, f"not saved: the labels cannot be written as JSON ({exc})")\
            from None
    with _naming(path):
        write_bytes_atomic(path, data, mode=shared_file_mode(path))


_WRITE_ERRORS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
                 errno.EROFS: "the file system is read-only",
                 errno.EACCES: "permission denied", errno.EPERM: "permission denied"}


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """Turn an ``OSError`` met while saving ``path`` (its lock, temp file or folder) into a
    :class:`LabelFileError` that names the label file."""
    try:
        yield
    except OSError as exc:
        reason = _WRITE_ERRORS.get(exc.errno or 0) or exc.strerror or str(exc)
        where = exc.filename if exc.filename and Path(exc.filename) != path else None
        detail = f" (at {where})" if where else ""
        raise LabelFileError(path, f"not saved: {reason}{detail}; the file is unchanged")\
            from None


def default_annotator() -> str:
    """``$GENESIS_INSPECTOR_ANNOTATOR``, else the login name, made safe for a file name."""
    name = os.environ.get("GENESIS_INSPECTOR_ANNOTATOR", "").strip()
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "annotator"
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:64]
    return name or "annotator"


def find_labels_dir(path: Path) -> Path:
    """The labels folder for a runs folder, run folder or report file.

    ``<path>/labels`` if it exists, else the nearest ``labels/`` of up to three parents whose
    ``annotators/`` folder holds label files, never above a repository boundary (a folder
    holding ``.git``), else ``<path>/labels`` (created on first write).
    """
    base = path if path.is_dir() else path.parent
    if (base / "labels").is_dir():
        return base / "labels"
    from inspector.model.runs.discover import is_repository_root  # the run loaders: only here

    if is_repository_root(base):
        return base / "labels"
    for parent in list(base.parents)[:3]:
        if any((parent / "labels" / "annotators").glob("*.json")):
            return parent / "labels"
        if is_repository_root(parent):
            break
    return base / "labels"


REFERENCE_LABELS_DIR = "labels-real"
"""The folder of reference labels (made by careful annotators, never by the rules) that
suggestions are scored against, beside a runs folder's ``labels/``."""


def find_reference_labels_dir(path: Path) -> Path | None:
    """The reference labels for a runs folder: ``labels-real/`` in ``path`` or beside the
    labels folder :func:`find_labels_dir` gives, when it holds annotator files; else
    ``None``."""
    base = path if path.is_dir() else path.parent
    for folder in (base / REFERENCE_LABELS_DIR,
                   find_labels_dir(path).parent / REFERENCE_LABELS_DIR):
        try:
            if any((folder / "annotators").glob("*.json")):
                return folder
        except OSError:
            continue
    return None


def read_label_file(path: Path) -> LabelFile | None:
    """Read one label file; ``None`` when it does not exist. Raises :class:`LabelFileError`.

    Only a regular file of at most :data:`MAX_LABEL_FILE_BYTES` is read: a FIFO, a device or
    a symlink to one (label files travel through git, which carries symlinks) is refused.
    """
    try:
        raw = read_regular(path, MAX_LABEL_FILE_BYTES, missing_ok=True)
    except LoadError as exc:
        raise LabelFileError(path, exc.issue.message) from None
    if raw is None:
        return None
    try:
        data = parse_json_bytes(path, raw)
    except LoadError as exc:
        raise LabelFileError(path, f"label file is corrupt ({exc.issue.message}); left as is — "
                                   "restore it from git or a backup") from None
    try:
        return parse_label_file(data, path)
    except LoadError as exc:
        raise LabelFileError(path, exc.issue.message, exc.issue.field) from None


@dataclass
class LoadedLabels:
    """What :meth:`LabelStore.load` found: the usable files and the problems of the others."""

    labels: LabelSet
    problems: list[LabelFileError] = field(default_factory=list)


class LabelStore:
    """The label files of one labels folder (see the module docstring for the layout)."""

    def __init__(self, root: Path, taxonomy_path: Path | None = None,
                 stale_temp_seconds: float = STALE_TEMP_SECONDS) -> None:
        self.root = root
        self._taxonomy_path = taxonomy_path
        self.stale_temp_seconds = stale_temp_seconds

    # ----------------------------------------------------------------------------- paths
    @property
    def annotators_dir(self) -> Path:
        return self.root / "annotators"

    @property
    def adjudication_path(self) -> Path:
        return self.root / "adjudication.json"

    def path_for(self, annotator: str) -> Path:
        if not valid_annotator(annotator):
            raise ValueError(f"invalid annotator name {annotator!r} (letters, digits, '.', "
                             "'_', '-'; up to 64)")
        return self.annotators_dir / f"{annotator}.json"

    @property
    def taxonomy_path(self) -> Path:
        """The project's taxonomy if it has one, else the bundled default."""
        if self._taxonomy_path is not None:
            return self._taxonomy_path
        own = self.root / "taxonomy.json"
        try:
            return own if own.is_file() else DEFAULT_TAXONOMY
        except OSError:  # an unreadable labels folder: load() reports it, once
            return DEFAULT_TAXONOMY

    def taxonomy(self) -> Taxonomy:
        """Raises :class:`~inspector.model.untrusted.errors.LoadError` naming the file when
        invalid."""
        return load_taxonomy(self.taxonomy_path)

    # ----------------------------------------------------------------------------- reading
    def annotator_names(self) -> list[str]:
        """The annotators with a file here. Raises :class:`LabelFileError` naming the folder
        when it cannot be listed (no permission)."""
        try:
            with os.scandir(self.annotators_dir) as it:
                names = [e.name for e in it]
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as exc:
            raise LabelFileError(self.annotators_dir, "cannot read the labels folder: "
                                 f"{(exc.strerror or str(exc)).lower()}") from None
        return sorted(n[:-5] for n in names if n.endswith(".json")
                      and not n.startswith(".") and valid_annotator(n[:-5]))

    def misnamed(self) -> list[LabelFileError]:
        """A problem for each ``annotators/*.json`` whose name is no annotator's (a space, a
        character a file name should not hold): never loaded, never written, so named."""
        try:
            with os.scandir(self.annotators_dir) as it:
                names = sorted(e.name for e in it)
        except OSError:  # missing, or unreadable: annotator_names() reports it
            return []
        return [LabelFileError(self.annotators_dir / n, "not loaded: the file name is not an "
                               "annotator name (letters, digits, '.', '_', '-'; up to 64, "
                               "starting with a letter or digit); rename it")
                for n in names if n.endswith(".json") and not n.startswith(".")
                and not valid_annotator(n[:-5])]

    def read(self, annotator: str) -> LabelFile:
        """An annotator's labels (an empty file when there is none yet)."""
        path = self.path_for(annotator)
        found = read_label_file(path)
        if found is None:
            return LabelFile(annotator)
        if found.kind != "annotator":
            raise LabelFileError(path, f"expected an annotator file, found kind {found.kind!r}",
                                 "kind")
        if found.annotator != annotator:
            raise LabelFileError(path, f"file is named for {annotator!r} but holds "
                                       f"{found.annotator!r}'s labels", "annotator")
        return found

    def read_adjudication(self) -> LabelFile:
        found = read_label_file(self.adjudication_path)
        if found is None:
            return LabelFile(ADJUDICATOR, kind="adjudication")
        if found.kind != "adjudication":
            raise LabelFileError(self.adjudication_path,
                                 f"expected kind 'adjudication', found {found.kind!r}", "kind")
        return found

    def load(self) -> LoadedLabels:
        """Every readable file; the unreadable ones are reported, not fatal."""
        files: dict[str, LabelFile] = {}
        problems: list[LabelFileError] = []
        try:
            os.scandir(self.root).close()
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as exc:
            problems.append(LabelFileError(self.root, "cannot read the labels folder: "
                                           f"{(exc.strerror or str(exc)).lower()}"))
            return LoadedLabels(LabelSet(), problems)
        self.sweep()
        try:
            names = self.annotator_names()
        except LabelFileError as exc:
            problems.append(exc)
            names = []
        problems.extend(self.misnamed())
        for name in names:
            try:
                files[name] = self.read(name)
            except LabelFileError as exc:
                problems.append(exc)
        adjudication = None
        try:
            adj = self.read_adjudication()
            adjudication = adj if adj.labels else None
        except LabelFileError as exc:
            problems.append(exc)
        return LoadedLabels(LabelSet(files, adjudication), problems)

    # ----------------------------------------------------------------------------- writing
    def sweep(self) -> list[Path]:
        """Remove temp files that killed writers left (never a live writer's): see
        :func:`~inspector.services.storage.atomic.sweep_stale_temps`."""
        return [*sweep_stale_temps(self.annotators_dir, self.stale_temp_seconds),
                *sweep_stale_temps(self.root, self.stale_temp_seconds)]

    @contextmanager
    def _locked(self, path: Path) -> Iterator[None]:
        """Hold ``path``'s lock; a failure to take it (read-only, disk full, no permission)
        is a :class:`LabelFileError` naming ``path``."""
        locks = self.root / ".locks"
        with _naming(path):
            locks.mkdir(parents=True, exist_ok=True)
            fh = open(locks / f"{path.name}.lock", "a")  # noqa: SIM115 - closed below
        with fh:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                self.sweep()
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    def save(self, annotator: str, label: Label, reason: str = "",
             taxonomy_id: str = "") -> Label:
        """Add or change ``annotator``'s label of ``label.item``; returns the stored label.

        The edit (who, when, what changed, ``reason``) is appended to the label's history. An
        unchanged label writes nothing. Raises :class:`LabelFileError` (writing nothing) when
        the file on disk cannot be read.
        """
        return self.save_file(annotator, label, reason, taxonomy_id)[0]

    def save_file(self, annotator: str, label: Label, reason: str = "",
                  taxonomy_id: str = "") -> tuple[Label, LabelFile]:
        """:meth:`save`, also returning the annotator's whole file as it now is on disk (with
        what other processes wrote before the lock was taken), so callers need not re-read it.
        """
        stored, updated = self.edit_file(annotator, lambda _current: [label], reason,
                                         taxonomy_id)
        return stored[0], updated

    def edit_file(self, annotator: str, build: Callable[[LabelFile], list[Label]],
                  reason: str = "", taxonomy_id: str = "") -> tuple[list[Label], LabelFile]:
        """Apply several label edits in one locked write: ``build`` gets the annotator's file
        as it is on disk (under the lock) and returns the labels to save; each edit joins its
        label's history. Returns the stored labels (in ``build``'s order; an unchanged one as
        it was) and the whole file as written. Nothing is written when nothing changed."""
        path = self.path_for(annotator)
        with self._locked(path):
            current = self.read(annotator)
            updated = current
            stored: list[Label] = []
            for label in build(current):
                old = updated.get(label.item)
                edited = apply_edit(old, label, annotator, reason=reason)
                if edited is None:
                    stored.append(old or label)
                    continue
                stored.append(edited)
                updated = updated.with_label(edited)
            if updated is current:
                return stored, current
            if taxonomy_id and not updated.taxonomy:
                updated = replace(updated, taxonomy=taxonomy_id)
            _write(path, updated)
        return stored, updated

    def retract(self, annotator: str, item: ItemRef, reason: str = "") -> Label | None:
        """Withdraw a label; it stays in the file (``retracted``) with its history."""
        path = self.path_for(annotator)
        with self._locked(path):
            current = self.read(annotator)
            old = current.get(item)
            if old is None or old.retracted:
                return old
            stored = apply_edit(old, replace(old, retracted=True), annotator, reason=reason)
            assert stored is not None
            _write(path, current.with_label(stored))
        return stored

    def adjudicate(self, adjudicator: str, item: ItemRef, category: str, reason: str = "",
                   note: str = "", taxonomy_id: str = "") -> Label:
        """Set the final category of ``item``; the annotators' labels are copied into
        ``originals`` and their own files are not touched."""
        if not valid_annotator(adjudicator):
            raise ValueError(f"invalid adjudicator name {adjudicator!r}")
        path = self.adjudication_path
        with self._locked(path):
            current = self.read_adjudication()
            originals: dict[str, str] = {}
            for name in self.annotator_names():
                try:
                    own = self.read(name).get(item)
                except LabelFileError:
                    continue
                if own is not None and own.active:
                    originals[name] = own.category
            old = current.get(item)
            new = Label(item, category, "high", note or (old.note if old else ""),
                        old.evidence if old else (), None, originals=originals)
            stored = apply_edit(old, new, adjudicator, reason=reason)
            if stored is None:
                assert old is not None
                return old
            updated = current.with_label(stored)
            if taxonomy_id and not updated.taxonomy:
                updated = replace(updated, taxonomy=taxonomy_id)
            _write(path, updated)
        return stored
