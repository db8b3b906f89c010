"""Nothing dropped silently (issue 28, item 3): a sample whose files cannot be read is an
``unreadable`` sample of its run, counted and listed with its file and the whole reason, and
``summary`` / ``failures`` exit 3; a run whose own file cannot be read is an unreadable run.
On copies of the bundled runs (ours and the stock layout), through the CLI's ``main``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli import main

from .conftest import FORGE, RELAY, SAMPLE_RUNS, cli

STOCK_ID = "repo_readme_1119_relay_open_coder-7b_Python@relay"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _result(run: Path, task: str) -> Path:
    return run / "samples" / task / "0" / "result.json"


@pytest.fixture
def forge(tmp_path: Path) -> Path:
    run = tmp_path / "runs" / FORGE
    shutil.copytree(SAMPLE_RUNS / "runs" / FORGE, run)
    return run


@pytest.fixture
def stock(tmp_path: Path) -> Path:
    out = tmp_path / "stock" / "relay"
    shutil.copytree(SAMPLE_RUNS / "repogenesis" / "relay", out)
    return out


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:300])


def _replace(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _wrong_type(path: Path) -> None:
    doc = json.loads(path.read_text("utf-8"))
    doc["tests"] = "all passed"
    path.write_text(json.dumps(doc), encoding="utf-8")


CORRUPTIONS = {
    "truncated": (_truncate, "truncated JSON: the file ends at line 10 inside a string that "
                             "starts at line 10 column 17"),
    "invalid": (lambda p: _replace(p, '{"format_version": 1,, "task": "x"}'),
                "invalid JSON at line 1 column 22: Expecting property name enclosed in double "
                "quotes"),
    "a list": (lambda p: _replace(p, "[1, 2, 3]"), "expected an object, got a list"),
    "wrong types": (_wrong_type, "field 'tests': expected an object, got a string"),
    "missing": (lambda p: p.unlink(), "missing (listed in run.json)"),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_a_corrupt_result_is_an_unreadable_sample_counted_listed_and_exit_3(
        forge: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    corrupt, reason = CORRUPTIONS[kind]
    result = _result(forge, "todo-service")
    corrupt(result)
    code, out, err = _run(capsys, "summary", str(forge), "--json")
    assert code == 3  # EXIT_UNREADABLE
    [run] = json.loads(out)
    assert (run["samples"], run["unreadable"]) == (5, 1)
    assert run["unreadable_samples"] == [{
        "kind": "sample", "task": "todo-service", "sample": 0,
        "file": "samples/todo-service/0/result.json", "reason": reason}]
    # the error line names the file and the whole reason, one line, no traceback
    assert f"inspector: error: {result}: {reason}\n" in err
    assert "Traceback" not in err
    assert "1 unreadable file(s) in 1 run(s)" in err


def test_the_figures_say_over_how_many_samples_they_are_computed(
        forge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _result(forge, "todo-service")
    before = _run(capsys, "summary", str(forge), "--json")
    _truncate(result)
    left = result.read_bytes()
    code, out, _ = _run(capsys, "summary", str(forge))
    assert (before[0], code) == (0, 3)
    assert json.loads(before[1])[0]["samples"] == 6
    row = next(line for line in out.splitlines() if line.startswith(FORGE))
    assert " 5 of 6 " in row
    assert "Unreadable files (their samples are not in the figures):" in out
    assert (f"  {FORGE}: pass@1 " in out and "over 5 of 6 samples; 1 unreadable:\n"
            "    samples/todo-service/0/result.json: truncated JSON: the file ends at line 10 "
            "inside a string that starts at line 10 column 17\n") in out
    assert result.read_bytes() == left  # read, never rewritten


def test_failures_lists_the_unreadable_sample_and_exits_3(
        forge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _replace(_result(forge, "todo-service"), "[]")
    code, out, _ = _run(capsys, "failures", str(forge), "--json")
    assert code == 3
    rows = [r for r in json.loads(out) if r["outcome"] == "unreadable"]
    assert [(r["task"], r["sample"], r["file"], r["message"]) for r in rows] == [
        ("todo-service", 0, "samples/todo-service/0/result.json",
         "expected an object, got a list")]
    code, out, _ = _run(capsys, "failures", str(forge))
    assert code == 3
    assert (f"  {FORGE}: samples/todo-service/0/result.json: expected an object, got a list"
            in out)


def test_a_broken_run_json_is_an_unreadable_run_not_left_out(
        forge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_json = forge / "run.json"
    _truncate(run_json)
    code, out, err = _run(capsys, "summary", str(forge.parent), "--json")
    assert code == 3
    [run] = json.loads(out)
    assert (run["run_id"], run["samples"], run["unreadable"]) == (FORGE, 0, 1)
    assert (run["pass_at_1"], run["test_pass_ratio"], run["dsr"]) == (None, None, None)
    [entry] = run["unreadable_samples"]
    assert (entry["kind"], entry["file"]) == ("run", "run.json")
    assert entry["reason"].startswith("truncated JSON: the file ends at line ")
    assert f"inspector: error: {run_json}: {entry['reason']}\n" in err
    code, out, _ = _run(capsys, "summary", str(forge.parent))
    row = next(line for line in out.splitlines() if line.startswith(FORGE))
    assert "unreadable" in row and "0.0%" not in row  # no figures for a run never read
    assert f"  {FORGE}: no figures: the run's own file cannot be read:\n    run.json: " in out


def test_a_broken_stock_result_entry_is_an_unreadable_sample(
        stock: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = stock / "report.json"
    doc = json.loads(report.read_text("utf-8"))
    doc["results"][3] = [doc["results"][3]]  # an entry that is not an object
    report.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = _run(capsys, "summary", str(stock), "--json")
    assert code == 3
    [run] = json.loads(out)
    assert (run["run_id"], run["samples"], run["unreadable"]) == (STOCK_ID, 5, 1)
    assert run["unreadable_samples"] == [{
        "kind": "sample", "task": None, "sample": 0, "file": "report.json",
        "reason": "field 'results[3]': expected an object, got a list"}]


def test_a_broken_stock_intermediate_file_is_an_unreadable_sample(
        stock: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (stock / "report.json").unlink()  # the per-repo results are all there is
    _replace(stock / "intermediate" / "notes-api.json", '{"repo_name": "notes-api"')
    code, out, _ = _run(capsys, "summary", str(stock), "--json")
    assert code == 3
    [run] = json.loads(out)
    assert (run["samples"], run["unreadable"]) == (5, 1)
    assert run["unreadable_samples"] == [{
        "kind": "sample", "task": "notes-api", "sample": 0,
        "file": "intermediate/notes-api.json",
        "reason": "truncated JSON: the file ends at line 1 column 26 (expecting ',' "
                  "delimiter)"}]


def test_in_a_real_process_the_reason_line_is_whole(forge: Path) -> None:
    """The reported case: a truncated result, through the real CLI on a narrow terminal."""
    result = _result(forge, "todo-service")
    _truncate(result)
    done = cli("summary", str(forge), timeout=60)
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    line = next(ln for ln in done.stderr.splitlines() if str(result) in ln)
    assert line == (f"inspector: error: {result}: truncated JSON: the file ends at line 10 "
                    "inside a string that starts at line 10 column 17")


@pytest.mark.parametrize(("content", "reason"), [
    (b'{"a": "x\ty"}', "invalid JSON at line 1 column 9: Invalid control character"),
    (b'{"a": 1', "truncated JSON: the file ends at line 1 column 8 (expecting ',' delimiter)"),
    (b'{"a": 1,\n "b": "ab', "truncated JSON: the file ends at line 2 inside a string that "
                             "starts at line 2 column 7"),
    (b'{"a": 1} x', "invalid JSON at line 1 column 10: Extra data"),
])
def test_a_json_reason_is_a_whole_sentence(forge: Path, capsys: pytest.CaptureFixture[str],
                                           content: bytes, reason: str) -> None:
    """The decoder's words that end in "at" (its position follows) are never left hanging."""
    _result(forge, "notes-api").write_bytes(content)
    code, out, _ = _run(capsys, "summary", str(forge), "--json")
    assert code == 3
    assert json.loads(out)[0]["unreadable_samples"][0]["reason"] == reason


def test_compare_and_analyze_json_carry_the_unreadable_samples(
        forge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read through the catalog index: the field is there too, and the text names the file."""
    shutil.copytree(SAMPLE_RUNS / "runs" / RELAY, forge.parent / RELAY)
    _replace(_result(forge, "todo-service"), "[]")
    entry = {"kind": "sample", "task": "todo-service", "sample": 0,
             "file": "samples/todo-service/0/result.json",
             "reason": "expected an object, got a list"}
    code, out, _ = _run(capsys, "compare", FORGE, RELAY, "--root", str(forge.parent), "--json")
    doc = json.loads(out)
    assert code == 0
    assert (doc["a"]["samples"], doc["a"]["unreadable"], doc["b"]["unreadable"]) == (5, 1, 0)
    assert doc["a"]["unreadable_samples"] == [entry]
    code, out, _ = _run(capsys, "analyze", str(forge.parent), "--runs", "--json")
    runs = {r["run_id"]: r for r in json.loads(out)["runs"]}
    assert (runs[FORGE]["unreadable_samples"], runs[RELAY]["unreadable"]) == ([entry], 0)
    code, out, _ = _run(capsys, "analyze", str(forge.parent), "--runs")
    assert (f"Unreadable in {FORGE} (not in any figure): samples/todo-service/0/result.json: "
            "expected an object, got a list") in out


def test_the_report_says_over_how_many_samples_and_lists_the_file(
        forge: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _replace(_result(forge, "todo-service"), "[]")
    page = tmp_path / "report.html"
    code, _, _ = _run(capsys, "report", str(forge), "--html", str(page), "--quiet")
    html = page.read_text("utf-8")
    assert code == 0
    assert "<td>5 of 6</td>" in html or ">5 of 6<" in html
    assert "Unreadable files: not in any figure (1)" in html
    assert (f"<li>{FORGE}: samples/todo-service/0/result.json: expected an object, got a "
            "list</li>") in html
