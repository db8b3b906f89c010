"""Label files under real processes and real files: SIGKILL in the middle of writes (the file
is always the previous or a newer complete version), a writer killed while holding the lock,
concurrent writers to one file (nothing lost), and the session's writer thread (in order)."""

from __future__ import annotations

import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from inspector.model.labels.label_file import ItemRef, Label, LabelFile
from inspector.services.labels.session import LabelSession
from inspector.services.labels.store import LabelStore, read_label_file

ROOT = Path(__file__).resolve().parents[2]
LABELS_SCHEMA = Draft202012Validator(json.loads(
    (ROOT / "inspector" / "schemas" / "labels.schema.json").read_text(encoding="utf-8")))
ITEM = ItemRef("run-a/todo-service/0")
PAD = "x" * 300  # ~700 bytes of history per save: the file is tens of KB after the seed
SEED_SAVES = 40
KILLS = 30

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fcntl and SIGKILL")


def note(counter: int) -> str:
    return f"note {counter:08d} {PAD}"


def counter_of(text: str) -> int:
    return int(text.split()[1])


def child(code: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", code, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT)


def kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def tmp_files(folder: Path) -> set[str]:
    return {p.name for p in folder.glob(".ana.json.*.tmp")}


def check_chain(lf: LabelFile, first: int) -> int:
    """The label's history is one unbroken chain of notes ``first`` .. current: every save
    that reached the disk is there, once, in order. Returns the current counter."""
    label = lf.get(ITEM)
    assert label is not None
    history = label.history
    assert history[0].action == "create"
    assert history[0].changes["note"] == [None, note(first)]
    for k, edit in enumerate(history[1:], start=1):
        assert edit.action == "update"
        assert edit.changes == {"note": [note(first + k - 1), note(first + k)]}
    current = counter_of(label.note)
    assert label.note == note(current)
    assert len(history) == current - first + 1
    return current


def read_while_writing(path: Path, until: float, previous: int) -> int:
    """Read ``path`` again and again until ``until`` while a child rewrites it: every read is
    a complete document and the counter never goes back. Returns the number of reads."""
    reads = 0
    while time.monotonic() < until:
        raw = path.read_bytes()
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = None
        if doc is None:
            pytest.fail(f"a reader saw a torn file ({len(raw)} bytes)")
        current = counter_of(doc["labels"][0]["note"])
        assert current >= previous, "a reader saw an older version"
        previous = current
        reads += 1
    return reads


SAVE_LOOP = """
import sys
from pathlib import Path
from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.store import LabelStore

store = LabelStore(Path(sys.argv[1]))
i = int(sys.argv[2])
pad = "x" * 300
item = ItemRef("run-a/todo-service/0")
print("ready", flush=True)
while True:
    i += 1
    store.save("ana", Label(item, "dependency", "medium", f"note {i:08d} {pad}"))
"""


def test_sigkill_during_writes_never_tears_the_file(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    store = LabelStore(root)
    path = store.path_for("ana")
    for i in range(1, SEED_SAVES + 1):
        store.save("ana", Label(ITEM, "dependency", "medium", note(i)))
    assert path.stat().st_size > 20_000
    previous = check_chain(store.read("ana"), 1)
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    leftovers = reads = 0
    for n in range(KILLS):
        before_tmp = tmp_files(store.annotators_dir)
        proc = child(SAVE_LOOP, str(root), str(previous))
        try:
            assert proc.stdout is not None and proc.stderr is not None
            if proc.stdout.readline().strip() != "ready":
                pytest.fail(f"writer did not start: {proc.stderr.read()}")
            reads += read_while_writing(path, time.monotonic() + rng.uniform(0.005, 0.060),
                                        previous)
            if proc.poll() is not None:
                pytest.fail(f"writer died on its own: {proc.stderr.read()}")
        finally:
            kill(proc)
        where = f"kill {n + 1} of {KILLS} (seed {seed})"
        raw = path.read_bytes()
        assert raw.endswith(b"}\n"), where
        lf = read_label_file(path)
        assert lf is not None, where
        current = check_chain(lf, 1)
        assert current >= previous, where
        assert LABELS_SCHEMA.is_valid(json.loads(raw)), where
        new_tmp = tmp_files(store.annotators_dir) - before_tmp
        assert len(new_tmp) <= 1, f"{where}: {sorted(new_tmp)}"
        leftovers += len(new_tmp)
        # a leftover temp file never gets in the way of reading
        loaded = store.load()
        assert loaded.problems == [] and loaded.labels.annotators == ["ana"], where
        previous = current
    assert previous > SEED_SAVES, "the writers never got a save through"
    assert reads > KILLS
    assert len(tmp_files(store.annotators_dir)) == leftovers
    # and the next writer in this process carries on from the last complete version
    store.save("ana", Label(ITEM, "dependency", "medium", note(previous + 1)))
    assert check_chain(store.read("ana"), 1) == previous + 1


HOLD_LOCK = """
import sys, time
from pathlib import Path
from inspector.services.labels.store import LabelStore

store = LabelStore(Path(sys.argv[1]))
with store._locked(store.path_for("ana")):
    print("locked", flush=True)
    time.sleep(120)
"""


def test_writer_killed_while_holding_the_lock_does_not_block_the_next(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    store = LabelStore(root)
    store.save("ana", Label(ITEM, "dependency", "medium", note(1)))
    proc = child(HOLD_LOCK, str(root))
    result: dict[str, Any] = {}

    def save() -> None:
        try:
            result["label"] = store.save("ana", Label(ITEM, "cross-file", "medium", note(2)))
        except BaseException as exc:  # pragma: no cover - reported below
            result["error"] = exc

    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "locked"
        lock_file = root / ".locks" / "ana.json.lock"
        with open(lock_file, "a") as fh, pytest.raises(BlockingIOError):
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        writer = threading.Thread(target=save, daemon=True)
        writer.start()
        writer.join(0.3)
        assert writer.is_alive(), "the save did not wait for the lock"
        assert store.read("ana").get(ITEM).category == "dependency"
    finally:
        kill(proc)
    writer.join(10)
    assert not writer.is_alive(), "the lock of a killed process was not released"
    assert "error" not in result, result.get("error")
    on_disk = store.read("ana").get(ITEM)
    assert on_disk == result["label"]
    assert on_disk.category == "cross-file"
    assert [e.action for e in on_disk.history] == ["create", "update"]


CONCURRENT = """
import sys
from pathlib import Path
from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.store import LabelStore

store = LabelStore(Path(sys.argv[1]))
who, tag = sys.argv[2], sys.argv[3]
print("ready", flush=True)
sys.stdin.readline()
for i in range(40):
    store.save(who, Label(ItemRef(f"run-{tag}/task-{i:02d}/0"), "dependency", "medium",
                          f"{who} {tag} {i}"), reason=tag)
print("done", flush=True)
"""


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    writers = [("ana", "p1"), ("ana", "p2"), ("ben", "p3")]
    procs = [child(CONCURRENT, str(root), who, tag) for who, tag in writers]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:  # start them together
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            assert out.strip() == "done"
    finally:
        for proc in procs:
            kill(proc)

    store = LabelStore(root)
    loaded = store.load()
    assert loaded.problems == []
    ana, ben = loaded.labels.files["ana"], loaded.labels.files["ben"]
    assert len(ana.labels) == 80 and len(ben.labels) == 40
    expected = {(who, f"run-{tag}/task-{i:02d}/0"): f"{who} {tag} {i}"
                for who, tag in writers for i in range(40)}
    got = {(name, lb.item.sample): lb.note
           for name, f in loaded.labels.files.items() for lb in f.labels}
    assert got == expected
    for f in loaded.labels.files.values():
        assert all([e.action for e in lb.history] == ["create"] for lb in f.labels)
        assert [lb.item for lb in f.labels] == sorted((lb.item for lb in f.labels),
                                                      key=ItemRef.sort_key)
    for path in (store.path_for("ana"), store.path_for("ben")):
        assert LABELS_SCHEMA.is_valid(json.loads(path.read_text(encoding="utf-8"))), path
    assert list(store.annotators_dir.glob(".*.tmp")) == []


def test_session_writer_thread_keeps_every_save_in_order(tmp_path: Path) -> None:
    root = tmp_path / "labels"
    session = LabelSession(root, "ana")
    items = [ItemRef(f"run-a/task-{i:02d}/0") for i in range(20)]
    categories = ("dependency", "cross-file", "architectural", "other")
    results: list[tuple[Label | None, Exception | None]] = []
    expected: dict[ItemRef, list[tuple[str, str]]] = {it: [] for it in items}
    try:
        for n in range(200):  # round-robin over the items: 10 saves each, all queued at once
            item = items[n % len(items)]
            category, text = categories[n % 3], f"save {n:03d}"
            expected[item].append((category, text))
            session.save(item, category, note=text,
                         done=lambda lb, err: results.append((lb, err)))
        session.flush(timeout=60)
    finally:
        session.close()
    assert len(results) == 200
    assert [err for _, err in results if err is not None] == []

    on_disk = LabelStore(root).read("ana")
    assert [lb.item for lb in on_disk.labels] == items
    for item in items:
        label = on_disk.get(item)
        assert label is not None
        saves = expected[item]
        assert (label.category, label.note) == saves[-1]  # the last save wins
        notes = [e.changes["note"][1] for e in label.history]
        assert notes == [text for _, text in saves]  # every save, in the order made
        assert [e.action for e in label.history] == ["create"] + ["update"] * 9
    assert LABELS_SCHEMA.is_valid(
        json.loads(LabelStore(root).path_for("ana").read_text(encoding="utf-8")))
