"""Run folders that are not what they claim, through the real CLI in real processes: folders
nobody may read (mode 000, checked without privileges), repo paths that point at /etc (as a
path, through a symlink, or via a RepoGenesis ``predictions_dir`` of ``/``), and ids that are
not one path component (``a/b``, ``..``, NUL, a leading dot)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from inspector.model import discover_runs
from inspector.model.runs.repo_scope import REPO_REFUSED
from inspector.model.runs.runformat import load_run

from .conftest import FORGE, RELAY, SAMPLE_RUNS, assert_denied, cli, copy_fixture


def _no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


def _result(corpus: Path, task: str, run: str = FORGE) -> Path:
    return corpus / "runs" / run / "samples" / task / "0" / "result.json"


def _edit(path: Path, **changes: object) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        target = doc
        *parents, last = key.split(".")
        for part in parents:
            target = target[part]
        target[last] = value
    path.write_text(json.dumps(doc), encoding="utf-8")


# ------------------------------------------------------------------ unreadable folders

@pytest.mark.parametrize("command", ["summary", "failures"])
def test_unreadable_run_and_labels_folders_are_one_message_each(corpus: Path,
                                                                command: str) -> None:
    run, labels = corpus / "runs" / RELAY, corpus / "labels"
    for folder in (run, labels):
        folder.chmod(0)
    try:
        assert_denied(run)
        done = cli(command, str(corpus), unprivileged=True)
        alone = cli(command, str(run), unprivileged=True)
    finally:
        for folder in (run, labels):
            folder.chmod(0o755)
    _no_traceback(done)
    assert done.returncode == 0
    problems = [ln for ln in done.stderr.splitlines() if ln.startswith("inspector:")]
    assert problems == [
        f"inspector: error: {labels}: cannot read this folder (permission denied); skipped",
        f"inspector: error: {run}: cannot read this folder (permission denied); skipped"]
    assert FORGE in done.stdout and RELAY not in done.stdout  # the readable run is shown
    # opened by itself, the unreadable run is the whole answer: said once, then "no runs"
    _no_traceback(alone)
    assert alone.returncode == 1
    assert alone.stderr.splitlines() == [
        f"inspector: error: {run}: cannot read this folder (permission denied); skipped",
        f"inspector: error: {run}: no runs found (expected a run folder with run.json, or a "
        "RepoGenesis output folder with report*.json or intermediate/)"]


def test_an_unreadable_sample_folder_is_a_problem_of_that_sample_only(corpus: Path) -> None:
    sample = corpus / "runs" / FORGE / "samples" / "todo-service"
    sample.chmod(0)
    try:
        assert_denied(sample)
        done = cli("summary", str(corpus / "runs" / FORGE), "--json", unprivileged=True)
    finally:
        sample.chmod(0o755)
    _no_traceback(done)
    assert (f"inspector: error: {sample / '0' / 'result.json'}: cannot read: Permission denied"
            in done.stderr)
    [run] = json.loads(done.stdout)
    assert run["samples"] == 5  # the other five load
    # ... and the sixth is counted and named as unreadable, never dropped: exit 3
    assert run["unreadable_samples"] == [{
        "kind": "sample", "task": "todo-service", "sample": 0,
        "file": "samples/todo-service/0/result.json", "reason": "cannot read: Permission denied"}]
    assert done.returncode == 3


# ------------------------------------------------------------------ repo paths

def test_a_repo_path_of_etc_is_refused_and_never_rerun(corpus: Path) -> None:
    result = _result(corpus, "todo-service")
    _edit(result, **{"repo.path": "/etc"})
    found = discover_runs(corpus)
    todo = next(s for r in found.runs for s in r.samples if s.task == "todo-service")
    assert todo.repo_path is None
    expected = (f"{result}: field 'repo.path': '/etc' is outside the places a repo may be (the "
                f"folder you opened {corpus}); the repo is not opened")
    assert [str(i) for i in found.issues] == [expected]
    assert todo.notes[-1].startswith(REPO_REFUSED)
    # the other samples keep theirs, inside the corpus
    others = [s for r in found.runs for s in r.samples if s.task != "todo-service"]
    assert others and all(s.repo_path is not None and s.repo_path.is_relative_to(corpus)
                          for s in others)
    done = cli("summary", str(corpus))
    _no_traceback(done)
    assert f"inspector: warning: {expected}" in done.stderr
    rerun = cli("rerun", str(corpus), "todo-service", "--run", FORGE, "--all-failures",
                "--backend", "local")
    _no_traceback(rerun)
    assert rerun.returncode == 1
    assert "'/etc' is outside the places a repo may be" in rerun.stderr
    assert str(result) in rerun.stderr
    assert "re-running" not in rerun.stderr  # nothing was packed or started


def test_a_repo_symlinked_out_of_the_predictions_is_refused(corpus: Path) -> None:
    repo = corpus / "predictions" / FORGE / "todo-service"
    shutil.rmtree(repo)
    repo.symlink_to("/etc")  # the recorded path is unchanged and looks harmless
    run, issues = load_run(corpus / "runs" / FORGE, corpus)
    todo = next(s for s in run.samples if s.task == "todo-service")
    assert todo.repo_path is None
    assert [(i.field, i.severity) for i in issues] == [("repo.path", "warning")]
    assert "(resolves to /etc) is outside the places a repo may be" in issues[0].message


def test_a_run_opened_by_itself_reaches_its_predictions_but_no_further(corpus: Path) -> None:
    run_dir = corpus / "runs" / FORGE
    run, issues = load_run(run_dir, run_dir)  # `inspector summary corpus/runs/<run>`
    assert issues == []
    assert all(s.repo_path is not None and s.repo_path.is_relative_to(corpus / "predictions")
               for s in run.samples)
    _edit(run_dir / "run.json", **{"source.predictions_dir": "/",
                                   "source.predictions_dirs": ["/"]})
    _edit(_result(corpus, "todo-service"), **{"repo.path": "../" * 30 + "root"})
    run, issues = load_run(run_dir, run_dir)
    by_field = {i.field: i.message for i in issues}
    assert by_field["source.predictions_dir"].startswith("predictions folder '/' is outside")
    assert "resolves to /root" in by_field["repo.path"]
    assert next(s for s in run.samples if s.task == "todo-service").repo_path is None


def test_a_repogenesis_predictions_dir_of_root_is_refused(corpus: Path) -> None:
    report = copy_fixture("report_predictions_root.json",
                          corpus / "repogenesis" / "mallory" / "report.json")
    found = discover_runs(corpus)
    run = next(r for r in found.runs if r.source.path == report)
    assert sorted(s.task for s in run.samples) == ["etc", "root"]
    assert all(s.repo_path is None for s in run.samples)
    assert all(s.notes[-1].startswith(REPO_REFUSED) for s in run.samples)
    problems = [str(i) for i in found.issues if i.path == report]
    assert problems == [f"{report}: field 'metadata.predictions_dir': predictions folder '/' is "
                        f"outside the folder you opened {corpus}; its repos are not opened"]
    done = cli("rerun", str(corpus), "etc", "--all-failures", "--backend", "local")
    _no_traceback(done)
    assert done.returncode == 1 and "predictions folder '/' is outside" in done.stderr


# ------------------------------------------------------------------ ids

@pytest.mark.parametrize(("field", "value", "why"), [
    ("task", "a/b", "contains a path separator"),
    ("task", "..", "contains '..'"),
    ("task", "to\x00do", "contains a control character"),
    ("task", ".hidden", "starts with '.'"),
    ("run_id", "run/../../x", "contains a path separator"),
])
def test_an_invalid_id_in_a_result_is_a_load_problem(corpus: Path, field: str, value: str,
                                                     why: str) -> None:
    result = _result(corpus, "todo-service")
    _edit(result, **{field: value})
    run, issues = load_run(corpus / "runs" / FORGE, corpus)
    assert "todo-service" not in {s.task for s in run.samples}
    assert len(run.samples) == 5
    what = "task name" if field == "task" else "run id"
    assert [str(i) for i in issues] == [
        f"{result}: field '{field}': not a valid {what}: {value!r} {why}"]


def test_an_invalid_run_id_in_run_json_is_a_load_problem_of_the_run(corpus: Path) -> None:
    run_json = corpus / "runs" / FORGE / "run.json"
    _edit(run_json, run_id=".x/..")
    found = discover_runs(corpus)
    why = f"{run_json}: field 'run_id': not a valid run id: '.x/..' contains a path separator"
    # listed as an unreadable run under its folder's name, with no samples: never left out
    assert [(r.id, len(r.samples), [u.line() for u in r.unreadable]) for r in found.runs] == [
        (FORGE, 0, [why]), (RELAY, 6, [])]
    assert [str(i) for i in found.errors] == [why]


def test_replay_of_a_task_named_with_a_slash_says_why_instead_of_crashing(corpus: Path
                                                                          ) -> None:
    result = _result(corpus, "todo-service")
    _edit(result, task="a/b", logs={})  # no phase logs: replay would look for a/b.log
    shutil.rmtree(result.parent / "logs")
    done = cli("replay", str(corpus / "runs" / FORGE), "a/b", timeout=60)
    _no_traceback(done)
    assert done.returncode == 1
    assert done.stderr.startswith(f"inspector: error: {corpus / 'runs' / FORGE}: no sample 0 "
                                  "of task 'a/b'")
    assert (f"{result}: field 'task': not a valid task name: 'a/b' contains a path separator"
            in done.stderr)


# ------------------------------------------------------------------ task READMEs

def test_a_task_readme_that_is_a_fifo_does_not_hang_the_loader(corpus: Path) -> None:
    shutil.copytree(SAMPLE_RUNS / "tasks", corpus / "tasks")
    readme = corpus / "tasks" / "repo" / "todo-service" / "README.md"
    readme.unlink()
    os.mkfifo(readme)
    done = cli("summary", str(corpus), capped=True, timeout=90)
    _no_traceback(done)
    assert done.returncode == 0 and FORGE in done.stdout
    assert (f"inspector: error: {readme}: not a regular file (a FIFO (named pipe)); not read"
            in done.stderr)
