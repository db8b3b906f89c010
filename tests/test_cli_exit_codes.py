"""Every CLI error path prints one ``inspector: error: …`` line and keeps its exit code:
2 for a path that does not exist and for a config problem of a deploying command, else 1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.cli_errors import CliError
from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.files import read_regular
from inspector.services.logs.deployment_log import NoLogError, open_log_path

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "sample_runs" / "runs"
LOG = RUNS / "repo_readme_1118_forge_m1-large_Python/samples/inventory-api/0/logs/tests.log"
BAD_CONFIG = "'allow_local_exec' must be true or false"


@pytest.fixture()
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding an empty folder and a valid (empty) config."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "good.toml").write_text("", encoding="utf-8")
    (tmp_path / "bad.toml").write_text('allow_local_exec = "yes"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "good.toml"))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


MISSING = [
    ("summary", "missing"), ("failures", "missing"), ("app", "missing"),
    ("replay", "missing"), ("labels", "agreement", "missing"),
    ("labels", "export", "missing"), ("labels", "suggest", "missing"),
]


@pytest.mark.parametrize("argv", MISSING, ids=" ".join)
def test_a_missing_path_exits_2(work: Path, capsys: pytest.CaptureFixture[str],
                                argv: tuple[str, ...]) -> None:
    assert run(capsys, *argv) == (2, "", "inspector: error: missing: no such file or folder\n")


USER_ERRORS = [
    (("summary", "empty"), "empty: no runs found (expected a run folder with run.json, or a "
                           "RepoGenesis output folder with report*.json or intermediate/)"),
    (("app", "empty", "--annotator", "a b"),
     "--annotator 'a b': use letters, digits, '.', '_' or '-'"),
    (("replay", "empty", "--speed", "3"), "--speed 3: choose one of 1, 2, 5, 10, 50, max"),
    (("replay", "empty", "sometask"), "empty: no sample 0 of task 'sometask' (no runs found)"),
    (("labels", "agreement", "empty"),
     f"{Path('empty/labels')}: no label files (expected annotators/<name>.json)"),
    (("labels", "export", "empty"), "empty: no runs found"),
    (("labels", "suggest", "empty", "--confirm"), "--confirm needs --per-test or --score"),
    (("labels", "suggest", "empty", "--per-test"), "empty: no runs found"),
    (("evaluate", "--tasks", "x", "--predictions", "y", "--out", "z", "--backend", "docker"),
     "x: no tasks found (expected <root>/repo/<task>/README.md) (x: tasks folder does not "
     "exist)"),
    (("rerun", "missing", "some-task", "t", "--backend", "local"),
     "missing: no such file or folder"),
]


@pytest.mark.parametrize(("argv", "message"), USER_ERRORS, ids=lambda v: " ".join(v)
                         if isinstance(v, tuple) else "")
def test_other_user_errors_exit_1(work: Path, capsys: pytest.CaptureFixture[str],
                                  argv: tuple[str, ...], message: str) -> None:
    assert run(capsys, *argv) == (1, "", f"inspector: error: {message}\n")
    assert not (work / "z").exists()


@pytest.mark.parametrize(("argv", "code"), [
    (("app", "empty"), 1),
    (("replay", str(LOG)), 1),
    (("evaluate", "--tasks", "x", "--predictions", "y", "--out", "z"), 1),
    (("rerun", str(RUNS), "inventory-api", "t"), 2),
    (("request", str(RUNS), "inventory-api", "GET", "/"), 2),
], ids=lambda v: v[0] if isinstance(v, tuple) else str(v))
def test_a_bad_config_names_the_file(work: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...],
                                     code: int) -> None:
    """Deploying commands exit 2 (nothing could be deployed); the others 1."""
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(work / "bad.toml"))
    assert run(capsys, *argv) == (code, "", f"inspector: error: {work / 'bad.toml'}: "
                                            f"{BAD_CONFIG}\n")


def test_a_path_named_like_an_error_does_not_change_the_exit_code(
        work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "no such folder").mkdir()
    code, out, err = run(capsys, "summary", "no such folder")
    assert (code, out) == (1, "")
    assert err.startswith("inspector: error: no such folder: no runs found")


def test_a_service_error_from_a_missing_file_exits_2(tmp_path: Path) -> None:
    """What the loaders raise for a file that is gone keeps exit code 2; other problems 1."""
    with pytest.raises(LoadError) as gone:
        read_regular(tmp_path / "taxonomy.json", 1024)
    assert CliError.of(gone.value).exit_code == 2
    assert str(CliError.of(gone.value)) == f"{tmp_path / 'taxonomy.json'}: cannot read: no " \
                                           "such file"
    os.symlink(tmp_path / "elsewhere.log", tmp_path / "dangling.log")
    with pytest.raises(NoLogError) as no_log:
        open_log_path(tmp_path / "dangling.log")
    assert CliError.of(no_log.value).exit_code == 2
    with pytest.raises(NoLogError) as no_phase_logs:
        open_log_path(tmp_path)
    assert CliError.of(no_phase_logs.value).exit_code == 1
