"""Label files that are not what they claim, with real files and real processes: a symlink to
/dev/zero and a FIFO (memory-capped, timed-out processes), a file over the size cap, a history
nested 900 deep, a disk that fills up and a file system that turns read-only (a real tmpfs),
an unreadable labels folder, and temp files of writers killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.session import LabelSession
from inspector.services.labels.store import (
    MAX_LABEL_FILE_BYTES,
    LabelFileError,
    LabelStore,
    read_label_file,
)

from .conftest import (
    ROOT,
    assert_denied,
    cli,
    copy_fixture,
    fill,
    remount_read_only,
)

ITEM = ItemRef("repo_readme_1118_forge_m1-large_Python/todo-service/0")


def _labels(corpus: Path) -> tuple[Path, Path]:
    labels = corpus / "labels"
    return labels, labels / "annotators" / "ana.json"


def _no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


# ------------------------------------------------------------------ not a regular file

@pytest.mark.parametrize("command", ["check", "agreement"])
def test_a_label_file_symlinked_to_dev_zero_is_refused_unread(corpus: Path,
                                                              command: str) -> None:
    labels, ana = _labels(corpus)
    ana.unlink()
    ana.symlink_to("/dev/zero")  # what git checks out from a hostile branch
    done = cli("labels", command, str(labels), capped=True, timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    assert (f"inspector: error: {ana}: not a regular file (a character device, via a symlink "
            "to /dev/zero); not read") in done.stderr
    if command == "check":  # the other annotator's file still counts
        assert "1 annotator file(s) (ben)" in done.stdout
        assert "1 unreadable file(s)" in done.stdout


@pytest.mark.parametrize("command", ["check", "agreement"])
def test_a_label_file_that_is_a_fifo_does_not_hang(corpus: Path, command: str) -> None:
    labels, ana = _labels(corpus)
    ana.unlink()
    os.mkfifo(ana)  # nobody ever writes to it: reading it would block forever
    started = time.monotonic()
    done = cli("labels", command, str(labels), capped=True, timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    assert f"{ana}: not a regular file (a FIFO (named pipe)); not read" in done.stderr
    assert time.monotonic() - started < 30
    assert ana.exists() and not ana.is_file()  # left as it was


def test_a_label_file_over_the_size_cap_is_refused_unread(corpus: Path) -> None:
    labels, ana = _labels(corpus)
    with open(ana, "r+b") as fh:  # sparse: as big as it says, without using the disk
        fh.truncate(MAX_LABEL_FILE_BYTES + 1)
    done = cli("labels", "check", str(labels), capped=True, timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    assert (f"{ana}: file is {MAX_LABEL_FILE_BYTES + 1} bytes, larger than the "
            f"{MAX_LABEL_FILE_BYTES} byte limit; not read") in done.stderr


# ------------------------------------------------------------------ nested too deep

def test_a_history_nested_900_deep_is_a_load_error_and_nothing_is_written(tmp_path: Path
                                                                          ) -> None:
    root = tmp_path / "labels"
    ana = copy_fixture("deep_history.json", root / "annotators" / "ana.json")
    before = ana.read_bytes()
    store = LabelStore(root)
    loaded = store.load()
    assert [str(p) for p in loaded.problems] == [
        f"{ana}: field 'labels[0].history[1].changes.note': value nested more than 8 levels "
        "deep (a label's history holds plain values)"]
    with pytest.raises(LabelFileError) as info:
        store.save("ana", Label(ITEM, "other", "high", "changed"))
    assert info.value.issue.path == ana
    session = LabelSession(root, "ana")
    try:
        assert not session.writable
        with pytest.raises(LabelFileError, match=r"nested more than 8 levels deep.*nothing is "
                                                 r"written"):
            session.save(ITEM, "other")
    finally:
        session.close()
    assert ana.read_bytes() == before


# ------------------------------------------------------------------ disk full, read-only

def _seed(root: Path) -> tuple[LabelStore, Path, bytes]:
    store = LabelStore(root)
    store.save("ana", Label(ITEM, "dependency", "medium", "kept"))
    path = store.path_for("ana")
    return store, path, path.read_bytes()


def _temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_disk_full_names_the_label_file_and_leaves_it_as_it_was(tiny_fs) -> None:
    disk = tiny_fs("64k")
    store, path, before = _seed(disk / "labels")
    assert fill(disk) > 0
    big = Label(ItemRef("run/other-task/0"), "other", "medium", "n" * 8000)
    with pytest.raises(LabelFileError) as info:
        store.save("ana", big)
    message = str(info.value)
    assert info.value.issue.path == path
    assert message == f"{path}: not saved: the disk is full; the file is unchanged"
    assert path.read_bytes() == before
    assert _temp_files(path.parent) == []
    # the session reports the same failure to its caller, never a success
    session = LabelSession(disk / "labels", "ana")
    heard: list[tuple[Label | None, Exception | None]] = []
    try:
        session.save(big.item, "other", note=big.note, done=lambda lb, err: heard.append((lb, err)))
        session.flush()
    finally:
        session.close()
    assert len(heard) == 1 and heard[0][0] is None
    assert str(heard[0][1]) == message
    assert path.read_bytes() == before
    # with room again, the same save goes through
    (disk / "filler").unlink()
    store.save("ana", big)
    assert read_label_file(path).get(big.item).note == big.note  # type: ignore[union-attr]


def test_a_read_only_file_system_names_the_label_file(tiny_fs) -> None:
    disk = tiny_fs("256k")
    store, path, before = _seed(disk / "labels")
    remount_read_only(disk)
    with pytest.raises(LabelFileError) as info:
        store.save("ana", Label(ITEM, "other", "high", "changed"))
    assert info.value.issue.path == path
    assert str(info.value) == (f"{path}: not saved: the file system is read-only (at "
                               f"{disk / 'labels' / '.locks' / 'ana.json.lock'}); the file is "
                               "unchanged")
    with pytest.raises(LabelFileError, match="read-only") as retract:
        store.retract("ana", ITEM)
    assert retract.value.issue.path == path
    with pytest.raises(LabelFileError, match="read-only") as adjudicate:
        store.adjudicate("carla", ITEM, "other")
    assert adjudicate.value.issue.path == store.adjudication_path
    assert path.read_bytes() == before
    # reading still works, and says nothing is wrong with the files themselves
    loaded = store.load()
    assert loaded.problems == [] and loaded.labels.files["ana"].get(ITEM).note == "kept"


def test_an_unreadable_labels_folder_is_one_message_naming_it(corpus: Path) -> None:
    labels, _ = _labels(corpus)
    labels.chmod(0)
    try:
        assert_denied(labels)
        done = cli("labels", "check", str(labels), unprivileged=True, timeout=60)
    finally:
        labels.chmod(0o755)
    _no_traceback(done)
    assert done.returncode == 1
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("inspector: error:")]
    assert errors == [f"inspector: error: {labels}: cannot read the labels folder: permission "
                      "denied"]


# ------------------------------------------------------------------ orphaned temp files

KILLED_WRITER = """
import sys, time
from pathlib import Path
from inspector.services.storage.atomic import atomic_writer

path, payload = Path(sys.argv[1]), sys.argv[2].encode()
with atomic_writer(path) as fh:
    fh.write(payload[: len(payload) // 2])
    fh.flush()
    print("inside", flush=True)
    sys.stdin.readline()  # SIGKILLed here, or told to finish
    fh.write(payload[len(payload) // 2:])
print("done", flush=True)
"""


def _writer(path: Path, payload: bytes) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path), payload.decode()],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stdout is not None and proc.stdout.readline().strip() == "inside", \
        proc.stderr.read() if proc.stderr else ""
    return proc


def _age(paths: list[Path], seconds: float) -> None:
    old = time.time() - seconds
    for p in paths:
        os.utime(p, (old, old))


def test_temp_files_of_killed_writers_are_removed_but_never_a_live_ones(tmp_path: Path
                                                                        ) -> None:
    root = tmp_path / "labels"
    store, path, _ = _seed(root)
    payload = path.read_bytes().replace(b'"kept"', b'"from the live writer"')
    folder = path.parent
    killed = [_writer(path, payload) for _ in range(6)]
    for proc in killed:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    orphans = sorted(folder.glob(".ana.json.*.tmp"))
    assert len(orphans) == 6  # what 300 kills of real label writers left 38 of
    live = _writer(path, payload)
    try:
        live_tmp = [p for p in folder.glob(".ana.json.*.tmp") if p not in orphans]
        assert len(live_tmp) == 1
        # fresh orphans are left alone (a writer may have only just created its file) ...
        store.load()
        assert sorted(folder.glob(".ana.json.*.tmp")) == sorted([*orphans, *live_tmp])
        # ... old ones are removed when the store next loads, and the live writer's file is
        # kept however old it looks: it holds the temp file's lock until its rename
        _age([*orphans, *live_tmp], 3600)
        loaded = store.load()
        assert loaded.problems == []
        assert sorted(folder.glob(".ana.json.*.tmp")) == live_tmp
        assert live.stdin is not None
        live.stdin.write("finish\n")
        live.stdin.flush()
        assert live.wait(timeout=10) == 0
    finally:
        if live.poll() is None:
            live.kill()
            live.wait(timeout=10)
    assert path.read_bytes() == payload
    assert read_label_file(path).get(ITEM).note == "from the live writer"  # type: ignore[union-attr]
    assert list(folder.glob(".ana.json.*.tmp")) == []
    # and a save sweeps too: an orphan of the adjudication file in the labels folder
    straggler = _writer(root / "adjudication.json", b"{}")
    straggler.send_signal(signal.SIGKILL)
    straggler.wait(timeout=10)
    left = list(root.glob(".adjudication.json.*.tmp"))
    assert len(left) == 1
    _age(left, 3600)
    store.save("ana", Label(ITEM, "other", "high", "after"))
    assert list(root.glob(".adjudication.json.*.tmp")) == []
