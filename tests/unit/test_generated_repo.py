"""The one read-only view of a generated repository (model.generated_repo), on real folders,
files and symlinks in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspector.model.repo.generated_repo import SKIP_DIRS, GeneratedRepo, walk_files, within
from inspector.services.repo.files import iter_files, repo_digest


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A repo with code, vendored and cache folders, and symlinks in and out."""
    outside = write(tmp_path / "outside", {"secret.py": "TOKEN = 1\n", "lib/x.py": ""})
    repo = write(tmp_path / "repo", {
        "app.py": "import storage\n", "storage.py": "class Store:\n    pass\n",
        "pkg/__init__.py": "", "pkg/b.py": "", "pkg/a.py": "", "src/tool/__init__.py": "",
        "README.md": "# r\n", ".github/ci.py": "", "node_modules/m/index.js": "",
        ".venv/lib/site.py": "", "env/bin/activate.py": "", "build/lib/app.py": "",
        "x.egg-info/PKG-INFO": "", "__pycache__/app.cpython-311.pyc": "",
        "tests/test_app.py": "def test(): pass\n"})
    (repo / "leak.py").symlink_to(outside / "secret.py")
    (repo / "vendor").symlink_to(outside / "lib")
    (repo / "alias.py").symlink_to(repo / "storage.py")
    return repo


def rels(repo: Path, paths: object) -> list[str]:
    return [p.relative_to(repo).as_posix() for p in paths]  # type: ignore[attr-defined]


def test_walk_skips_vendored_folders_and_never_follows_symlinks(tree: Path) -> None:
    got = rels(tree, GeneratedRepo(tree).files())
    assert got == ["README.md", "app.py", "storage.py", ".github/ci.py", "pkg/__init__.py",
                   "pkg/a.py", "pkg/b.py", "src/tool/__init__.py", "tests/test_app.py"]
    assert rels(tree, walk_files(tree, (".py",), hidden=False)) == [
        "app.py", "storage.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py",
        "src/tool/__init__.py", "tests/test_app.py"]


def test_walk_order_is_the_old_os_walk_order(tree: Path) -> None:
    """The digest of results files depends on this order: each folder's files by name, then
    its sub-folders by name, top-down (what repo_files.iter_files did with os.walk)."""
    old: list[str] = []
    for dirpath, dirnames, filenames in os.walk(tree, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not path.is_symlink() and path.is_file():
                old.append(path.relative_to(tree).as_posix())
    assert rels(tree, iter_files(tree)) == old
    assert repo_digest(tree) == repo_digest(tree) and repo_digest(tree).startswith("sha256:")


def test_contains_and_is_file_refuse_what_resolves_outside(tree: Path) -> None:
    repo = GeneratedRepo(tree)
    assert repo.contains("app.py") and repo.contains(tree / "pkg" / "a.py")
    assert not repo.contains("../outside/secret.py")
    assert not repo.contains("leak.py") and not repo.is_file("leak.py")
    assert not repo.is_file("vendor/x.py")
    assert repo.is_file("alias.py")  # a symlink that stays inside
    assert not repo.is_file("pkg") and not repo.is_file("") and not repo.is_file("nope.py")
    assert within(str(tree), str(tree)) and within(str(tree / "a"), str(tree))
    assert not within(str(tree) + "2/a", str(tree))


def test_relative_maps_traceback_paths_into_the_repo(tree: Path) -> None:
    repo = GeneratedRepo(tree)
    assert repo.relative("/tmp/gi-task-abc/repo/pkg/a.py") == "pkg/a.py"
    assert repo.relative(tree / "pkg" / "a.py") == "pkg/a.py"
    assert repo.relative("C:\\work\\repo\\storage.py") == "storage.py"
    assert repo.relative("/usr/lib/python3.11/site-packages/pkg/a.py") is None
    assert repo.relative("/x/.venv/pkg/a.py") is None
    assert repo.relative("/task/tests/app.py") is None  # the golden suite's namesake
    assert repo.relative("../pkg/a.py") is None
    assert repo.relative("/elsewhere/missing.py") is None
    assert repo.relative("/x/leak.py") is None


def test_read_text_is_bounded_and_safe(tree: Path) -> None:
    repo = GeneratedRepo(tree)
    assert repo.read_text("storage.py") == "class Store:\n    pass\n"
    assert repo.read_text("storage.py", limit=5) == "class"
    assert repo.read_text("leak.py") is None and repo.read_text("pkg") is None
    (tree / "bad.py").write_bytes(b"x = '\xff'\n")
    assert repo.read_text("bad.py") == "x = '\ufffd'\n"


def test_python_module_index(tree: Path) -> None:
    repo = GeneratedRepo(tree)
    # importable names, as Python sees them: a symlinked package counts (nothing is read)
    assert repo.top_modules() == {"app", "storage", "alias", "leak", "pkg", "tests", "tool",
                                  "vendor"}
    assert repo.module_file("pkg.a") == "pkg/a.py"
    assert repo.module_file("pkg") == "pkg/__init__.py"
    assert repo.module_file("tool") == "src/tool/__init__.py"
    assert repo.module_file("secret") is None
    assert repo.module_exists("pkg") and not repo.module_exists("pkg.c")
    assert repo.py_files(3) == ["app.py", "storage.py", "pkg/__init__.py"]  # no symlinks
    assert "leak.py" not in repo.py_files(100) and ".github/ci.py" not in repo.py_files(100)


def test_no_repo_knows_nothing(tmp_path: Path) -> None:
    for repo in (GeneratedRepo(None), GeneratedRepo(tmp_path / "missing"),
                 GeneratedRepo(write(tmp_path, {"f": ""}) / "f")):
        assert not repo.available
        assert list(repo.files()) == [] and repo.py_files(10) == []
        assert not repo.contains("f") and not repo.is_file("f")
        assert repo.relative("/a/f") is None and repo.read_text("f") is None
        assert repo.top_modules() == set() and repo.module_file("f") is None
