"""Failure labels: what an annotator (or an adjudicator) said about one failing sample or test.

One JSON document per annotator (schema ``inspector/schemas/labels.schema.json``)::

    {"format": "genesis-inspector.labels", "version": 1, "kind": "annotator",
     "annotator": "ana", "taxonomy": "repogenesis",
     "labels": [{"sample": "<run id>/<task>/<n>", "test": null, "category": "dependency",
                 "confidence": "high", "note": "...", "evidence": [...],
                 "suggestion": {...} | null, "created": {"at": ..., "by": ...},
                 "updated": {"at": ..., "by": ...}, "retracted": false,
                 "history": [{"at": ..., "by": ..., "action": "create", "changes": {...},
                              "reason": ""}]}]}

``kind`` is ``"adjudication"`` for the adjudicator's file, whose labels also carry
``originals`` (each annotator's category when the final one was set). Labels are sorted by
(sample, test) and every object's keys come in a fixed order, so files diff and merge well.
Samples are named by their stable id (run id, task, sample number), never by a path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeAlias

from inspector.model.runs.ids import id_problem
from inspector.model.untrusted.doc_header import check_header, type_name
from inspector.model.untrusted.errors import LoadError

LABELS_FORMAT = "genesis-inspector.labels"
LABELS_VERSION = 1
KINDS = ("annotator", "adjudication")
CONFIDENCES = ("low", "medium", "high")
ANCHOR_KINDS = ("file", "log", "test", "task")
ACTIONS = ("create", "update", "retract", "restore")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def valid_annotator(name: str) -> bool:
    """Annotator names: letters, digits, ``.``, ``_``, ``-``; up to 64; a file name as is."""
    return bool(_NAME.match(name)) and name not in (".", "..")


def now_iso() -> str:
    """The current UTC time as stored in label files (seconds, ``Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class ItemRef:
    """What a label is about: a sample, or one test of it (``test`` is a pytest node id)."""

    sample: str
    test: str | None = None

    @property
    def key(self) -> str:
        """One string naming the item (``sample`` or ``sample::test``)."""
        return self.sample if self.test is None else f"{self.sample}::{self.test}"

    def sort_key(self) -> tuple[str, str]:
        return (self.sample, self.test or "")


@dataclass(frozen=True, slots=True)
class Anchor:
    """A piece of evidence an annotator pointed at.

    ``file``: ``path`` (relative to the generated repo) and ``line``; ``log``: ``phase``
    (install/start/health/tests), ``line`` (1-based in that phase's log) and the line's
    ``text``; ``test``: ``test`` (node id); ``task``: a file of the benchmark task (its README,
    a golden test) — ``path`` relative to the task folder, ``line`` and the line's ``text``.
    """

    kind: str
    path: str | None = None
    line: int | None = None
    phase: str | None = None
    text: str | None = None
    test: str | None = None

    @staticmethod
    def file(path: str, line: int | None = None) -> Anchor:
        return Anchor("file", path=path, line=line)

    @staticmethod
    def log(phase: str, line: int, text: str = "") -> Anchor:
        return Anchor("log", phase=phase, line=line, text=text[:300])

    @staticmethod
    def for_test(test_id: str) -> Anchor:
        return Anchor("test", test=test_id)

    @staticmethod
    def task_file(path: str, line: int | None = None, text: str = "") -> Anchor:
        return Anchor("task", path=path, line=line, text=text[:300])

    def describe(self) -> str:
        """``app/models.py:12``, ``start log:14  ImportError: …``, ``test tests/x.py::t``."""
        if self.kind == "file":
            return f"{self.path}:{self.line}" if self.line else f"{self.path}"
        if self.kind == "log":
            text = f"  {self.text}" if self.text else ""
            return f"{self.phase} log:{self.line}{text}"
        if self.kind == "task":
            where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
            return f"task {where}"
        return f"test {self.test}"

    def to_json(self) -> dict[str, Any]:
        if self.kind == "file":
            return {"kind": "file", "path": self.path, "line": self.line}
        if self.kind == "log":
            return {"kind": "log", "phase": self.phase, "line": self.line, "text": self.text or ""}
        if self.kind == "task":
            return {"kind": "task", "path": self.path, "line": self.line, "text": self.text or ""}
        return {"kind": "test", "test": self.test}


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A category proposed from the evidence, with the reason; never applied by itself.

    ``rule`` names the rule that fired (stable, for measuring); ``evidence`` are the anchors the
    rule read.
    """

    category: str
    reason: str
    rule: str
    evidence: tuple[Anchor, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "rule": self.rule, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Stamp:
    """Who did something, and when (ISO-8601 UTC)."""

    at: str
    by: str

    def to_json(self) -> dict[str, str]:
        return {"at": self.at, "by": self.by}


@dataclass(frozen=True, slots=True)
class Edit:
    """One entry of a label's history: ``changes`` maps a field to ``[old, new]``."""

    at: str
    by: str
    action: str
    changes: dict[str, list[Any]] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "by": self.by, "action": self.action,
                "changes": {k: self.changes[k] for k in sorted(self.changes)},
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Label:
    """One annotator's (or the adjudicator's) label of one item, with its whole history."""

    item: ItemRef
    category: str
    confidence: str = "medium"
    note: str = ""
    evidence: tuple[Anchor, ...] = ()
    suggestion: dict[str, str] | None = None  # what was suggested when it was labelled
    created: Stamp = Stamp("", "")
    updated: Stamp = Stamp("", "")
    retracted: bool = False
    history: tuple[Edit, ...] = ()
    originals: dict[str, str] | None = None  # adjudication only: annotator -> category
    follows: str | None = None  # key of the root item whose cause this one shares

    @property
    def active(self) -> bool:
        return not self.retracted

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sample": self.item.sample, "test": self.item.test, "category": self.category,
            "confidence": self.confidence, "note": self.note,
            "evidence": [a.to_json() for a in self.evidence],
            "suggestion": self.suggestion, "created": self.created.to_json(),
            "updated": self.updated.to_json(), "retracted": self.retracted,
        }
        if self.originals is not None:
            out["originals"] = {k: self.originals[k] for k in sorted(self.originals)}
        if self.follows is not None:
            out["follows"] = self.follows
        out["history"] = [e.to_json() for e in self.history]
        return out


_TRACKED = ("category", "confidence", "note", "evidence")


def _tracked_value(label: Label, name: str) -> Any:
    value = getattr(label, name)
    if name == "evidence":
        return [a.describe() for a in value]
    return value


def apply_edit(old: Label | None, new: Label, by: str, at: str | None = None,
               reason: str = "") -> Label | None:
    """``new`` stamped and with ``old``'s history plus one entry saying what changed.

    Returns ``None`` when nothing tracked changed (so no write is needed).
    """
    at = at or now_iso()
    if old is None:
        changes = {n: [None, _tracked_value(new, n)] for n in _TRACKED}
        if new.follows is not None:
            changes["follows"] = [None, new.follows]
        edit = Edit(at, by, "create", changes, reason)
        return replace(new, created=Stamp(at, by), updated=Stamp(at, by), retracted=False,
                       history=(edit,))
    changes = {}
    for n in _TRACKED:
        a, b = _tracked_value(old, n), _tracked_value(new, n)
        if a != b:
            changes[n] = [a, b]
    if old.follows != new.follows:
        changes["follows"] = [old.follows, new.follows]
    if old.retracted and not new.retracted:
        action = "restore"
    elif new.retracted and not old.retracted:
        action = "retract"
    elif changes or (new.originals != old.originals):
        action = "update"
    else:
        return None
    if new.originals != old.originals and new.originals is not None:
        changes["originals"] = [old.originals, new.originals]
    edit = Edit(at, by, action, changes, reason)
    return replace(new, created=old.created, updated=Stamp(at, by),
                   history=old.history + (edit,))


@dataclass(frozen=True, slots=True)
class LabelFile:
    """The content of one label file."""

    annotator: str
    kind: str = "annotator"
    taxonomy: str = ""
    labels: tuple[Label, ...] = ()

    def get(self, item: ItemRef) -> Label | None:
        return next((lb for lb in self.labels if lb.item == item), None)

    def active(self) -> list[Label]:
        return [lb for lb in self.labels if lb.active]

    def with_label(self, label: Label) -> LabelFile:
        """This file with ``label`` added or replacing the one for the same item, sorted."""
        rest = [lb for lb in self.labels if lb.item != label.item]
        rest.append(label)
        rest.sort(key=lambda lb: lb.item.sort_key())
        return replace(self, labels=tuple(rest))

    def to_json(self) -> dict[str, Any]:
        labels = sorted(self.labels, key=lambda lb: lb.item.sort_key())
        return {"format": LABELS_FORMAT, "version": LABELS_VERSION, "kind": self.kind,
                "annotator": self.annotator, "taxonomy": self.taxonomy,
                "labels": [lb.to_json() for lb in labels]}


# one-line text of a JSON value, with its children as (key or None, node) when a non-empty container
_Node: TypeAlias = "tuple[str, list[tuple[str | None, _Node]] | None]"


def dumps_labels(doc: dict[str, Any]) -> str:
    """JSON text for a label document: 2-space indent, but short lists and objects (anchors,
    stamps, ``[old, new]`` pairs) on one line, so a change shows as a one-line diff.

    Linear in the document's size: each value is serialised once, bottom-up.
    """
    import json
    from json.encoder import encode_basestring

    def flat(value: Any) -> _Node:
        kids: list[tuple[str | None, _Node]]
        if isinstance(value, str):
            return encode_basestring(value), None
        if isinstance(value, dict) and value:
            kids = [(encode_basestring(k), flat(v)) for k, v in value.items()]
            return "{" + ", ".join(f"{k}: {n[0]}" for k, n in kids) + "}", kids
        if isinstance(value, list) and value:
            kids = [(None, flat(v)) for v in value]
            return "[" + ", ".join(n[0] for _, n in kids) + "]", kids
        return json.dumps(value, ensure_ascii=False), None

    def lay(node: _Node, indent: int, is_dict: bool) -> str:
        text, kids = node
        if kids is None:
            return text
        nested = sum(1 for _, n in kids if n[1] is not None)
        if indent + len(text) <= 96 and not (is_dict and nested and len(kids) > 2):
            return text
        pad = " " * (indent + 2)
        parts = []
        for key, child in kids:
            child_is_dict = child[0].startswith("{")
            body = lay(child, indent + 2, child_is_dict)
            parts.append(f"{pad}{key}: {body}" if key is not None else pad + body)
        open_, close = ("{", "}") if is_dict else ("[", "]")
        return open_ + "\n" + ",\n".join(parts) + "\n" + " " * indent + close

    return lay(flat(doc), 0, True) + "\n"


# ---------------------------------------------------------------------------------- reading

def _str(d: dict[str, Any], key: str, path: Path, where: str, optional: bool = False) -> str | None:
    value = d.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise LoadError(path, f"must be a string, not {_type(value)}", f"{where}.{key}")
    return value


_type = type_name


def _int(d: dict[str, Any], key: str, path: Path, where: str, optional: bool = False) -> int | None:
    value = d.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise LoadError(path, f"must be a positive integer, not {value!r}", f"{where}.{key}")
    return value


def _stamp(d: Any, path: Path, where: str) -> Stamp:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object with 'at' and 'by', not {_type(d)}", where)
    return Stamp(_str(d, "at", path, where) or "", _str(d, "by", path, where) or "")


def sample_id_problem(sample: str) -> str | None:
    """Why ``sample`` is not ``<run id>/<task>/<n>`` (each part one path component), or None.
    A label names a sample, never a path: ``../../etc/passwd`` is not one."""
    parts = sample.split("/")
    if len(parts) != 3:
        return "is not <run id>/<task>/<number>"
    for part in parts[:2]:
        problem = id_problem(part)
        if problem is not None:
            return f"has a part that {problem}"
    return None if parts[2].isdigit() and parts[2].isascii() else "does not end in a number"


def relative_path_problem(value: str) -> str | None:
    """Why ``value`` cannot be a path inside a repo or task folder (absolute, ``..``, NUL)."""
    if "\0" in value:
        return "holds a NUL character"
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", value):
        return "is an absolute path"
    if ".." in re.split(r"[\\/]", value):
        return "leaves its folder ('..')"
    return None


def _shown(value: str) -> str:
    return repr(value if len(value) <= 80 else value[:77] + "…")


def _anchor(d: Any, path: Path, where: str) -> Anchor:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    kind = d.get("kind")
    if kind in ("file", "task"):
        problem = relative_path_problem(str(d.get("path") or ""))
        if problem is not None:
            raise LoadError(path, f"{_shown(str(d.get('path')))} {problem}", f"{where}.path")
    if kind == "file":
        return Anchor("file", path=_str(d, "path", path, where),
                      line=_int(d, "line", path, where, optional=True))
    if kind == "log":
        return Anchor("log", phase=_str(d, "phase", path, where),
                      line=_int(d, "line", path, where),
                      text=_str(d, "text", path, where, optional=True) or "")
    if kind == "test":
        return Anchor("test", test=_str(d, "test", path, where))
    if kind == "task":
        return Anchor("task", path=_str(d, "path", path, where),
                      line=_int(d, "line", path, where, optional=True),
                      text=_str(d, "text", path, where, optional=True) or "")
    raise LoadError(path, f"unknown evidence kind {kind!r} (expected one of "
                          f"{', '.join(ANCHOR_KINDS)})", f"{where}.kind")


MAX_CHANGE_DEPTH = 8
"""How deep a value in a label's history may nest: ``[old, new]`` of strings, lists of
evidence and objects of categories need 3; anything deeper is not a label file's."""


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists/objects more than ``limit`` levels (iteratively, so a
    hostile value cannot exhaust the stack here)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _edit(d: Any, path: Path, where: str) -> Edit:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    action = d.get("action")
    if action not in ACTIONS:
        raise LoadError(path, f"unknown action {action!r}", f"{where}.action")
    changes = d.get("changes", {})
    if not isinstance(changes, dict) or not all(
            isinstance(v, list) and len(v) == 2 for v in changes.values()):
        raise LoadError(path, "must map field names to [old, new]", f"{where}.changes")
    for name, value in changes.items():
        if _deeper_than(value, MAX_CHANGE_DEPTH):
            raise LoadError(path, f"value nested more than {MAX_CHANGE_DEPTH} levels deep (a "
                                  "label's history holds plain values)", f"{where}.changes.{name}")
    return Edit(_str(d, "at", path, where) or "", _str(d, "by", path, where) or "", action,
                dict(changes), _str(d, "reason", path, where, optional=True) or "")


def _label(d: Any, path: Path, where: str, kind: str) -> Label:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    sample = _str(d, "sample", path, where) or ""
    if not sample.strip():
        raise LoadError(path, "must not be empty", f"{where}.sample")
    problem = sample_id_problem(sample)
    if problem is not None:
        raise LoadError(path, f"not a sample id ({_shown(sample)} {problem})", f"{where}.sample")
    test = _str(d, "test", path, where, optional=True)
    problem = relative_path_problem(test.split("::", 1)[0]) if test is not None else None
    if test is not None and problem is not None:
        raise LoadError(path, f"not a test id of the sample ({_shown(test)}: its file "
                              f"{problem})", f"{where}.test")
    category = _str(d, "category", path, where) or ""
    confidence = d.get("confidence", "medium")
    if confidence not in CONFIDENCES:
        raise LoadError(path, f"must be one of {', '.join(CONFIDENCES)}, not {confidence!r}",
                        f"{where}.confidence")
    evidence = d.get("evidence", [])
    if not isinstance(evidence, list):
        raise LoadError(path, "must be a list", f"{where}.evidence")
    suggestion = d.get("suggestion")
    if suggestion is not None and not (isinstance(suggestion, dict) and all(
            isinstance(v, str) for v in suggestion.values())):
        raise LoadError(path, "must be null or an object of strings", f"{where}.suggestion")
    history = d.get("history")
    if not isinstance(history, list) or not history:
        raise LoadError(path, "must be a non-empty list (every label keeps its history, "
                              "starting with its 'create' entry)", f"{where}.history")
    retracted = d.get("retracted", False)
    if not isinstance(retracted, bool):
        raise LoadError(path, "must be true or false", f"{where}.retracted")
    originals = d.get("originals")
    if kind == "adjudication":
        if not isinstance(originals, dict) or not all(
                isinstance(v, str) for v in originals.values()):
            raise LoadError(path, "an adjudication must keep the annotators' categories "
                                  "(an object of strings)", f"{where}.originals")
    elif originals is not None:
        raise LoadError(path, "only adjudication files have originals", f"{where}.originals")
    follows = _str(d, "follows", path, where, optional=True)
    if follows is not None and not follows.strip():
        raise LoadError(path, "must name the root item (sample or sample::test)",
                        f"{where}.follows")
    return Label(
        ItemRef(sample, test), category, confidence,
        _str(d, "note", path, where, optional=True) or "",
        tuple(_anchor(a, path, f"{where}.evidence[{i}]") for i, a in enumerate(evidence)),
        dict(suggestion) if suggestion is not None else None,
        _stamp(d.get("created"), path, f"{where}.created"),
        _stamp(d.get("updated"), path, f"{where}.updated"),
        retracted,
        tuple(_edit(e, path, f"{where}.history[{i}]") for i, e in enumerate(history)),
        dict(originals) if originals is not None else None,
        follows)


def parse_label_file(data: Any, path: Path) -> LabelFile:
    """Validate a label document; :class:`LoadError` names the file and the field.

    A document from a newer inspector (higher ``version``) is refused, never guessed at.
    """
    check_header(data, path, LABELS_FORMAT, LABELS_VERSION, "label file",
                 "left as is — upgrade genesis-inspector to edit it")
    kind = data.get("kind", "annotator")
    if kind not in KINDS:
        raise LoadError(path, f"kind must be one of {', '.join(KINDS)}, not {kind!r}", "kind")
    annotator = data.get("annotator")
    if not isinstance(annotator, str) or not valid_annotator(annotator):
        raise LoadError(path, f"invalid annotator name {annotator!r} (letters, digits, '.', "
                              "'_', '-')", "annotator")
    taxonomy = data.get("taxonomy", "")
    if not isinstance(taxonomy, str):
        raise LoadError(path, "must be a string", "taxonomy")
    raw = data.get("labels")
    if not isinstance(raw, list):
        raise LoadError(path, "must be a list", "labels")
    labels: list[Label] = []
    seen: set[ItemRef] = set()
    for i, item in enumerate(raw):
        label = _label(item, path, f"labels[{i}]", kind)
        if label.item in seen:
            raise LoadError(path, f"a second label for {label.item.key}", f"labels[{i}]")
        seen.add(label.item)
        labels.append(label)
    labels.sort(key=lambda lb: lb.item.sort_key())
    return LabelFile(annotator, kind, taxonomy, tuple(labels))
