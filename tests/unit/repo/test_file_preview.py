"""preview_file / list_repo_tree on real files: nothing outside the repo is ever opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspector.services.repo.preview import (
    FilePreview,
    RepoTree,
    hex_dump,
    lexer_for,
    list_repo_tree,
    preview_file,
)

SECRET = "TOP-SECRET-CONTENT-7f3a"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / "README.md").write_text("# Title\n")
    return root


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside.txt"
    path.write_text(SECRET)
    return path


def test_plain_text(repo: Path) -> None:
    p = preview_file(repo, "src/app.py")
    assert p == FilePreview("src/app.py", "text", "print('hi')\n", "", "python", 12, False, 1)


def test_binary_gets_hex_dump(repo: Path) -> None:
    data = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 20
    (repo / "app.bin").write_bytes(data)
    p = preview_file(repo, "app.bin")
    assert p.kind == "binary"
    assert p.notice.startswith(f"binary file, {len(data):,} bytes")
    assert p.text.splitlines()[0].startswith("00000000  7f 45 4c 46 02 01 01 00  00 01 02")
    assert p.text.splitlines()[0].endswith("|.ELF............|")
    assert p.line_count == 512 // 16 and p.truncated and p.size == len(data)


def test_binary_without_nul_detected_by_ratio(repo: Path) -> None:
    (repo / "noise").write_bytes(bytes(b for b in range(1, 256)) * 10)
    assert preview_file(repo, "noise").kind == "binary"


def test_latin1_text_is_text_with_notice(repo: Path) -> None:
    (repo / "latin.txt").write_bytes("café crème\n".encode("latin-1"))
    p = preview_file(repo, "latin.txt")
    assert p.kind == "text"
    assert p.text == "caf\ufffd cr\ufffdme\n"
    assert p.notice == "not valid UTF-8: undecodable bytes shown as \ufffd"


def test_hex_dump_short_line() -> None:
    dump = hex_dump(bytes(range(0x41, 0x41 + 16)) + b"AB\x00").splitlines()
    assert dump[1] == "00000010  41 42 00" + " " * 42 + "|AB.|"
    assert dump[0].index("|") == dump[1].index("|") == 60


def test_huge_file_truncated_by_bytes(repo: Path) -> None:
    line = "x" * 99 + "\n"
    (repo / "big.log").write_text(line * 50_000)  # 5 MB
    p = preview_file(repo, "big.log", max_bytes=10_000)
    assert p.kind == "too_large" and p.truncated
    assert len(p.text) == 10_000 and p.size == 5_000_000
    assert p.notice == "showing the first 10,000 of 5,000,000 bytes"
    assert p.line_count == 100


def test_huge_sparse_file_is_not_read_whole(repo: Path) -> None:
    """A 4 GiB (sparse) file: reading it whole would take seconds and gigabytes."""
    path = repo / "huge.txt"
    with path.open("wb") as fh:
        fh.write(b"line\n" * 2_000)
        fh.truncate(4 * 2**30)
    p = preview_file(repo, "huge.txt", max_bytes=10_000)
    assert p.kind == "too_large" and p.size == 4 * 2**30
    assert p.text == "line\n" * 2_000 and p.line_count == 2_000


def test_truncation_does_not_split_a_character(repo: Path) -> None:
    (repo / "u.txt").write_text("é" * 100)  # 2 bytes each
    p = preview_file(repo, "u.txt", max_bytes=11)
    assert p.text == "é" * 5 and "UTF-8" not in p.notice


def test_huge_file_truncated_by_lines(repo: Path) -> None:
    (repo / "many.txt").write_text("".join(f"{i}\n" for i in range(1000)))
    p = preview_file(repo, "many.txt", max_lines=10)
    assert p.kind == "too_large" and p.truncated and p.line_count == 10
    assert p.text == "".join(f"{i}\n" for i in range(10))
    assert p.notice == "showing the first 10 of 1,000 lines"


def test_escape_sequences_sanitized(repo: Path) -> None:
    (repo / "evil.py").write_text("x = 1\x1b]0;owned\x07\x1b[2J\u202egnp.exe\n\x9b31m")
    p = preview_file(repo, "evil.py")
    assert p.kind == "text"
    assert not any(ch in p.text for ch in "\x1b\x07\u202e\x9b")
    assert "<ESC>]0;owned<BEL><ESC>[2J<U+202E>gnp.exe" in p.text


def test_crlf_is_normalised_with_notice(repo: Path) -> None:
    (repo / "start.sh").write_bytes(b"#!/bin/bash\r\necho hi\r\n")
    p = preview_file(repo, "start.sh")
    assert p.text == "#!/bin/bash\necho hi\n" and p.notice == "CRLF line endings"
    assert p.lexer == "bash"


def test_empty_file(repo: Path) -> None:
    (repo / "empty").write_bytes(b"")
    p = preview_file(repo, "empty")
    assert p.kind == "text" and p.text == "" and p.line_count == 0 and p.notice == "empty file"


def test_symlink_outside_is_not_opened(repo: Path, secret: Path) -> None:
    (repo / "leak.txt").symlink_to(secret)
    p = preview_file(repo, "leak.txt")
    assert p.kind == "symlink_outside" and p.text == ""
    assert str(secret) in p.notice
    assert SECRET not in repr(p)


def test_symlinked_dir_outside_is_not_followed(repo: Path, secret: Path) -> None:
    (repo / "ext").symlink_to(secret.parent, target_is_directory=True)
    p = preview_file(repo, f"ext/{secret.name}")
    assert p.kind == "symlink_outside" and SECRET not in repr(p)


def test_relative_symlink_escaping_via_dotdot(repo: Path, secret: Path) -> None:
    (repo / "src" / "rel").symlink_to(Path("..") / ".." / secret.name)
    p = preview_file(repo, "src/rel")
    assert p.kind == "symlink_outside" and SECRET not in repr(p)


def test_symlink_inside_is_shown(repo: Path) -> None:
    (repo / "alias.py").symlink_to(Path("src") / "app.py")
    p = preview_file(repo, "alias.py")
    assert p.kind == "text" and p.text == "print('hi')\n"
    assert p.notice == f"symlink to {os.path.join('src', 'app.py')}"


def test_broken_symlink_and_loop(repo: Path) -> None:
    (repo / "dangling").symlink_to(repo / "nowhere")
    (repo / "a").symlink_to(repo / "b")
    (repo / "b").symlink_to(repo / "a")
    assert preview_file(repo, "dangling").kind == "symlink"
    loop = preview_file(repo, "a")
    assert loop.kind == "symlink" and "loop" in loop.notice


@pytest.mark.parametrize("rel", ["../outside.txt", "src/../../outside.txt", "src/.."])
def test_dotdot_is_outside(repo: Path, secret: Path, rel: str) -> None:
    p = preview_file(repo, rel)
    assert p.kind == "outside" and SECRET not in repr(p)


def test_absolute_path_is_outside(repo: Path, secret: Path) -> None:
    p = preview_file(repo, str(secret))
    assert p.kind == "outside" and SECRET not in repr(p)


def test_directory_missing_and_invalid(repo: Path) -> None:
    assert preview_file(repo, "src").kind == "directory"
    assert preview_file(repo, "nope.txt").kind == "not_found"
    assert preview_file(repo, "src/app.py/x").kind == "not_found"
    assert preview_file(repo, "a\0b").kind == "not_found"
    assert preview_file(repo.parent / "no-repo", "x").kind == "not_found"


def test_fifo_is_not_opened(repo: Path) -> None:
    os.mkfifo(repo / "pipe")
    p = preview_file(repo, "pipe")  # would block forever if opened for reading
    assert p.kind == "unreadable"


def test_unreadable_file(repo: Path) -> None:
    path = repo / "locked.txt"
    path.write_text("secret")
    path.chmod(0)
    try:
        p = preview_file(repo, "locked.txt")
    finally:
        path.chmod(0o644)
    if os.geteuid() == 0:  # root reads through permission bits
        assert p.kind == "text"
    else:
        assert p.kind == "unreadable" and p.text == ""


@pytest.mark.parametrize(("name", "lexer"), [
    ("requirements.txt", "text"), ("requirements-dev.txt", "text"), ("pom.xml", "xml"),
    ("Dockerfile", "docker"), ("start.sh", "bash"), ("x/run.sh", "bash"),
    ("ci.yml", "yaml"), ("a.yaml", "yaml"), ("pyproject.toml", "toml"),
    ("Main.java", "java"), ("data.json", "json"), ("README.md", "markdown"),
    ("app.py", "python"), ("application.properties", "ini"), ("setup.cfg", "ini"),
    ("tox.ini", "ini"), ("Makefile", "make"), ("mystery.qqq", "text"), ("noext", "text"),
])
def test_lexer_for(name: str, lexer: str) -> None:
    assert lexer_for(name) == lexer


def _tree_names(tree: RepoTree) -> list[tuple[int, str]]:
    return [(depth, e.name) for depth, e in tree.walk()]


def test_tree_sorted_dirs_first_and_skips(repo: Path, secret: Path) -> None:
    for skipped in (".git", "__pycache__", "node_modules", ".venv"):
        (repo / skipped).mkdir()
        (repo / skipped / "junk").write_text("x")
    (repo / "b.txt").write_text("b")
    (repo / "a_dir").mkdir()
    (repo / "a_dir" / "z.txt").write_text("z")
    (repo / "out").symlink_to(secret.parent, target_is_directory=True)
    (repo / "in").symlink_to(repo / "src", target_is_directory=True)
    (repo / "gone").symlink_to(repo / "missing")
    tree = list_repo_tree(repo)
    assert _tree_names(tree) == [
        (0, "a_dir"), (1, "z.txt"), (0, "src"), (1, "app.py"),
        (0, "b.txt"), (0, "gone"), (0, "in"), (0, "out"), (0, "README.md"),
    ]
    by_name = {e.name: e for _, e in tree.walk()}
    assert by_name["out"].kind == "symlink" and by_name["out"].escapes
    assert by_name["out"].children == ()  # never descended
    assert by_name["in"].kind == "symlink" and not by_name["in"].escapes
    assert by_name["gone"].broken and not by_name["gone"].escapes
    assert by_name["app.py"].rel_path == "src/app.py" and by_name["app.py"].size == 12
    assert tree.count == 9 and not tree.truncated and tree.notice == ""


def test_tree_cap_is_breadth_first(repo: Path) -> None:
    deep = repo / "src" / "d1" / "d2"
    deep.mkdir(parents=True)
    for i in range(50):
        (deep / f"f{i:02}.txt").write_text("x")
    tree = list_repo_tree(repo, max_entries=5)
    assert tree.truncated and tree.count == 5
    assert tree.notice == "showing the first 5 entries (listing stopped there)"
    top = [e.name for e in tree.entries]
    assert top == ["src", "README.md"]  # top level complete before going deeper


def test_tree_missing_root(tmp_path: Path) -> None:
    tree = list_repo_tree(tmp_path / "nope")
    assert tree.entries == () and tree.notice == "repository folder not found"


def test_tree_symlink_loop_does_not_hang(repo: Path) -> None:
    (repo / "loop").symlink_to(repo, target_is_directory=True)
    tree = list_repo_tree(repo)
    loop = next(e for _, e in tree.walk() if e.name == "loop")
    assert loop.kind == "symlink" and loop.children == ()
