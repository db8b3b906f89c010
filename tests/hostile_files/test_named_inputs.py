"""Inputs once accepted without naming the file (issue 27, part 6), through the real CLI in
real processes: a stock RepoGenesis ``report.json`` that is a FIFO or a symlink loop, an
unreadable per-repo results folder, labels whose sample, test or evidence path leaves its
folder (``../../etc/passwd``), an annotator file named with a space, and NUL in an agent name.
Each is one line naming the file and what is wrong; nothing hangs, nothing else is lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import SAMPLE_RUNS, assert_denied, cli

STOCK = "relay"  # sample_runs/repogenesis/relay: report.json + intermediate/<task>.json
STOCK_RUN = "repo_readme_1119_relay_open_coder-7b_Python@relay"


def _no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


def _errors(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [ln for ln in done.stderr.splitlines() if ln.startswith("inspector:")]


@pytest.fixture
def stock(tmp_path: Path) -> Path:
    out = tmp_path / "stock" / STOCK
    shutil.copytree(SAMPLE_RUNS / "repogenesis" / STOCK, out)
    return out


# ------------------------------------------------------------------ stock reports

@pytest.mark.parametrize("kind", ["fifo", "loop"])
def test_a_stock_report_that_is_a_fifo_or_a_symlink_loop_is_named(stock: Path,
                                                                  kind: str) -> None:
    report = stock / "report.json"
    report.unlink()
    if kind == "fifo":
        os.mkfifo(report)  # nobody writes to it: reading it would block forever
        why = "not a regular file (a FIFO (named pipe)); not read"
    else:
        report.symlink_to("report.json")
        why = "cannot read: symlink loop"
    started = time.monotonic()
    done = cli("summary", str(stock), "--json", timeout=60)
    _no_traceback(done)
    assert time.monotonic() - started < 30
    assert _errors(done) == [f"inspector: error: {report}: {why}"], done.stderr
    # the per-repo results the report would have covered are still loaded
    [run] = json.loads(done.stdout)
    assert run["samples"] == 6
    # named directly, the report is the whole answer: said once, never "no such file"
    alone = cli("summary", str(report), timeout=60)
    _no_traceback(alone)
    assert alone.returncode != 0
    assert _errors(alone)[0] == f"inspector: error: {report}: {why}", alone.stderr


def test_an_unreadable_per_repo_results_folder_is_named(stock: Path) -> None:
    (stock / "report.json").unlink()  # the per-repo results are all there is
    inter = stock / "intermediate"
    inter.chmod(0)
    try:
        assert_denied(inter)
        done = cli("summary", str(stock), unprivileged=True, timeout=60)
    finally:
        inter.chmod(0o755)
    _no_traceback(done)
    assert _errors(done)[0] == (f"inspector: error: {inter}: cannot read this folder "
                                "(permission denied); its results are not loaded"), done.stderr


# ------------------------------------------------------------------ labels

@pytest.mark.parametrize(("field", "value", "why"), [
    ("sample", "../../etc/passwd", "not a sample id ('../../etc/passwd' is not <run id>/"
                                   "<task>/<number>)"),
    ("sample", "../../etc", "not a sample id ('../../etc' has a part that contains '..')"),
    ("test", "../../etc/passwd::x", "not a test id of the sample ('../../etc/passwd::x': its "
                                    "file leaves its folder ('..'))"),
    ("test", "/etc/passwd", "not a test id of the sample ('/etc/passwd': its file is an "
                            "absolute path)"),
    ("evidence", [{"kind": "file", "path": "../../../etc/passwd", "line": 1}],
     "'../../../etc/passwd' leaves its folder ('..')"),
])
def test_a_label_whose_sample_or_test_path_escapes_is_named(corpus: Path, field: str,
                                                            value: object, why: str) -> None:
    ana = corpus / "labels" / "annotators" / "ana.json"
    doc = json.loads(ana.read_text("utf-8"))
    doc["labels"][0][field] = value
    before = json.dumps(doc)
    ana.write_text(before, encoding="utf-8")
    done = cli("labels", "check", str(corpus / "labels"), timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    where = "labels[0].evidence[0].path" if field == "evidence" else f"labels[0].{field}"
    assert f"inspector: error: {ana}: field '{where}': {why}" in done.stderr, done.stderr
    assert "1 annotator file(s) (ben)" in done.stdout  # the other file still counts
    assert ana.read_text("utf-8") == before  # left as it was: nothing lost


def test_an_annotator_file_named_with_a_space_is_named_not_ignored(corpus: Path) -> None:
    annotators = corpus / "labels" / "annotators"
    spaced = annotators / "ana smith.json"
    (annotators / "ana.json").rename(spaced)
    done = cli("labels", "check", str(corpus / "labels"), timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    assert (f"inspector: error: {spaced}: not loaded: the file name is not an annotator name "
            "(letters, digits, '.', '_', '-'; up to 64, starting with a letter or digit); "
            "rename it") in done.stderr, done.stderr
    assert spaced.is_file()


# ------------------------------------------------------------------ run files

def test_nul_in_an_agent_name_is_named_and_shown(corpus: Path) -> None:
    run_json = next((corpus / "runs").glob("*/run.json"))
    doc = json.loads(run_json.read_text("utf-8"))
    doc["agent"] = "For\u0000ge"
    run_json.write_text(json.dumps(doc), encoding="utf-8")
    done = cli("summary", str(run_json.parent), timeout=60)
    _no_traceback(done)
    assert done.returncode == 0
    assert (f"inspector: warning: {run_json}: field 'agent': holds a NUL character; shown as "
            "'For<NUL>ge'") in done.stderr, done.stderr
    assert "For<NUL>ge" in done.stdout and "\0" not in done.stdout
