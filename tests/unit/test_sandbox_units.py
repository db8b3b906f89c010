"""Sandbox pieces that need no engine: apt sources, repo archives, re-run comparisons."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from inspector.model import Outcome, TestCase
from inspector.services.deploy.choose import find_target
from inspector.services.deploy.warm import DeployError
from inspector.services.rerun.runner import UnknownTest, compare, normalise_error, resolve_tests
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


def test_golden_digest_is_the_same_from_any_archive_of_the_staged_suite(tmp_path: Path) -> None:
    from inspector.services.suite.golden import golden_tar, stage_golden, tar_digest

    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "test_a.py").write_text("def test_a():\n    pass\n")
    (tests / "sub" / "data.json").write_text("{}")
    (tests / "__pycache__").mkdir()
    (tests / "__pycache__" / "x.pyc").write_bytes(b"\0")
    expected = stage_golden(tests, tmp_path / "golden")
    assert tar_digest(golden_tar(tests, 0)) == expected

    def archive(prefix: str, root_member: str | None) -> bytes:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            if root_member is not None:
                tar.add(tmp_path / "golden", arcname=root_member, recursive=False)
            tar.add(tmp_path / "golden" / "tests", arcname=f"{prefix}tests")
        return buf.getvalue()

    # docker get_archive("/golden"): members "golden", "golden/tests", ...
    assert tar_digest(archive("golden/", "golden"), "golden/") == expected
    # GNU tar -C /golden -cf - .: members ".", "./tests", ...
    assert tar_digest(archive("./", "."), "") == expected
    (tmp_path / "golden" / "tests").chmod(0o755)
    (tmp_path / "golden" / "tests" / "test_a.py").chmod(0o644)
    (tmp_path / "golden" / "tests" / "test_a.py").write_text("def test_a():\n    assert 1\n")
    assert tar_digest(archive("golden/", "golden"), "golden/") != expected


def test_repo_tar_is_group_writable_and_its_tmpfs_space_counts_pages(tmp_path: Path) -> None:
    from inspector.services.sandbox.repo_archive import tar_space

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "big.bin").write_bytes(b"x" * 10_000)
    (tmp_path / "app.py").write_text("x = 1\n")
    (tmp_path / "app.py").chmod(0o600)
    data = repo_tar(tmp_path, None)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        modes = {m.name: m.mode & 0o777 for m in tar.getmembers()}
    assert modes["app.py"] == 0o664 and modes["pkg"] & 0o775 == 0o775
    # three entries: 4 KiB each, plus the file pages (1 + 3)
    assert tar_space(data) == 3 * 4096 + 4096 + 3 * 4096


def _watchdog(tmp_path: Path, idle: float, life: float, *cmd: str):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    from inspector.services.sandbox.lease import WATCHDOG

    lease = tmp_path / "lease"
    return lease, subprocess.Popen([sys.executable, "-I", "-S", "-c", WATCHDOG, str(lease),
                                    str(idle), str(life), *cmd], stdout=subprocess.PIPE,
                                   text=True)


def test_watchdog_ends_when_the_lease_is_not_renewed(tmp_path: Path) -> None:
    import os
    import time

    from inspector.services.sandbox.lease import EXIT_LEASE

    lease, proc = _watchdog(tmp_path, 1.5, 60)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 4:  # renewed: stays up past its idle time
        lease.touch()
        os.utime(lease)
        time.sleep(0.3)
    assert proc.poll() is None
    code = proc.wait(10)
    assert code == EXIT_LEASE and time.monotonic() - t0 < 4 + 1.5 + 2
    assert "lease not renewed" in proc.stdout.read()  # type: ignore[union-attr]


def test_watchdog_wall_clock_and_child_exit(tmp_path: Path) -> None:
    from inspector.services.sandbox.lease import EXIT_WALL_CLOCK

    _, proc = _watchdog(tmp_path, 60, 1)
    assert proc.wait(10) == EXIT_WALL_CLOCK
    _, proc = _watchdog(tmp_path, 60, 60, "/bin/sh", "-c", "exit 7")
    assert proc.wait(10) == 7


def test_repo_data_files_are_data_never_code_or_config(tmp_path: Path) -> None:
    from inspector.services.suite.golden import golden_tar, repo_data_files, tar_digest

    for name in ("README.md", "openapi.yaml", "requirements.txt", "start.sh", ".env",
                 "app.py", "conftest.py", "pytest.ini", "pyproject.toml", "tox.ini",
                 "setup.cfg", "x.pth", "mod.cpython-311-x86_64-linux-gnu.so", "old.pyc"):
        (tmp_path / name).write_text("x")
    (tmp_path / "data").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "link.md").symlink_to(tmp_path / "README.md")
    assert repo_data_files(tmp_path) == [".env", "README.md", "openapi.yaml",
                                         "requirements.txt", "start.sh"]
    tests = tmp_path / "tests"
    (tests / "test_a.py").write_text("x")
    plain = golden_tar(tests, 0)
    linked = golden_tar(tests, 0, {"README.md": "/repo/README.md"})
    with tarfile.open(fileobj=io.BytesIO(linked)) as tar:
        [link] = [m for m in tar.getmembers() if m.issym()]
        assert (link.name, link.linkname, link.uid) == ("README.md", "/repo/README.md", 0)
    assert tar_digest(plain) != tar_digest(linked)
