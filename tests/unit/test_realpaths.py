"""resolve_below gives realpath's answer or hands over to it; plain test cases read as the
field-by-field reader reads them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspector.model.results.outcomes import Outcome
from inspector.model.runs.realpaths import real_folder, resolve_below, within
from inspector.model.runs.runformat import _plain_case
from inspector.model.untrusted.errors import LoadIssue
from inspector.model.untrusted.jsonfields import Fields


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "run" / "s" / "logs").mkdir(parents=True)
    (tmp_path / "run" / "s" / "logs" / "a.log").write_text("x")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "b.log").write_text("y")
    (tmp_path / "run" / "s" / "link").symlink_to(tmp_path / "out")
    (tmp_path / "run" / "s" / "loop").symlink_to(tmp_path / "run" / "s" / "loop")
    return tmp_path


@pytest.mark.parametrize("raw", ["logs/a.log", "./logs//a.log", "logs/missing.log",
                                 "../s/logs/a.log", "../../out/b.log", "link/b.log",
                                 "loop/x", "/etc/passwd", "logs/a\0.log", "../../../../.."])
def test_same_answer_as_realpath_or_none(tree: Path, raw: str) -> None:
    base = real_folder(tree / "run" / "s")
    assert base is not None
    fast = resolve_below(base, raw)
    if fast is not None:
        assert fast == os.path.realpath(os.path.join(base, raw))
    if raw in ("link/b.log", "loop/x", "/etc/passwd", "logs/missing.log", "logs/a\0.log"):
        assert fast is None  # symlinks, absolute, missing, NUL: the slow path decides


def test_real_folder_refuses_links_loops_and_files(tree: Path) -> None:
    assert real_folder(tree / "run" / "s" / "loop") is None
    assert real_folder(tree / "run" / "s" / "logs" / "a.log") is None
    assert real_folder(tree / "run" / "s" / "link") == str(tree / "out")
    assert within("/a/b/c", "/a/b") and within("/a/b", "/a/b") and not within("/a/bc", "/a/b")


@pytest.mark.parametrize("raw", [
    {"id": "tests/t.py::a", "outcome": "passed", "duration_seconds": 0.5, "line": 3},
    {"id": "tests/t.py::a", "outcome": "failed", "message": "m", "traceback": "t",
     "file": "tests/t.py", "line": 0, "duration_seconds": -0.0},
    {"id": "", "outcome": "skipped"},
])
def test_plain_case_reads_like_fields(raw: dict) -> None:
    case = _plain_case(raw, lambda i: i)
    assert case is not None
    issues: list[LoadIssue] = []
    f = Fields(raw, Path("r.json"), "c", issues)
    assert (case.id, case.outcome, case.duration_seconds, case.message, case.traceback,
            case.file, case.line) == (
        f.text("id") or "", Outcome(f.text("outcome")), f.number("duration_seconds", lo=0.0),
        f.text("message", "") or "", f.text("traceback", "") or "", f.text("file"),
        f.integer("line", minimum=0))
    assert issues == []


@pytest.mark.parametrize("raw", [
    [], {"outcome": "passed"}, {"id": "x", "outcome": "weird"}, {"id": 5, "outcome": "passed"},
    {"id": "x", "outcome": "passed", "duration_seconds": -1.0},
    {"id": "x", "outcome": "passed", "duration_seconds": 2},
    {"id": "x", "outcome": "passed", "duration_seconds": float("nan")},
    {"id": "x", "outcome": "passed", "line": True}, {"id": "x", "outcome": "passed", "line": -1},
    {"id": "x", "outcome": "passed", "line": 2 ** 60}, {"id": "x", "outcome": "passed",
                                                         "message": 3},
])
def test_anything_unusual_goes_the_field_by_field_way(raw: object) -> None:
    assert _plain_case(raw, lambda i: i) is None
