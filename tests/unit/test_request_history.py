"""RequestHistory: real files, a lock shared by two processes, refusal to clobber bad files."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from inspector.model.request.http_request import RequestSpec, ResponseRecord
from inspector.services.rerun.history import (
    HistoryEntry,
    HistoryError,
    RequestHistory,
    history_path,
)


def entry(n: int, tag: str = "a", body: bytes = b'{"ok": true}') -> HistoryEntry:
    spec = RequestSpec("POST", "/todos/{id}", (("n", str(n)),), (("X-Tag", tag),), "json",
                       f'{{"n": {n}}}')
    response = ResponseRecord(201, "Created", "HTTP/1.1", (("Content-Type", "application/json"),),
                              12.5, body, sent_at="2024-05-01T12:00:00.000+00:00")
    return HistoryEntry(spec, response, "http://127.0.0.1:18080", "local")


def _append_many(path: str, tag: str, count: int) -> None:
    history = RequestHistory(Path(path), limit=1000)
    for n in range(count):
        history.append(entry(n, tag))


def test_absent_file_is_an_empty_history(tmp_path: Path) -> None:
    history = RequestHistory(tmp_path / "h.json")
    assert history.load() == [] and history.entries() == []
    assert not (tmp_path / "h.json").exists()


def test_append_persists_entries_newest_last(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "h.json"
    history = RequestHistory(path)
    history.append(entry(1))
    binary = entry(2, body=b"\x89PNG\x00\xff")
    history.append(binary)
    data = json.loads(path.read_text())
    assert data["schema"] == 1 and len(data["entries"]) == 2
    assert data["entries"][1]["response"]["body_encoding"] == "base64"
    reread = RequestHistory(path).load()
    assert reread == [entry(1), binary]
    assert history.entries() == reread


def test_append_keeps_entries_written_by_another_instance(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    first, second = RequestHistory(path), RequestHistory(path)
    first.load()
    second.append(entry(1, "second"))
    written = first.append(entry(2, "first"))
    assert [e.spec.header("X-Tag") for e in written] == ["second", "first"]


def test_limit_keeps_the_newest(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    history = RequestHistory(path, limit=3)
    for n in range(1, 6):
        history.append(entry(n))
    assert [e.spec.query for e in RequestHistory(path).load()] == [
        (("n", "3"),), (("n", "4"),), (("n", "5"),)]
    with pytest.raises(ValueError, match="at least 1"):
        RequestHistory(path, limit=0)


def test_two_processes_appending_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_append_many, args=(str(path), tag, 50)) for tag in ("p1", "p2")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    entries = RequestHistory(path, limit=1000).load()
    assert len(entries) == 100
    for tag in ("p1", "p2"):
        mine = [e.spec.query[0][1] for e in entries if e.spec.header("X-Tag") == tag]
        assert mine == [str(n) for n in range(50)]  # all there, in each writer's order


@pytest.mark.parametrize("content", [
    b"{not json", b"", b"[1, 2]", b'{"schema": 1}', b'{"schema": "1", "entries": []}',
    b'{"schema": 1, "entries": [{"spec": {"method": "GET"}}]}', b"\xff\xfe",
])
def test_corrupt_file_raises_and_is_never_overwritten(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "h.json"
    path.write_bytes(content)
    history = RequestHistory(path)
    with pytest.raises(HistoryError) as info:
        history.load()
    assert str(path) in str(info.value) and "left as is" in str(info.value)
    with pytest.raises(HistoryError):
        history.append(entry(1))
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_corrupt_entry_is_named(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    good = entry(1).to_dict()
    bad = entry(2).to_dict()
    bad["response"]["status"] = "oops"
    path.write_text(json.dumps({"schema": 1, "entries": [good, bad]}))
    with pytest.raises(HistoryError, match=r"entries\[1\].*'status'"):
        RequestHistory(path).load()


def test_newer_schema_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    content = json.dumps({"schema": 2, "entries": [{"future": True}]}).encode()
    path.write_bytes(content)
    history = RequestHistory(path)
    with pytest.raises(HistoryError, match="newer inspector") as info:
        history.load()
    assert str(path) in str(info.value)
    with pytest.raises(HistoryError, match="schema 2"):
        history.append(entry(1))
    assert path.read_bytes() == content


def test_history_path_is_one_safe_readable_component(tmp_path: Path) -> None:
    key = "runs/2024-05 gpt@host:8080/todo-service#3"
    path = history_path(tmp_path, key)
    assert path.parent.parent == tmp_path
    assert path.name.startswith("runs-2024-05-gpt-host-8080-todo-service-3-")
    assert path.suffix == ".json"
    assert all(c.isalnum() or c in "-._" for c in path.name)
    assert history_path(tmp_path, key) == path
    # keys that slug the same still get different files
    assert history_path(tmp_path, "a/b") != history_path(tmp_path, "a:b")
    assert history_path(tmp_path, "../..").name.startswith("sample-")
    assert len(history_path(tmp_path, "x" * 500).name) < 100
    RequestHistory(path).append(entry(1))
    assert RequestHistory(path).load() == [entry(1)]
