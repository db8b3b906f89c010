"""The golden test run, kept out of the generated repo's reach (both backends).

The stock harness copies the golden tests into the generated repo and runs pytest from the repo
root, so the repo's own ``conftest.py``, pytest configuration, plugins, ``sitecustomize`` and
``.pth`` files all shape the run, and a service can rewrite the tests or the report. Here:

* the golden suite is *staged* in its own folder (``<golden>/tests/...``), read-only and (where
  the backend can) owned by a user the service does not run as; its digest is taken from the
  task's own files and checked before and after the run (:func:`tree_digest`, :func:`tar_digest`);
* pytest runs through :data:`RUNNER`, under ``python -I`` (no ``PYTHON*`` variables, no user
  site, no current directory on ``sys.path``), with ``--rootdir``/``--confcutdir`` at the golden
  folder and an explicit ``-c`` (the task's own config file if it has one): the repo's conftest
  files and config sections are never read;
* plugins: only the ``pytest11`` entry points visible *before* the repo's paths are added are
  loaded (explicitly, with autoload off), so a plugin shipped by the repo or its requirements is
  not; what of the repo the suite may import is decided from the suite's own imports
  (:mod:`.suite_reach`): nothing for a black-box suite, the repo environment's site-packages for
  one that needs its libraries, the repo root too for a white-box suite — found by a finder
  placed after everything of the runner's (``.pth`` files there are not processed,
  ``sitecustomize`` is not imported), which never resolves a name the runner's own libraries
  import (``chardet``, ``brotli``, ...) into the repo for those libraries;
* the JUnit report goes to a folder the service cannot write.

Test ids stay relative to the golden folder, which mirrors the repo root (``tests/...``), so they
are the same as the stock harness's.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import io
import json
import os
import shutil
import stat
import tarfile
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding

# Started in the golden folder (pytest's invocation dir: ids print as ``tests/...``, as in a
# stock run from the repo root); argv: PLAN -- PYTEST_ARG..., PLAN a JSON object (see
# :func:`runner_command`); the tests then run in the plan's workdir (the repo copy, as the stock
# harness's do).
RUNNER = r"""
import json, os, sys
argv = sys.argv[1:]
cut = argv.index("--")
plan, args = json.loads(argv[0]), argv[cut + 1:]
workdir = plan["workdir"]
for var in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
    os.environ.pop(var, None)
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
from importlib.metadata import entry_points
plugins = []
for ep in entry_points(group="pytest11"):
    if ep.module not in plugins:
        plugins.append(ep.module)
import pytest
import _pytest.junitxml
# the runner's libraries the suite imports are loaded now, so their optional imports are
# settled before anything of the repo is importable
for name in plan.get("preload", ()):
    try:
        __import__(name)
    except Exception:
        pass
import importlib, importlib.machinery
class _RepoReach:
    # the repo (root and/or its environment's site-packages) after everything of the runner's,
    # top-level names only (submodules follow their package). Whose import it is decides:
    # a name the runner's own code could import ("guarded") resolves there only when the
    # importing frame itself is the suite's or the repo's; any other name only while the
    # suite or the repo is running (a test, a fixture, a test module being collected), never
    # for pytest's or its plugins' own work (reporting, entry points); the repo environment's
    # distributions are listed only to the suite's or the repo's own code
    def __init__(self, plan):
        self.root = plan.get("root")
        self.libs = list(plan.get("libs", ()))
        self.guarded = frozenset(plan.get("guarded", ()))
        self.lib_only = frozenset(plan.get("lib_only", ()))
        self.ours = tuple(os.path.realpath(p) + os.sep for p in
                          [home, workdir, *([self.root] if self.root else []), *self.libs])
        self.skip = os.path.dirname(importlib.__file__) + os.sep
        self.seen = {}
    def _ours(self, fn):
        hit = self.seen.get(fn)
        if hit is None:
            # only a real file counts ("<string>": exec'd text, whoever ran it)
            hit = self.seen[fn] = os.path.isabs(fn) and \
                os.path.realpath(fn).startswith(self.ours)
        return hit
    def _asked_by_ours(self, anywhere):
        frame = sys._getframe(2)
        while frame is not None:
            fn = frame.f_code.co_filename
            if fn.startswith("<frozen") or fn.startswith(self.skip):
                frame = frame.f_back
                continue
            if self._ours(fn):
                return True
            if not anywhere:
                return False
            frame = frame.f_back
        return False
    def find_spec(self, name, path=None, target=None):
        if path is not None:
            return None
        if not self._asked_by_ours(anywhere=name not in self.guarded):
            return None
        where = self.libs if not self.root or name in self.lib_only else [self.root, *self.libs]
        return importlib.machinery.PathFinder.find_spec(name, where)
    def find_distributions(self, context=None):
        from importlib.metadata import DistributionFinder, MetadataPathFinder
        if context is not None and "path" in vars(context):
            return iter(())
        if not self._asked_by_ours(anywhere=False):
            return iter(())
        name = getattr(context, "name", None)
        return MetadataPathFinder.find_distributions(
            DistributionFinder.Context(name=name, path=self.libs))
home = os.getcwd()
if plan.get("root") or plan.get("libs"):
    sys.meta_path.append(_RepoReach(plan))
pargs = []
for mod in sorted(plugins):
    pargs += ["-p", mod]
def _at_home(fn):
    # tracebacks are formatted from the golden folder, so their paths stay relative
    # (tests/test_x.py:5), as in a stock run; the tests themselves run in workdir
    def wrapped(*a, **k):
        here = os.getcwd()
        os.chdir(home)
        try:
            return fn(*a, **k)
        finally:
            os.chdir(here)
    return wrapped
# collection errors: an import error's traceback, and any other collector failure
pytest.ExceptionInfo.getrepr = _at_home(pytest.ExceptionInfo.getrepr)
pytest.Collector.repr_failure = _at_home(pytest.Collector.repr_failure)
try:
    # the repo's own files print relative to workdir (app.py:12), as in a stock run
    import _pytest._code.code as _code
    _bestrelpath = _code.bestrelpath
    def _repo_relative(directory, dest):
        if dest.is_relative_to(workdir):
            return str(dest.relative_to(workdir))
        return _bestrelpath(directory, dest)
    _code.bestrelpath = _repo_relative
except (ImportError, AttributeError):
    pass
class _Workdir:
    # tests (and collection) run in workdir; test reports are made from the golden folder
    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config):
        os.chdir(workdir)
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        here = os.getcwd()
        os.chdir(home)
        try:
            return (yield)
        finally:
            os.chdir(here)
sys.exit(pytest.main(pargs + args, plugins=[_Workdir()]))
"""

CONFIG_FILES = (("pytest.ini", None), (".pytest.ini", None), ("pyproject.toml", "tool.pytest"),
                ("tox.ini", "[pytest]"), ("setup.cfg", "[tool:pytest]"))
EMPTY_CONFIG = "/dev/null"


def task_config(golden: Path) -> Path | None:
    """The task's own pytest config inside the staged suite, found as pytest would search from
    ``tests/`` upwards, but never above the golden folder."""
    for folder in (golden / "tests", golden):
        for name, marker in CONFIG_FILES:
            path = folder / name
            if not path.is_file() or path.is_symlink():
                continue
            if marker is None:
                return path
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if marker in text:
                return path
    return None


def runner_command(python: str, golden: str, workdir: str, test_ids: list[str] | None,
                   junit: str, config: str | None, root: str | None = None,
                   site_packages: list[str] | None = None,
                   reach: dict[str, object] | None = None) -> list[str]:
    """The isolated pytest command, to be started with the golden folder as its working
    directory: ``golden`` is the staged suite's folder as the running process sees it,
    ``workdir`` where the tests then run (the repo copy), ``config`` the task's config file in
    the golden folder (None: no config at all).

    What of the repo the runner may import (see :mod:`.suite_reach`): ``root`` (the repo root, a
    white-box suite only) and ``site_packages`` (the repo environment's), found after everything
    of the runner's own; ``reach`` is :meth:`.suite_reach.Reach.plan` (names preloaded, names
    never resolved there for the runner's own imports, names taken from the environment only).
    Neither given: the repo is not importable at all (a black-box suite).

    Test ids are relative to the golden folder (``tests/test_x.py::name``), as in a stock run.
    """
    ids = list(test_ids or ["tests"])
    rootdir = str(Path(config).parent) if config else golden
    plan = {"workdir": workdir, "root": root, "libs": list(site_packages or []),
            **(reach or {})}
    # -u: -I ignores PYTHONUNBUFFERED, and the output is streamed line by line (re-runs)
    return [python, "-I", "-u", "-c", RUNNER, json.dumps(plan), "--", *ids, "-v",
            "--tb=short", "-p", "no:cacheprovider", "--continue-on-collection-errors",
            "-o", "junit_family=xunit1", f"--junitxml={junit}", f"--rootdir={rootdir}",
            "-c", config or EMPTY_CONFIG, f"--confcutdir={golden}"]


# -- staging ----------------------------------------------------------------------------------

# what a golden test must never find next to its suite: importable or pytest configuration
_NOT_DATA_NAMES = frozenset({"tests", "__pycache__", ".pytest_cache", "conftest.py",
                             *(name for name, _ in CONFIG_FILES)})
_NOT_DATA_SUFFIXES = (*importlib.machinery.all_suffixes(), ".pth", ".pyi", ".egg-link")


def repo_data_files(repo: Path) -> list[str]:
    """Names of the repo root's regular files a golden test may read as ``tests/../NAME``
    (a ``README.md``, data), to be linked next to the staged suite: such a test then reads the
    generated repo's file, as in a stock run, where the tests are copied into the repo.

    Never a folder (a package, were the golden folder on ``sys.path``), a symlink, anything
    Python could import (``.py``, ``.pyc``, extension modules, ``.pth``) or a pytest
    configuration file."""
    try:
        entries = sorted(os.scandir(repo), key=lambda e: e.name)
    except OSError:
        return []
    out = []
    for entry in entries:
        name = entry.name
        if name in _NOT_DATA_NAMES or name.lower().endswith(_NOT_DATA_SUFFIXES):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                out.append(name)
        except OSError:
            continue
    return out


def stage_golden(tests_dir: Path, golden: Path, links: dict[str, str] | None = None) -> str:
    """Copy the task's tests to ``golden/tests`` read-only, with ``links`` (name -> target,
    see :func:`repo_data_files`) beside them; returns the suite's digest."""
    dest = golden / "tests"
    golden.mkdir(parents=True, exist_ok=True)
    shutil.copytree(tests_dir, dest, symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache"))
    for name, target in (links or {}).items():
        (golden / name).symlink_to(target)
    make_read_only(golden)
    return tree_digest(golden)


def make_read_only(root: Path) -> None:
    """Files 0444 and folders 0555 under (and including) ``root``."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath) / name
            if not path.is_symlink():
                path.chmod(0o444)
        for name in dirnames:
            path = Path(dirpath) / name
            if not path.is_symlink():
                path.chmod(0o555)
    root.chmod(0o555)


def make_writable(root: Path) -> None:
    """Undo :func:`make_read_only` so the folder can be removed."""
    if not root.exists():
        return
    root.chmod(0o755)
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            path = Path(dirpath) / name
            if not path.is_symlink():
                path.chmod(0o755)


def golden_tar(tests_dir: Path, uid: int = 0, links: dict[str, str] | None = None) -> bytes:
    """The task's tests as ``tests/...`` in a tar, owned by ``uid``, files 0444, folders 0555,
    with ``links`` (name -> target, see :func:`repo_data_files`) as symlinks beside them."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, target in sorted((links or {}).items()):
            link = tarfile.TarInfo(name)
            link.type, link.linkname, link.mode = tarfile.SYMTYPE, target, 0o777
            link.uid = link.gid = uid
            tar.addfile(link)
        for path in [tests_dir, *sorted(_files(tests_dir))]:
            rel = path.relative_to(tests_dir).as_posix()
            arc = "tests" if rel == "." else f"tests/{rel}"
            info = tar.gettarinfo(str(path), arcname=arc)
            info.uid = info.gid = uid
            info.uname = info.gname = ""
            if info.isdir():
                info.mode = 0o555
                tar.addfile(info)
            elif info.isfile():
                info.mode = 0o444
                with path.open("rb") as fh:
                    tar.addfile(info, fh)
    return buf.getvalue()


def _files(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(n for n in dirnames if n not in ("__pycache__", ".pytest_cache"))
        d = Path(dirpath)
        out += [d / n for n in dirnames]
        out += [d / n for n in filenames if not n.endswith(".pyc")]
    return out


# -- digests ----------------------------------------------------------------------------------

def tree_digest(root: Path) -> str:
    """SHA-256 over the suite below ``root``: every path, its type and every file's bytes
    (``__pycache__`` ignored: pytest may write bytecode where it can)."""
    entries: list[tuple[str, str, bytes]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [n for n in dirnames if n not in ("__pycache__", ".pytest_cache")]
        d = Path(dirpath)
        for name in dirnames + filenames:
            path = d / name
            rel = path.relative_to(root).as_posix()
            if name.endswith(".pyc"):
                continue
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                entries.append((rel, "l", os.readlink(path).encode()))
            elif stat.S_ISDIR(st.st_mode):
                entries.append((rel, "d", b""))
            elif stat.S_ISREG(st.st_mode):
                entries.append((rel, "f", path.read_bytes()))
            else:
                entries.append((rel, "?", b""))
    return _digest(entries)


def tar_digest(data: bytes, strip: str = "") -> str:
    """:func:`tree_digest` of a tar (``docker get_archive`` of the staged folder); ``strip`` is
    the leading folder the archive names its members under (``golden/``)."""
    entries: list[tuple[str, str, bytes]] = []
    root = strip.strip("/")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for info in tar.getmembers():
            name = info.name
            while name.startswith("./"):
                name = name[2:]
            if root and name.rstrip("/") == root:
                continue  # the staged folder itself (get_archive names it): not in the tree
            name = name[len(strip):] if strip and name.startswith(strip) else name
            name = name.strip("/")
            parts = name.split("/")
            if name in ("", ".") or "__pycache__" in parts or ".pytest_cache" in parts \
                    or name.endswith(".pyc"):
                continue
            if info.issym():
                entries.append((name, "l", info.linkname.encode()))
            elif info.isdir():
                entries.append((name, "d", b""))
            elif info.isfile():
                fh = tar.extractfile(info)
                entries.append((name, "f", fh.read() if fh else b""))
            else:
                entries.append((name, "?", b""))
    return _digest(entries)


def _digest(entries: list[tuple[str, str, bytes]]) -> str:
    h = hashlib.sha256()
    for rel, kind, content in sorted(entries):
        h.update(rel.encode() + b"\0" + kind.encode() + b"\0")
        h.update(hashlib.sha256(content).digest())
    return h.hexdigest()


def digest_finding(expected: str, actual: str | None, when: str) -> TamperFinding | None:
    """A deliberate finding when the staged suite's digest changed (``when``: before/after the
    run); None when it is intact."""
    if actual == expected:
        return None
    what = "could not be read" if actual is None else "was modified"
    return TamperFinding("golden_modified", "", f"the golden test suite {what} {when} the "
                         "test run; its results were discarded", True)
