"""One annotator's labelling session: their labels, everyone else's (respecting blind mode),
pending evidence, and writes done in order on one background thread.

The app holds one session; screens ask it what to show and hand it edits. Every write goes
through :class:`~inspector.services.labels.store.LabelStore` (atomic, locked) on a single
writer thread, so keystrokes never wait for ``fsync`` and edits land in the order made.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from inspector.model.labels.groups import follow_label, followers, group_labels, retract_group
from inspector.model.labels.label_file import Anchor, ItemRef, Label, LabelFile, Suggestion
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.rollup import labelled_samples
from inspector.model.labels.taxonomy import Taxonomy, load_taxonomy
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.services.labels.store import DEFAULT_TAXONOMY, LabelFileError, LabelStore


class _Keep:
    """The type of :data:`KEEP`."""


KEEP = _Keep()
"""``follows=KEEP``: a saved label keeps what it followed."""


class LabelSession:
    """``annotator``'s view of the labels folder ``root``.

    In ``blind`` mode, other annotators' labels (and the adjudication) of an item stay hidden
    until ``annotator`` has labelled that item.
    """

    def __init__(self, root: Path, annotator: str, blind: bool = False,
                 taxonomy_path: Path | None = None, *, read_only: bool = False) -> None:
        self.store = LabelStore(root, taxonomy_path)
        self.store.path_for(annotator)  # validates the name (ValueError)
        self.annotator = annotator
        self.blind = blind
        self.read_only = read_only
        """A read-only session: labels are shown, nothing is ever written."""
        self.problems: list[str] = []
        self.taxonomy = self._load_taxonomy()
        self.labels = LabelSet()
        self._mine: set[str] = set()  # samples the annotator labelled (derived from labels)
        self.writable = True
        """False when the annotator's own file cannot be read: nothing is written then."""
        self._unwritable: LoadIssue | None = None  # why not writable (from the last load)
        self.drafts: dict[ItemRef, list[Anchor]] = {}
        self._lock = threading.Lock()
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="label-writer")
        self.reload()

    @property
    def root(self) -> Path:
        return self.store.root

    def _load_taxonomy(self) -> Taxonomy:
        try:
            return self.store.taxonomy()
        except LoadError as exc:
            self.problems.append(f"{exc} — using the default taxonomy")
            return load_taxonomy(DEFAULT_TAXONOMY)

    def reload(self) -> None:
        """Re-read every label file (after another inspector or git changed them)."""
        loaded = self.store.load()
        with self._lock:
            self._set_labels(loaded.labels)
            self.problems = [p for p in self.problems if "taxonomy" in p]
            self.problems += [str(p) for p in loaded.problems]
            unusable = (self.store.path_for(self.annotator), self.store.annotators_dir,
                        self.store.root)
            blocking = [p for p in loaded.problems if p.issue.path in unusable]
            self.writable = not blocking and not self.read_only
            self._unwritable = blocking[0].issue if blocking else None

    def _set_labels(self, labels: LabelSet) -> None:
        self.labels = labels
        self._mine = labelled_samples(labels, self.annotator)

    # ------------------------------------------------------------------------------ reading
    def mine(self, item: ItemRef) -> Label | None:
        f = self.labels.files.get(self.annotator)
        label = f.get(item) if f else None
        return label if label is not None and label.active else None

    def visible(self, item: ItemRef) -> bool:
        """May the annotator see others' labels of ``item``?"""
        return not self.blind or self.mine(item) is not None

    def others(self, item: ItemRef) -> dict[str, Label]:
        """Other annotators' labels of ``item`` ({} while blind mode hides them)."""
        if not self.visible(item):
            return {}
        return {n: lb for n, lb in self.labels.labels_for(item).items() if n != self.annotator}

    def adjudicated(self, item: ItemRef) -> Label | None:
        return self.labels.adjudicated(item) if self.visible(item) else None

    def state(self, sample_id: str) -> str:
        """``labelled`` when the annotator labelled one of the sample's failure items (the
        sample-level item or a test): :func:`~inspector.model.labels.rollup.labelled_samples`,
        the definition the tables count by."""
        return "labelled" if sample_id in self._mine else "unlabelled"

    def progress(self, sample_ids: Iterable[str]) -> tuple[int, int]:
        """(labelled by the annotator, total) over ``sample_ids``."""
        ids = list(sample_ids)
        return sum(1 for s in ids if s in self._mine), len(ids)

    def disagreements(self) -> list[ItemRef]:
        """Items annotators labelled differently that this annotator may see."""
        return [i for i in self.labels.disagreements() if self.visible(i)]

    # ------------------------------------------------------------------------------ writing
    def _submit(self, fn: Callable[[], Label | None],
                done: Callable[[Label | None, Exception | None], None] | None,
                path: Path | None = None) -> Future[Label | None]:
        """Run ``fn`` on the writer thread; ``done`` hears of success only once the file is on
        disk, and of every failure as a :class:`LabelFileError` naming ``path`` (the
        annotator's file by default) — nothing is lost on the thread."""
        target = path or self.store.path_for(self.annotator)
        if self.read_only:
            raise LabelFileError(target, "read-only session: nothing is written")

        def run() -> Label | None:
            try:
                result = fn()
            except LabelFileError as exc:
                error: LabelFileError = exc
            except Exception as exc:  # a bug must still reach the user, naming the file
                error = LabelFileError(target, f"not saved: {type(exc).__name__}: {exc}")
            else:
                if done:
                    done(result, None)
                return result
            if done:
                done(None, error)
            return None

        return self._writer.submit(run)

    def _refresh_own(self, own: LabelFile | None = None) -> None:
        """Take the annotator's file as just written (``own``), else read it again."""
        if own is None:
            try:
                own = self.store.read(self.annotator)
            except LabelFileError as exc:
                with self._lock:
                    self.writable = False
                    self._unwritable = exc.issue
                    self.problems.append(str(exc))
                return
        with self._lock:
            files = dict(self.labels.files)
            files[self.annotator] = own
            self._set_labels(replace(self.labels, files=files))

    def _refresh_adjudication(self) -> None:
        try:
            adj: LabelFile | None = self.store.read_adjudication()
        except LabelFileError:
            return
        with self._lock:
            self._set_labels(replace(self.labels, adjudication=adj))

    def save(self, item: ItemRef, category: str, *, confidence: str | None = None,
             note: str | None = None, evidence: tuple[Anchor, ...] | None = None,
             suggestion: Suggestion | dict[str, str] | None = None, reason: str = "",
             follows: str | None | _Keep = KEEP,
             done: Callable[[Label | None, Exception | None], None] | None = None
             ) -> Future[Label | None]:
        """Label ``item`` (or change the label); unset fields keep their current value.

        ``follows``: the root key the label follows, ``None`` for a label of its own (an
        override of its group); by default a label keeps what it followed. Pending evidence
        (:meth:`add_evidence` before the item had a label) is included. ``done(label,
        error)`` is called on the writer thread when the file is written.
        """
        label = self._label(item, category, confidence, note, evidence, suggestion, follows)

        def write() -> Label | None:
            stored, own = self.store.save_file(self.annotator, label, reason=reason,
                                               taxonomy_id=self.taxonomy.id)
            self._refresh_own(own)
            return stored

        return self._submit(write, done)

    def save_group(self, root: ItemRef, members: Sequence[ItemRef], category: str, *,
                   confidence: str | None = None, note: str | None = None,
                   suggestion: Suggestion | dict[str, str] | None = None, reason: str = "",
                   done: Callable[[Label | None, Exception | None], None] | None = None
                   ) -> Future[Label | None]:
        """Label the root of a group and let its members follow, in one write: every member
        without a label of its own (and every label already following the root) gets the
        root's category with ``follows`` = the root's key; members the annotator labelled on
        their own keep their label (see :mod:`inspector.model.labels.groups`). ``done`` hears
        of the root's stored label."""
        label = self._label(root, category, confidence, note, None, suggestion, None)

        def write() -> Label | None:
            stored, own = self.store.edit_file(
                self.annotator, lambda current: group_labels(current, label, members),
                reason=reason, taxonomy_id=self.taxonomy.id)
            self._refresh_own(own)
            return stored[0]

        return self._submit(write, done)

    def follow(self, item: ItemRef, root: ItemRef, reason: str = "",
               done: Callable[[Label | None, Exception | None], None] | None = None
               ) -> Future[Label | None]:
        """Make ``item`` follow ``root`` again (drop its own label's category for the
        root's); refused (``ValueError``) while the root has no label."""
        self._check_writable()
        root_label = self.mine(root)
        if root_label is None:
            raise ValueError(f"{root.key} has no label yet: label the root first")

        def write() -> Label | None:
            stored, own = self.store.edit_file(
                self.annotator,
                lambda current: [follow_label(current, item, root.key, root_label.category)],
                reason=reason, taxonomy_id=self.taxonomy.id)
            self._refresh_own(own)
            return stored[0]

        return self._submit(write, done)

    def followers(self, root: ItemRef) -> list[Label]:
        """The annotator's active labels that follow ``root``."""
        f = self.labels.files.get(self.annotator)
        return followers(f, root.key) if f else []

    def _check_writable(self) -> None:
        if self.read_only:
            raise LabelFileError(self.store.path_for(self.annotator),
                                 "read-only session: nothing is written")
        if not self.writable:
            why = self._unwritable
            reason = "" if why is None else (
                f" ({why.path}: {f'field {why.field!r}: ' if why.field else ''}{why.message})"
                if why.path != self.store.path_for(self.annotator) else
                f" ({f'field {why.field!r}: ' if why.field else ''}{why.message})")
            raise LabelFileError(self.store.path_for(self.annotator),
                                 f"your label file cannot be read{reason}, so nothing is "
                                 "written to it")

    def _label(self, item: ItemRef, category: str, confidence: str | None, note: str | None,
               evidence: tuple[Anchor, ...] | None,
               suggestion: Suggestion | dict[str, str] | None,
               follows: str | None | _Keep) -> Label:
        """The label to save: unset fields from the current label, pending evidence added."""
        self._check_writable()
        old = self.mine(item)
        draft = tuple(self.drafts.pop(item, ()))
        base_evidence = old.evidence if old else ()
        ev = evidence if evidence is not None else base_evidence
        ev = ev + tuple(a for a in draft if a not in ev)
        sugg = old.suggestion if old else None
        if old is None and suggestion is not None:
            sugg = suggestion if isinstance(suggestion, dict) else suggestion.to_json()
        return Label(item, category,
                     confidence or (old.confidence if old else "medium"),
                     note if note is not None else (old.note if old else ""),
                     ev, sugg,
                     follows=(old.follows if old else None) if isinstance(follows, _Keep)
                     else follows)

    def retract(self, item: ItemRef, reason: str = "",
                done: Callable[[Label | None, Exception | None], None] | None = None
             ) -> Future[Label | None]:
        """Withdraw the annotator's label of ``item`` and of the labels following it (kept
        in the file, with history)."""
        def write() -> Label | None:
            if not self.followers(item):
                stored = self.store.retract(self.annotator, item, reason)
                self._refresh_own()
                return stored
            labels, own = self.store.edit_file(
                self.annotator, lambda current: retract_group(current, item), reason=reason)
            self._refresh_own(own)
            return next((lb for lb in labels if lb.item == item), None)

        return self._submit(write, done)

    def add_evidence(self, item: ItemRef, anchor: Anchor,
                     done: Callable[[Label | None, Exception | None], None] | None = None
                     ) -> str:
        """Attach ``anchor``: saved at once when the item has a label (``"saved"``), else
        kept until it is labelled (``"pending"``); ``"present"`` when already there."""
        old = self.mine(item)
        if old is None:
            pending = self.drafts.setdefault(item, [])
            if anchor in pending:
                return "present"
            pending.append(anchor)
            return "pending"
        if anchor in old.evidence:
            return "present"
        self.save(item, old.category, evidence=old.evidence + (anchor,), done=done)
        return "saved"

    def remove_evidence(self, item: ItemRef, anchor: Anchor,
                        done: Callable[[Label | None, Exception | None], None] | None = None
                        ) -> bool:
        old = self.mine(item)
        if old is None:
            pending = self.drafts.get(item, [])
            if anchor in pending:
                pending.remove(anchor)
                return True
            return False
        if anchor not in old.evidence:
            return False
        self.save(item, old.category,
                  evidence=tuple(a for a in old.evidence if a != anchor), done=done)
        return True

    def pending_evidence(self, item: ItemRef) -> list[Anchor]:
        return list(self.drafts.get(item, ()))

    def adjudicate(self, item: ItemRef, category: str, reason: str = "",
                   done: Callable[[Label | None, Exception | None], None] | None = None
                   ) -> Future[Label | None]:
        """Set the final category of ``item`` as this annotator (originals are kept)."""
        def write() -> Label | None:
            stored = self.store.adjudicate(self.annotator, item, category, reason=reason,
                                           taxonomy_id=self.taxonomy.id)
            self._refresh_adjudication()
            return stored

        return self._submit(write, done, self.store.adjudication_path)

    def flush(self, timeout: float | None = 10.0) -> None:
        """Wait until every submitted write is on disk."""
        self._writer.submit(lambda: None).result(timeout=timeout)

    def close(self) -> None:
        """Finish pending writes and stop the writer thread."""
        self._writer.shutdown(wait=True)
