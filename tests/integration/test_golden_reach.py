"""The golden runner's reach into the repo, run for real (issue 27): a name the runner's own
code could import resolves into the repo's environment only for the suite's or the repo's
imports, never for the runner's libraries or the standard library, nor for exec'd text; the
repo's distributions (entry points) are listed to the suite's code only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from inspector.services.suite.golden import runner_command
from inspector.services.suite.junit import parse_junit

SUITE = '''
import sys


def test_the_runners_own_code_never_gets_it():
    import pydoc  # the standard library importing on the suite's behalf
    assert pydoc.locate("chardet") is None
    assert "chardet" not in sys.modules


def test_exec_text_never_gets_it():
    try:
        exec("import chardet", {})
    except ImportError:
        return
    raise AssertionError("exec'd text reached the repo")


def test_the_suite_itself_does():
    import chardet
    assert chardet.ORIGIN == "repo"


def test_a_name_not_guarded_resolves_while_the_suite_runs():
    import pydoc
    assert pydoc.locate("helper").ORIGIN == "repo"


def test_the_repos_distributions_are_listed_to_the_suite_only():
    from importlib.metadata import entry_points

    import pluggy
    assert [ep.name for ep in entry_points(group="gi_test_plugins")] == ["sneaky"]
    # the runner's own library asking for the same entry points finds none of the repo's
    manager = pluggy.PluginManager("gi_test")
    assert manager.load_setuptools_entrypoints("gi_test_plugins") == 0
    assert "sneaky" not in sys.modules
'''


def _run(tmp_path: Path, reach: dict[str, object], libs: list[str] | None,
         root: str | None = None) -> dict[str, str]:
    golden, work, site = tmp_path / "golden", tmp_path / "work", tmp_path / "site"
    for d in (golden / "tests", work, site):
        d.mkdir(parents=True, exist_ok=True)
    (golden / "tests" / "test_reach.py").write_text(SUITE)
    for name in ("chardet", "helper", "sneaky"):
        (site / f"{name}.py").write_text("ORIGIN = 'repo'\n")
    info = site / "sneaky-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sneaky\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gi_test_plugins]\nsneaky = sneaky\n")
    junit = tmp_path / "junit.xml"
    cmd = runner_command(sys.executable, str(golden), str(work), None, str(junit), None, root,
                         [str(site)] if libs is None else libs, reach)
    subprocess.run(cmd, cwd=golden, capture_output=True, text=True, timeout=120)
    cases, _ = parse_junit(junit)
    return {c.id.rsplit("::", 1)[-1]: c.outcome.value for c in cases}


def test_guarded_names_resolve_only_for_the_suite_and_the_repo(tmp_path: Path) -> None:
    got = _run(tmp_path, {"guarded": ["chardet"], "preload": [], "lib_only": []}, None)
    assert got == dict.fromkeys(["test_the_runners_own_code_never_gets_it",
                                 "test_exec_text_never_gets_it", "test_the_suite_itself_does",
                                 "test_a_name_not_guarded_resolves_while_the_suite_runs",
                                 "test_the_repos_distributions_are_listed_to_the_suite_only"],
                                "passed"), got


def test_a_black_box_suite_reaches_nothing(tmp_path: Path) -> None:
    got = _run(tmp_path, {"guarded": [], "preload": [], "lib_only": []}, [])
    assert got["test_the_suite_itself_does"] == "failed"
    assert got["test_a_name_not_guarded_resolves_while_the_suite_runs"] == "failed"
