"""Label files on disk: the store's round trip, history, retract/restore, stable bytes and
modes, adjudication, malformed files (never overwritten), taxonomies, the JSON Schemas, the
labels folder lookup, and stable sample ids when the runs folder moves."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import inspector.model.labels.label_file as labels_mod
from inspector.model import discover_runs
from inspector.model.labels.label_file import (
    Anchor,
    ItemRef,
    Label,
    LabelFile,
    apply_edit,
    parse_label_file,
)
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.taxonomy import load_taxonomy
from inspector.model.untrusted.errors import LoadError
from inspector.services.labels.session import LabelSession
from inspector.services.labels.store import (
    DEFAULT_TAXONOMY,
    LabelFileError,
    LabelStore,
    find_labels_dir,
    read_label_file,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = ROOT / "sample_runs"
SAMPLE_LABELS = SAMPLE_RUNS / "labels"
SCHEMA_DIR = ROOT / "inspector" / "schemas"
LABELS_SCHEMA = Draft202012Validator(
    json.loads((SCHEMA_DIR / "labels.schema.json").read_text(encoding="utf-8")))
TAXONOMY_SCHEMA = Draft202012Validator(
    json.loads((SCHEMA_DIR / "taxonomy.schema.json").read_text(encoding="utf-8")))
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

ITEM = ItemRef("run-a/todo/0")
OTHER = ItemRef("run-a/blog/1")


def schema_errors(validator: Draft202012Validator, doc: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator.iter_errors(doc)]


def label(item: ItemRef = ITEM, category: str = "dependency", confidence: str = "high",
          note: str = "requests is not in requirements.txt",
          evidence: tuple[Anchor, ...] = (Anchor.file("app.py", 3),
                                          Anchor.log("start", 12, "ModuleNotFoundError"))
          ) -> Label:
    return Label(item, category, confidence, note, evidence)


def tmp_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.tmp")) if folder.is_dir() else []


def snapshot(path: Path) -> tuple[bytes, int, int]:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_ino


@pytest.fixture
def store(tmp_path: Path) -> LabelStore:
    return LabelStore(tmp_path / "labels")


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(labels_mod, "now_iso", lambda: "2025-03-04T05:06:07Z")


# --- round trip ------------------------------------------------------------------------------

def test_save_writes_a_schema_valid_file_that_reads_back_equal(store: LabelStore) -> None:
    stored = store.save("ana", label(), taxonomy_id="repogenesis")
    path = store.path_for("ana")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert schema_errors(LABELS_SCHEMA, doc) == []
    assert (doc["format"], doc["version"], doc["kind"], doc["annotator"], doc["taxonomy"]) == (
        "genesis-inspector.labels", 1, "annotator", "ana", "repogenesis")

    back = store.read("ana")
    assert back.labels == (stored,)
    assert back.get(ITEM) == stored
    assert read_label_file(path) == back

    (create,) = stored.history
    assert create.action == "create"
    assert create.by == "ana" and ISO.match(create.at)
    assert stored.created == stored.updated
    assert stored.created.by == "ana" and stored.created.at == create.at
    assert create.changes == {
        "category": [None, "dependency"], "confidence": [None, "high"],
        "note": [None, "requests is not in requirements.txt"],
        "evidence": [None, ["app.py:3", "start log:12  ModuleNotFoundError"]]}
    assert tmp_files(store.annotators_dir) == []


def test_update_with_reason_appends_an_update_entry(store: LabelStore) -> None:
    first = store.save("ana", label())
    second = store.save("ana", label(category="cross-file", note="wrong import name"),
                        reason="the package is the repo's own module")
    assert [e.action for e in second.history] == ["create", "update"]
    assert second.history[0] == first.history[0]
    update = second.history[1]
    assert update.changes == {"category": ["dependency", "cross-file"],
                              "note": ["requests is not in requirements.txt",
                                       "wrong import name"]}
    assert update.reason == "the package is the repo's own module"
    assert update.by == "ana" and ISO.match(update.at)
    assert second.created == first.created
    assert store.read("ana").get(ITEM) == second
    doc = json.loads(store.path_for("ana").read_text(encoding="utf-8"))
    assert schema_errors(LABELS_SCHEMA, doc) == []
    assert doc["labels"][0]["history"][1]["changes"]["category"] == ["dependency", "cross-file"]


def test_unchanged_save_writes_nothing(store: LabelStore) -> None:
    stored = store.save("ana", label())
    path = store.path_for("ana")
    before = snapshot(path)
    again = store.save("ana", label(), reason="no change")
    assert again == stored
    assert snapshot(path) == before  # same bytes, mtime and inode: no rename happened
    assert tmp_files(store.annotators_dir) == []


def test_retract_keeps_the_label_and_restore_brings_it_back(store: LabelStore) -> None:
    store.save("ana", label())
    store.save("ana", label(OTHER, "cross-file"))
    retracted = store.retract("ana", ITEM, reason="misread the log")
    assert retracted is not None and retracted.retracted
    assert retracted.history[-1].action == "retract"
    assert retracted.history[-1].reason == "misread the log"

    on_disk = store.read("ana")
    kept = on_disk.get(ITEM)
    assert kept is not None and kept.retracted and kept.category == "dependency"
    assert [lb.item for lb in on_disk.active()] == [OTHER]
    assert LabelSet({"ana": on_disk}).labels_for(ITEM) == {}
    doc = json.loads(store.path_for("ana").read_text(encoding="utf-8"))
    assert schema_errors(LABELS_SCHEMA, doc) == []
    assert [lb["retracted"] for lb in doc["labels"]] == [False, True]  # blog/1 < todo/0

    before = snapshot(store.path_for("ana"))
    assert store.retract("ana", ITEM) == kept  # already retracted: nothing written
    assert store.retract("ana", ItemRef("run-a/none/0")) is None
    assert snapshot(store.path_for("ana")) == before

    restored = store.save("ana", label(), reason="it was right after all")
    assert not restored.retracted
    assert [e.action for e in restored.history] == ["create", "retract", "restore"]
    assert restored.history[-1].reason == "it was right after all"
    assert store.read("ana").get(ITEM) == restored
    assert LabelSet({"ana": store.read("ana")}).labels_for(ITEM) == {"ana": restored}


def test_labels_are_sorted_and_bytes_do_not_depend_on_insertion_order(
        tmp_path: Path, frozen_clock: None) -> None:
    items = [ItemRef(f"run-{r}/task-{t}/{n}", test)
             for r in "ba" for t in "yx" for n in (1, 0)
             for test in (None, "tests/test_api.py::test_b", "tests/test_api.py::test_a")]
    labels = [label(it, random.Random(i).choice(["dependency", "cross-file"]), note=f"n{i}")
              for i, it in enumerate(items)]
    written: list[bytes] = []
    for seed in range(3):
        order = labels[:]
        random.Random(seed).shuffle(order)
        store = LabelStore(tmp_path / f"labels{seed}")
        for lb in order:
            store.save("ana", lb)
        written.append(store.path_for("ana").read_bytes())
        got = [lb.item for lb in store.read("ana").labels]
        assert got == sorted(items, key=lambda it: (it.sample, it.test or ""))
        doc = json.loads(written[-1])
        assert [(d["sample"], d["test"]) for d in doc["labels"]] == [
            (it.sample, it.test) for it in got]
        assert got[0] == ItemRef("run-a/task-x/0")  # the sample itself before its tests
    assert written[0] == written[1] == written[2]


@pytest.mark.usefixtures("umask_022")
def test_file_mode_is_shared_not_private(store: LabelStore) -> None:
    store.save("ana", label())
    mode = store.path_for("ana").stat().st_mode & 0o777
    assert mode == 0o644 and mode != 0o600
    store.adjudicate("carla", ITEM, "dependency")
    assert store.adjudication_path.stat().st_mode & 0o777 == 0o644
    # an existing file keeps its mode across rewrites
    store.path_for("ana").chmod(0o664)
    store.save("ana", label(category="cross-file"))
    assert store.path_for("ana").stat().st_mode & 0o777 == 0o664


# --- adjudication ----------------------------------------------------------------------------

def test_adjudicate_keeps_originals_and_leaves_annotator_files_alone(store: LabelStore) -> None:
    store.save("ana", label(category="dependency"))
    store.save("ben", label(category="cross-file"))
    store.save("cy", label(category="other"))
    store.retract("cy", ITEM)  # withdrawn: not an original
    files = {n: store.path_for(n).read_bytes() for n in ("ana", "ben", "cy")}

    stored = store.adjudicate("carla", ITEM, "cross-file", reason="storage is the repo's own",
                              taxonomy_id="repogenesis")
    assert stored.originals == {"ana": "dependency", "ben": "cross-file"}
    assert stored.created.by == "carla" and stored.history[-1].reason == "storage is the repo's own"
    assert {n: store.path_for(n).read_bytes() for n in files} == files

    doc = json.loads(store.adjudication_path.read_text(encoding="utf-8"))
    assert schema_errors(LABELS_SCHEMA, doc) == []
    assert (doc["kind"], doc["annotator"]) == ("adjudication", "adjudication")
    assert doc["labels"][0]["originals"] == {"ana": "dependency", "ben": "cross-file"}

    loaded = store.load()
    assert loaded.problems == []
    final = loaded.labels.final(ITEM)
    assert (final.category, final.status) == ("cross-file", "adjudicated")
    assert final.ratings == {"ana": "dependency", "ben": "cross-file"}
    assert loaded.labels.final(OTHER).status == "unresolved"

    # unchanged: nothing written; a changed original is recorded as an update
    before = snapshot(store.adjudication_path)
    assert store.adjudicate("carla", ITEM, "cross-file") == stored
    assert snapshot(store.adjudication_path) == before
    store.save("ana", label(category="cross-file"))
    again = store.adjudicate("carla", ITEM, "cross-file")
    assert again.history[-1].action == "update"
    assert again.history[-1].changes["originals"] == [
        {"ana": "dependency", "ben": "cross-file"}, {"ana": "cross-file", "ben": "cross-file"}]


def test_adjudicating_the_bundled_labels(tmp_path: Path) -> None:
    root = shutil.copytree(SAMPLE_LABELS, tmp_path / "labels")
    store = LabelStore(root)
    notes = ItemRef("repo_readme_1119_relay_open_coder-7b_Python/notes-api/0")
    quote = ItemRef("repo_readme_1118_forge_m1-large_Python/quote-board/0")
    files = {p: p.read_bytes() for p in store.annotators_dir.glob("*.json")}
    assert store.load().labels.final(notes).status == "unresolved"
    assert store.load().labels.final(quote).status == "adjudicated"

    stored = store.adjudicate("carla", notes, "architectural")
    assert stored.originals == {"ana": "architectural", "ben": "other"}
    assert {p: p.read_bytes() for p in files} == files
    final = store.load().labels
    assert (final.final(notes).category, final.final(notes).status) == (
        "architectural", "adjudicated")
    adj = store.read_adjudication()
    assert [lb.item for lb in adj.labels] == [quote, notes]
    assert adj.get(quote).originals == {"ana": "not-model", "ben": "cross-file"}


# --- malformed files -------------------------------------------------------------------------

def _valid_doc(tmp: Path, kind: str = "annotator") -> dict[str, Any]:
    store = LabelStore(tmp / "source-labels")
    store.save("ana", label())
    store.save("ana", label(OTHER, "cross-file"))
    if kind == "adjudication":
        store.adjudicate("carla", ITEM, "dependency")
        return json.loads(store.adjudication_path.read_text(encoding="utf-8"))
    return json.loads(store.path_for("ana").read_text(encoding="utf-8"))


def _json(doc: Any) -> bytes:
    return json.dumps(doc, indent=2).encode("utf-8")


def _mutate(fn: Callable[[dict[str, Any]], None], kind: str = "annotator"
            ) -> Callable[[Path], bytes]:
    def make(tmp: Path) -> bytes:
        doc = _valid_doc(tmp, kind)
        fn(doc)
        return _json(doc)
    return make


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def _duplicate(d: dict[str, Any]) -> None:
    d["labels"].insert(1, dict(d["labels"][0], note="again"))


# (id, file: "ana" or "adjudication", content maker, field named in the message, text in it)
MALFORMED: list[tuple[str, str, Callable[[Path], bytes], str, str]] = [
    ("truncated-json", "ana", lambda t: _json(_valid_doc(t))[:150], "", "corrupt"),
    ("not-utf8", "ana", lambda t: b'{"format": "genesis-inspector.labels\xff\xfe\x80"}', "",
     "not UTF-8"),
    ("array-top-level", "ana", lambda t: _json([_valid_doc(t)]), "", "JSON object"),
    ("wrong-format", "ana", _mutate(_set("format", "genesis-inspector.taxonomy")), "format",
     "not a label file"),
    ("newer-version", "ana", _mutate(_set("version", 2)), "version",
     "written by a newer inspector"),
    ("missing-labels", "ana", _mutate(lambda d: d.pop("labels")), "labels", "must be a list"),
    ("unknown-confidence", "ana",
     _mutate(lambda d: d["labels"][1].__setitem__("confidence", "certain")),
     "labels[1].confidence", "'certain'"),
    ("duplicate-item", "ana", _mutate(_duplicate), "labels[1]", "a second label"),
    ("unknown-evidence-kind", "ana",
     _mutate(lambda d: d["labels"][1]["evidence"][0].__setitem__("kind", "screenshot")),
     "labels[1].evidence[0].kind", "unknown evidence kind 'screenshot'"),
    ("someone-elses-file", "ana", _mutate(_set("annotator", "ben")), "annotator",
     "holds 'ben'"),
    ("adjudication-without-originals", "adjudication",
     _mutate(lambda d: d["labels"][0].pop("originals"), kind="adjudication"),
     "labels[0].originals", "originals"),
]


@pytest.mark.parametrize(("which", "make", "field", "text"),
                         [pytest.param(*m[1:], id=m[0]) for m in MALFORMED])
def test_malformed_file_is_reported_and_never_overwritten(
        tmp_path: Path, which: str, make: Callable[[Path], bytes], field: str,
        text: str) -> None:
    store = LabelStore(tmp_path / "labels")
    store.save("ben", label(category="cross-file"))
    if which == "adjudication":
        store.save("ana", label())
        path = store.adjudication_path
    else:
        path = store.path_for("ana")
    content = make(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    before = snapshot(path)

    def read() -> None:
        store.read_adjudication() if which == "adjudication" else store.read("ana")

    with pytest.raises(LabelFileError) as info:
        read()
    message = str(info.value)
    assert message.startswith(str(path))
    assert info.value.issue.path == path
    assert text in message
    if field:
        assert info.value.issue.field == field
        assert f"field '{field}'" in message
    assert "\n" not in message

    with pytest.raises(LabelFileError):
        if which == "adjudication":
            store.adjudicate("carla", ITEM, "dependency")
        else:
            store.save("ana", label(category="other"), reason="overwrite?")
    if which == "ana":
        with pytest.raises(LabelFileError):
            store.retract("ana", ITEM)
    assert snapshot(path) == before
    assert tmp_files(path.parent) == []

    loaded = store.load()
    assert [p.issue.path for p in loaded.problems] == [path]
    assert str(loaded.problems[0]) == message
    assert "ben" in loaded.labels.files
    assert loaded.labels.files["ben"].get(ITEM).category == "cross-file"
    if which == "adjudication":
        assert loaded.labels.adjudication is None
        assert loaded.labels.files["ana"].get(ITEM) is not None
    else:
        assert "ana" not in loaded.labels.files


def test_newer_version_message_says_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    doc = _valid_doc(tmp_path)
    doc["version"] = 7
    path.write_bytes(_json(doc))
    with pytest.raises(LabelFileError, match=r"written by a newer inspector.*version 7"):
        read_label_file(path)


def test_leftover_temp_file_does_not_count_as_an_annotator(store: LabelStore) -> None:
    store.save("ana", label())
    torn = store.annotators_dir / ".ana.json.k3j2h1.tmp"
    torn.write_bytes(store.path_for("ana").read_bytes()[:40])
    assert store.annotator_names() == ["ana"]
    loaded = store.load()
    assert loaded.problems == [] and list(loaded.labels.files) == ["ana"]
    store.save("ana", label(category="other"))
    assert store.read("ana").get(ITEM).category == "other"


def test_session_does_not_write_to_an_unreadable_own_file(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    LabelStore(root).save("ben", label())
    own = root / "annotators" / "ana.json"
    own.write_bytes(b'{"format": "genesis-inspector.labels", "version": 1, "kind"')
    session = LabelSession(root, "ana")
    try:
        assert not session.writable
        assert any(str(own) in p for p in session.problems)
        with pytest.raises(LabelFileError, match="nothing is written"):
            session.save(ITEM, "dependency")
        assert own.read_bytes().endswith(b'"kind"')
        assert session.labels.labels_for(ITEM).keys() == {"ben"}
    finally:
        session.close()


def test_session_blind_mode_and_pending_evidence(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    LabelStore(root).save("ben", label(category="cross-file"))
    LabelStore(root).adjudicate("carla", ITEM, "cross-file")
    session = LabelSession(root, "ana", blind=True)
    try:
        assert session.others(ITEM) == {} and session.adjudicated(ITEM) is None
        assert session.state(ITEM.sample) == "unlabelled"
        anchor = Anchor.log("tests", 4, "E   KeyError")
        assert session.add_evidence(ITEM, anchor) == "pending"
        assert session.add_evidence(ITEM, anchor) == "present"
        session.save(ITEM, "dependency", note="mine")
        session.flush()
        assert session.pending_evidence(ITEM) == []
        mine = session.mine(ITEM)
        assert mine is not None and mine.evidence == (anchor,)
        assert session.state(ITEM.sample) == "labelled"
        assert set(session.others(ITEM)) == {"ben"}
        assert session.adjudicated(ITEM) is not None
        assert session.progress([ITEM.sample, OTHER.sample]) == (1, 2)
    finally:
        session.close()


# --- taxonomy --------------------------------------------------------------------------------

def _taxonomy_doc() -> dict[str, Any]:
    return {"format": "genesis-inspector.taxonomy", "version": 1, "id": "mine",
            "name": "My project",
            "categories": [
                {"id": "env", "name": "Environment", "description": "setup", "key": "1",
                 "colour": "#112233"},
                {"id": "logic", "name": "Logic", "description": "wrong code", "key": "2",
                 "colour": "#AABBCC"}]}


def test_bundled_taxonomy_validates() -> None:
    doc = json.loads(DEFAULT_TAXONOMY.read_text(encoding="utf-8"))
    assert schema_errors(TAXONOMY_SCHEMA, doc) == []
    tax = load_taxonomy(DEFAULT_TAXONOMY)
    assert tax.id == "repogenesis"
    assert tax.ids == ("architectural", "dependency", "cross-file", "not-model", "other")


def test_project_taxonomy_in_the_labels_folder(store: LabelStore) -> None:
    assert store.taxonomy_path == DEFAULT_TAXONOMY
    doc = _taxonomy_doc()
    assert schema_errors(TAXONOMY_SCHEMA, doc) == []
    store.root.mkdir(parents=True)
    (store.root / "taxonomy.json").write_text(json.dumps(doc), encoding="utf-8")
    assert store.taxonomy_path == store.root / "taxonomy.json"
    tax = store.taxonomy()
    assert (tax.id, tax.ids) == ("mine", ("env", "logic"))
    assert tax.get("logic").colour == "#aabbcc"
    assert tax.by_key("1").id == "env"


def _cat(i: int, **kw: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["categories"][i].update(kw)


BAD_TAXONOMIES = [
    ("duplicate-key", _cat(1, key="1"), "categories[1].key", "used by two categories", False),
    ("reserved-key", _cat(0, key="s"), "categories[0].key", "reserved", True),
    ("bad-colour", _cat(1, colour="orange"), "categories[1].colour", "'orange'", True),
    ("short-colour", _cat(0, colour="#abc"), "categories[0].colour", "#1f77b4", True),
    ("duplicate-id", _cat(1, id="env"), "categories[1].id", "duplicate category id", False),
    ("version-2", lambda d: d.__setitem__("version", 2), "version", "newer inspector", True),
]


@pytest.mark.parametrize(("mutate", "field", "text", "schema_refuses"),
                         [pytest.param(*b[1:], id=b[0]) for b in BAD_TAXONOMIES])
def test_bad_taxonomy_raises_load_error_naming_the_field(
        store: LabelStore, mutate: Callable[[dict[str, Any]], None], field: str, text: str,
        schema_refuses: bool) -> None:
    doc = _taxonomy_doc()
    mutate(doc)
    path = store.root / "taxonomy.json"
    store.root.mkdir(parents=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(LoadError) as info:
        store.taxonomy()
    assert info.value.issue.path == path
    assert info.value.issue.field == field
    assert str(info.value).startswith(f"{path}: field '{field}': ")
    assert text in str(info.value)
    # uniqueness across categories is the reader's job; the rest the schema refuses too
    assert bool(schema_errors(TAXONOMY_SCHEMA, doc)) == schema_refuses


def test_unreadable_taxonomy_falls_back_in_the_session(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    root.mkdir()
    (root / "taxonomy.json").write_text("{", encoding="utf-8")
    session = LabelSession(root, "ana")
    try:
        assert session.taxonomy.id == "repogenesis"
        assert any("taxonomy.json" in p and "default taxonomy" in p for p in session.problems)
    finally:
        session.close()


# --- JSON Schema -----------------------------------------------------------------------------

def test_every_bundled_label_file_validates() -> None:
    files = sorted(SAMPLE_LABELS.rglob("*.json"))
    assert {p.relative_to(SAMPLE_LABELS).as_posix() for p in files} >= {
        "annotators/ana.json", "annotators/ben.json", "adjudication.json"}
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        schema = TAXONOMY_SCHEMA if path.name == "taxonomy.json" else LABELS_SCHEMA
        assert schema_errors(schema, doc) == [], path
        if schema is LABELS_SCHEMA:
            parsed = read_label_file(path)
            assert parsed is not None
            # what the writer would write for the parsed content is the file itself
            assert labels_mod.dumps_labels(parsed.to_json()) == path.read_text(encoding="utf-8")


def test_writer_output_validates_for_every_kind_of_edit(tmp_path: Path) -> None:
    store = LabelStore(tmp_path / "labels")
    store.save("ana", label(evidence=(Anchor.file("x.py"), Anchor.for_test("t.py::t"),
                                      Anchor.log("install", 1, "x" * 400))))
    store.save("ana", replace(label(ItemRef(ITEM.sample, "t.py::t")),
                              suggestion={"category": "dependency", "rule": "r",
                                          "reason": "why"}))
    store.save("ana", label(note="changed"), reason="r")
    store.retract("ana", ITEM)
    store.save("ana", label())
    store.adjudicate("carla", ITEM, "dependency", note="final")
    for path in (store.path_for("ana"), store.adjudication_path):
        assert schema_errors(LABELS_SCHEMA, json.loads(path.read_text(encoding="utf-8"))) == []


REFUSED: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("missing-history", "annotator", lambda d: d["labels"][0].pop("history")),
    ("empty-history", "annotator", lambda d: d["labels"][0].__setitem__("history", [])),
    ("adjudication-without-originals", "adjudication",
     lambda d: d["labels"][0].pop("originals")),
    ("annotator-with-originals", "annotator",
     lambda d: d["labels"][0].__setitem__("originals", {"ben": "other"})),
    ("bad-confidence", "annotator", lambda d: d["labels"][0].__setitem__("confidence", "HIGH")),
    ("unknown-evidence-kind", "annotator",
     lambda d: d["labels"][0]["evidence"][0].__setitem__("kind", "url")),
    ("log-anchor-line-0", "annotator",
     lambda d: d["labels"][0]["evidence"][1].__setitem__("line", 0)),
    ("unknown-action", "annotator",
     lambda d: d["labels"][0]["history"][0].__setitem__("action", "delete")),
    ("change-not-a-pair", "annotator",
     lambda d: d["labels"][0]["history"][0]["changes"].__setitem__("note", [1, 2, 3])),
    ("retracted-not-bool", "annotator", lambda d: d["labels"][0].__setitem__("retracted", "no")),
    ("empty-sample", "annotator", lambda d: d["labels"][0].__setitem__("sample", "")),
    ("missing-created", "annotator", lambda d: d["labels"][0].pop("created")),
    ("newer-version", "annotator", _set("version", 2)),
    ("wrong-format", "annotator", _set("format", "labels")),
    ("bad-annotator-name", "annotator", _set("annotator", "../ben")),
    ("unknown-kind", "annotator", _set("kind", "reviewer")),
    ("missing-labels", "annotator", lambda d: d.pop("labels")),
]


@pytest.mark.parametrize(("kind", "mutate"), [pytest.param(*r[1:], id=r[0]) for r in REFUSED])
def test_documents_the_parser_refuses_the_schema_refuses(
        tmp_path: Path, kind: str, mutate: Callable[[dict[str, Any]], None]) -> None:
    doc = _valid_doc(tmp_path, kind)
    assert schema_errors(LABELS_SCHEMA, doc) == []
    parse_label_file(doc, tmp_path / "x.json")
    mutate(doc)
    with pytest.raises(LoadError) as info:
        parse_label_file(doc, tmp_path / "x.json")
    assert str(info.value).startswith(str(tmp_path / "x.json"))
    assert schema_errors(LABELS_SCHEMA, doc), "the schema accepts what the parser refuses"


def test_apply_edit_without_change_is_none_and_history_is_never_empty() -> None:
    created = apply_edit(None, label(), "ana", at="2025-01-01T00:00:00Z")
    assert created is not None and len(created.history) == 1
    assert apply_edit(created, label(), "ana") is None
    doc = LabelFile("ana", labels=(created,)).to_json()
    assert schema_errors(LABELS_SCHEMA, doc) == []


# --- finding the labels folder ---------------------------------------------------------------

def test_find_labels_dir_from_the_runs_folder_and_a_run() -> None:
    assert find_labels_dir(SAMPLE_RUNS) == SAMPLE_LABELS
    runs = sorted(p for p in (SAMPLE_RUNS / "runs").iterdir() if p.is_dir())
    assert runs
    assert find_labels_dir(SAMPLE_RUNS / "runs") == SAMPLE_LABELS
    for run in runs:
        assert find_labels_dir(run) == SAMPLE_LABELS
    report = runs[0] / "report.json"
    assert report.is_file() and find_labels_dir(report) == SAMPLE_LABELS
    assert not (SAMPLE_RUNS / "runs" / "labels").exists()  # nothing created by looking


def test_find_labels_dir_without_labels(tmp_path: Path) -> None:
    folder = tmp_path / "project" / "runs"
    folder.mkdir(parents=True)
    assert find_labels_dir(folder) == folder / "labels"
    assert not (folder / "labels").exists()
    # a labels folder without annotators/ in a parent is not adopted
    (tmp_path / "project" / "labels").mkdir()
    assert find_labels_dir(folder) == folder / "labels"
    (tmp_path / "project" / "labels" / "annotators").mkdir()
    assert find_labels_dir(folder) == folder / "labels"  # no label file yet: no evidence
    (tmp_path / "project" / "labels" / "annotators" / "ana.json").write_text("{}")
    assert find_labels_dir(folder) == tmp_path / "project" / "labels"


# --- stable ids ------------------------------------------------------------------------------

def test_labels_survive_moving_the_runs_folder(tmp_path: Path) -> None:
    first = shutil.copytree(SAMPLE_RUNS, tmp_path / "a" / "sample_runs")
    moved = tmp_path / "elsewhere" / "renamed-runs"
    moved.parent.mkdir()
    shutil.move(first, moved)
    assert not first.exists()

    store = LabelStore(find_labels_dir(moved))
    assert store.root == moved / "labels"
    loaded = store.load()
    assert loaded.problems == []
    assert loaded.labels.annotators == ["ana", "ben"]
    runs = discover_runs(moved).runs
    sample_ids = {s.sample_id for run in runs for s in run.samples}
    labelled = [lb.item.sample for f in loaded.labels.files.values() for lb in f.labels]
    assert loaded.labels.adjudication is not None
    labelled += [lb.item.sample for lb in loaded.labels.adjudication.labels]
    assert len(labelled) == 21
    assert set(labelled) <= sample_ids, set(labelled) - sample_ids
    for path in store.root.rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert str(SAMPLE_RUNS) not in text and str(tmp_path) not in text
