"""Sandbox pieces that need no engine: apt sources, repo archives, re-run comparisons."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from inspector.model import Outcome, TestCase
from inspector.services.backends import find_target
from inspector.services.deployments import DeployError
from inspector.services.rerun import UnknownTest, compare, normalise_error, resolve_tests
from inspector.services.sandbox.apt_sources import NoAptSource, debian_mirror, read_sources
from inspector.services.sandbox.engine import owner_alive, owner_label
from inspector.services.sandbox.repo_archive import repo_tar

FORGE = "repo_readme_1118_forge_m1-large_Python"


def _apt(tmp_path: Path, sources: dict[str, str]) -> Path:
    (tmp_path / "sources.list.d").mkdir()
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_mirror_from_deb822_skips_security_and_updates(tmp_path: Path) -> None:
    root = _apt(tmp_path, {"sources.list.d/debian.sources": """\
Types: deb
# a comment
URIs: http://mirror.example.org/debian/
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example.org/debian-security
Suites: bookworm-security
Components: main
"""})
    src = debian_mirror(root)
    assert (src.uri, src.suite) == ("http://mirror.example.org/debian", "bookworm")
    assert len(read_sources(root)) == 3


def test_mirror_from_one_line_list_with_options(tmp_path: Path) -> None:
    root = _apt(tmp_path, {"sources.list": (
        "# deb http://old.example/debian buster main\n"
        "deb-src http://src.example/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/k.gpg] http://list.example/debian trixie main\n")})
    src = debian_mirror(root)
    assert (src.uri, src.suite) == ("http://list.example/debian", "trixie")


def test_disabled_stanza_and_no_mirror_is_a_clear_error(tmp_path: Path) -> None:
    root = _apt(tmp_path, {"sources.list.d/x.sources": (
        "Types: deb\nURIs: http://a.example/debian\nSuites: bookworm\nComponents: main\n"
        "Enabled: no\n")})
    with pytest.raises(NoAptSource, match="--mirror URL --suite NAME"):
        debian_mirror(root)


def test_machine_apt_sources_give_a_mirror() -> None:
    src = debian_mirror()
    assert src.uri.startswith("http") and src.suite


def test_repo_tar_replaces_tests_and_skips_venvs(tmp_path: Path) -> None:
    repo, golden = tmp_path / "repo", tmp_path / "golden"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_agent.py").write_text("agent's own")
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "python").write_text("x")
    (repo / ".git").mkdir()
    (repo / "app.py").write_text("print('hi')")
    (repo / "start.sh").write_text("python app.py")
    golden.mkdir()
    (golden / "test_golden.py").write_text("golden")
    with tarfile.open(fileobj=io.BytesIO(repo_tar(repo, golden))) as tar:
        names = tar.getnames()
        assert sorted(names) == ["app.py", "start.sh", "tests", "tests/test_golden.py"]
        assert all(m.uid == 1000 and m.gid == 1000 for m in tar.getmembers())


def _case(outcome: str, msg: str = "") -> TestCase:
    return TestCase("t::x", Outcome(outcome), message=msg)


def test_comparisons() -> None:
    assert compare(_case("failed", "KeyError: 'a'"), _case("failed", "KeyError: 'a'")) == "same"
    assert compare(_case("failed", "KeyError: 'a'"), _case("passed")) == "now passes"
    assert compare(_case("passed"), _case("failed", "boom")) == "now fails"
    assert compare(_case("failed", "assert 500 == 200"),
                   _case("failed", "assert 404 == 200")) == "different error"
    assert compare(None, _case("passed")) == "not recorded"
    assert compare(_case("passed"), None) == "not run"
    # addresses, ports and timings do not make two errors different
    assert normalise_error("ConnectionError: port=18080 at 0x7f00deadbeef") == \
        normalise_error("ConnectionError: port=18999 at 0x7f11cafef00d")


def test_resolve_tests_by_name_suffix_and_failures(sample_runs: Path) -> None:
    target = find_target(sample_runs / "runs", "todo-service", 0, FORGE)
    assert resolve_tests(target, ["test_create_defaults"]) == [
        "tests/test_todos.py::test_create_defaults"]
    assert len(resolve_tests(target, ["failures"])) == 3
    with pytest.raises(UnknownTest, match="no recorded test 'test_nope'"):
        resolve_tests(target, ["test_nope"])


def test_find_target_errors_name_the_problem(sample_runs: Path, tmp_path: Path) -> None:
    with pytest.raises(DeployError, match="no such file"):
        find_target(tmp_path / "missing", "todo-service")
    with pytest.raises(DeployError, match="no run with task 'nope'"):
        find_target(sample_runs / "runs", "nope")
    with pytest.raises(DeployError, match="runs have task"):
        find_target(sample_runs / "runs", "todo-service")
    with pytest.raises(DeployError, match="no sample 3"):
        find_target(sample_runs / "runs", "todo-service", 3, FORGE)


def test_owner_labels_detect_dead_and_foreign_owners() -> None:
    me = owner_label()
    assert owner_alive(me) is True
    host, pid, start = me.split(":")
    assert owner_alive(f"{host}:{pid}:{int(start) + 1}") is False  # pid reused
    assert owner_alive(f"{host}:999999999:1") is False
    assert owner_alive("some-other-host:1:1") is None
