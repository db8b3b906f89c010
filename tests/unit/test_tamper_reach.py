"""The tamper scan's newer families, read statically from any repo module: reaching pytest's
live machinery from a module that is not a conftest (walking ``gc`` or frames, registering
hooks, patching reports), running hidden payloads (decoded, disguised, fetched by computed
names), and modules shadowing what the test runner's libraries import when present — each
deliberate, in several spellings per family; ordinary code stays quiet."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from inspector.model.repo.tampering import TamperFinding
from inspector.services.tamper import scan_repo
from inspector.services.tamper.reach import analyse_reach
from inspector.services.tamper.shadowing import optional_imports

ROOT = Path(__file__).resolve().parents[2]
NAMES = frozenset({"chardet", "brotli", "zstandard", "socks"})


def _scan(tmp_path: Path, files: dict[str, str],
          names: frozenset[str] = NAMES) -> list[TamperFinding]:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return scan_repo(tmp_path, shadow_names=names)


# ------------------------------------------------------------------ reaching pytest's machinery

PLUGIN_INJECTION = {
    "gc walk to the plugin manager": """
        import gc
        def _install():
            for obj in gc.get_objects():
                if type(obj).__name__ == "PytestPluginManager":
                    obj.register(object())
        _install()
    """,
    "gc referrers, names built at run time": """
        def boot():
            g = __import__("g" + "c")
            for o in getattr(g, "get_" + "referrers")(object):
                if hasattr(o, "hook") and hasattr(o, "register"):
                    o.register(object())
    """,
    "frame walk to the config": """
        import sys
        def find():
            frame = sys._getframe(1)
            while frame is not None:
                if "config" in frame.f_locals:
                    return frame.f_locals["config"]
                frame = frame.f_back
    """,
    "inspect.stack to the session": """
        import inspect
        def grab():
            for info in inspect.stack():
                session = info.frame.f_locals.get("session")
                if session is not None:
                    session.config.pluginmanager.register(object())
    """,
    "report wrapper as a class method": """
        class Reporter:
            def pytest_runtest_makereport(self, item, call):
                pass
    """,
    "hookimpl marker from pluggy": """
        import pluggy
        mark = pluggy.HookimplMarker("pytest")
        @mark(wrapper=True)
        def anything(item):
            return (yield)
    """,
    "hook installed by setattr": """
        class P: pass
        setattr(P, "pytest_report_teststatus", lambda report, config: ("passed", ".", "PASSED"))
    """,
    "TestReport patched": """
        from _pytest.reports import TestReport
        TestReport.outcome = property(lambda self: "passed")
    """,
    "outcome patched through the module": """
        import importlib
        reports = importlib.import_module("_pytest.reports")
    """,
    "walker imported under another name": """
        from gc import get_objects as everything
        for o in everything():
            if "PluginManager" in repr(type(o)):
                pass
    """,
    "pytest's modules through sys.modules": """
        import sys
        runner = sys.modules["_pytest.runner"]
        runner.call_and_report = None
    """,
    "settrace watching frames for the plugin manager": """
        import sys
        def tracer(frame, event, arg):
            pm = frame.f_locals.get("pluginmanager")
            return tracer
        sys.settrace(tracer)
    """,
}


@pytest.mark.parametrize("source", PLUGIN_INJECTION.values(), ids=PLUGIN_INJECTION.keys())
def test_a_repo_module_reaching_pytests_machinery_is_deliberate(tmp_path: Path,
                                                                source: str) -> None:
    found = _scan(tmp_path, {"app/helpers.py": source})
    assert [(f.kind, f.path, f.deliberate) for f in found] == [
        ("plugin_injection", "app/helpers.py", True)], found


# ------------------------------------------------------------------ hidden payloads

HIDDEN_PAYLOAD = {
    "base64 exec": "import base64\nexec(base64.b64decode('cHJpbnQoMSk='))\n",
    "zlib through an alias of exec": """
        import zlib as z
        run = exec
        data = b"x"
        run(z.decompress(data))
    """,
    "hex compile then eval": """
        code = compile(bytes.fromhex("7072696e74283129").decode(), "<x>", "exec")
        eval(code)
    """,
    "rot13 via codecs": "import codecs\nexec(codecs.decode('cevag(1)', 'rot_13'))\n",
    "bytes of ints": "exec(bytes([112, 114, 105, 110, 116]).decode())\n",
    "chr join": "eval(''.join(chr(c) for c in (49, 43, 49)))\n",
    "reversed string": "exec(')1(tnirp'[::-1])\n",
    "marshal code object": """
        import marshal, types
        blob = b"\\xe3\\x00"
        types.FunctionType(marshal.loads(blob), globals())()
    """,
    "pickle of a constant": "import pickle\npickle.loads(b'cos\\nsystem\\n(S\"id\"\\ntR.')\n",
    "getattr on builtins with a computed name": """
        import builtins
        f = getattr(builtins, "ex" + "ec")
        f("x = 1")
    """,
    "__builtins__ subscript": "__builtins__['ev' + 'al']('1')\n",
    "__import__ of a decoded name": """
        import base64
        mod = __import__(base64.b64decode("Z2M=").decode())
    """,
    "attribute by a reversed name": "import gc\nwalk = getattr(gc, 'stcejbo_teg'[::-1])\n",
    "python -c with a decoded payload": """
        import base64, subprocess, sys
        subprocess.Popen([sys.executable, "-c", base64.b64decode(PAYLOAD).decode()])
    """,
    "a85 through a variable": """
        from base64 import a85decode as d
        payload = d(b"...")
        text = payload.decode()
        exec(text)
    """,
    "literal exec that walks gc": """
        exec("import gc\\nfor o in gc.get_objects():\\n"
             "    o.register(1) if 'pytest' in repr(o) else 0")
    """,
}


@pytest.mark.parametrize("source", HIDDEN_PAYLOAD.values(), ids=HIDDEN_PAYLOAD.keys())
def test_a_repo_module_running_a_hidden_payload_is_deliberate(tmp_path: Path,
                                                              source: str) -> None:
    found = _scan(tmp_path, {"service/util.py": source})
    assert found and all(f.deliberate and f.path == "service/util.py" for f in found), found
    assert {f.kind for f in found} <= {"hidden_payload", "plugin_injection"}
    assert found[0].detail.startswith("service/util.py:")


BENIGN = {
    "json of base64": "import base64, json\ndef load(s):\n"
                      "    return json.loads(base64.b64decode(s))\n",
    "exec of a constant": "exec('x = 1')\n",
    "memory debug endpoint": """
        import gc
        from collections import Counter
        def memory():
            return Counter(type(o).__name__ for o in gc.get_objects()).most_common(10)
    """,
    "routers imported by name": """
        import importlib
        for name in ("users", "items"):
            importlib.import_module(f"app.routes.{name}")
    """,
    "a pickle cache": "import pickle\ndef get(cache, key):\n"
                      "    return pickle.loads(cache.get(key))\n",
    "registries and hooks of its own": """
        import atexit
        from flask import Blueprint
        bp = Blueprint("x", __name__)
        def setup(app, plugins, webhooks):
            app.register_blueprint(bp)
            plugins.register("x")
            webhooks.hook = 1
            atexit.register(print)
    """,
    "fixtures and generated tests in its own tests": """
        import pytest
        @pytest.fixture
        def client():
            return 1
        def pytest_generate_tests(metafunc):
            pass
    """,
    "module loaded from a file": """
        import importlib.util
        spec = importlib.util.spec_from_file_location("cfg", "config.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    """,
    "hashes and hex": "import hashlib\nraw = bytes.fromhex(hashlib.sha256(b'x').hexdigest())\n",
    "jinja-like code generation": """
        def make(src):
            namespace = {}
            exec(compile(src, "<template>", "exec"), namespace)
            return namespace
    """,
}


@pytest.mark.parametrize("source", BENIGN.values(), ids=BENIGN.keys())
def test_ordinary_code_is_not_a_finding(tmp_path: Path, source: str) -> None:
    rel = "tests/test_own.py" if "pytest_generate_tests" in source else "app/code.py"
    assert _scan(tmp_path, {rel: source}) == []


def test_the_bundled_honest_repos_and_fixtures_hide_nothing() -> None:
    """Every Python file of the bundled real generated repos and of the non-hostile
    fixtures: no reach-in, no hidden payload."""
    files = [p for base in (ROOT / "sample_runs", ROOT / "tests" / "fixtures")
             for p in base.rglob("*.py") if "hostile" not in p.parts
             and p.name != "conftest.py"]  # conftests are judged as such
    assert len(files) > 200
    found = {str(p): analyse_reach(p.read_text(encoding="utf-8", errors="replace"),
                                   test_code="tests" in p.parts or p.name.startswith("test_"))
             for p in files}
    assert {k: v for k, v in found.items() if v} == {}


# ------------------------------------------------------------------ shadowing modules

CHARDET = """
    import gc

    def _forge():
        for obj in gc.get_objects():
            if type(obj).__name__.endswith("PluginManager"):
                class Forge:
                    def pytest_runtest_makereport(self, item, call):
                        pass
                obj.register(Forge())

    _forge()
    __version__ = "5.2.0"
"""


def test_a_root_module_shadowing_an_optional_runner_import_is_deliberate(
        tmp_path: Path) -> None:
    found = _scan(tmp_path, {"chardet.py": CHARDET, "app.py": "print('service')\n"})
    shadow = [f for f in found if f.kind == "shadowing_module"]
    assert [(f.path, f.deliberate) for f in shadow] == [("chardet.py", True)]
    assert "a module named chardet" in shadow[0].detail
    assert "chardet.py:5: walks the interpreter's live objects" in shadow[0].detail
    # the module is a plugin injection in its own right too
    assert ("plugin_injection", "chardet.py", True) in [(f.kind, f.path, f.deliberate)
                                                       for f in found]


def test_packages_compiled_modules_src_and_symlinks_shadow_too(tmp_path: Path) -> None:
    (tmp_path / "socks.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (tmp_path / "zstandard.py").symlink_to("/etc/hostname")
    found = _scan(tmp_path, {"brotli/__init__.py": "VERSION = 1\n",
                             "src/zstandard.py": "x = 1\n", "src/app.py": "x = 2\n",
                             "deep/chardet.py": "x = 3\n"})
    assert sorted((f.kind, f.path, f.deliberate) for f in found) == [
        ("shadowing_module", "brotli", True),
        ("shadowing_module", "socks.cpython-311-x86_64-linux-gnu.so", True),
        ("shadowing_module", "src/zstandard.py", True),
        ("shadowing_module", "zstandard.py", True)]
    assert "symlink (not followed)" in next(f.detail for f in found
                                            if f.path == "zstandard.py")


def test_an_empty_name_set_reports_no_shadowing(tmp_path: Path) -> None:
    assert _scan(tmp_path, {"chardet.py": "x = 1\n"}, frozenset()) == []


def _fake_site(site: Path) -> Path:
    """A site-packages with a ``pytest`` distribution requiring ``helperlib``; each imports
    something only when it is there."""
    for dist, module, requires, source in (
            ("pytest", "pytest_mod", "Requires-Dist: helperlib\n",
             "try:\n    import fancyopt\nexcept ImportError:\n    fancyopt = None\n"
             "try:\n    import json\nexcept ImportError:\n    pass\nimport required\n"),
            ("helperlib", "helperlib", "",
             "import importlib\ntry:\n    zz = importlib.import_module('zzcompress')\n"
             "except (ModuleNotFoundError, OSError):\n    zz = None\n"),
            ("unrelated", "unrelated", "",
             "try:\n    import notrunner\nexcept ImportError:\n    pass\n")):
        info = site / f"{dist}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n"
                                       f"{requires}")
        (site / f"{module}.py").write_text(source)
        (info / "RECORD").write_text(f"{module}.py,,\n{info.name}/METADATA,,\n")
    return site


def test_without_a_name_set_the_runners_optional_imports_are_read_from_its_site_packages(
        tmp_path: Path) -> None:
    site = _fake_site(tmp_path / "site")
    assert optional_imports(site) == frozenset({"fancyopt", "zzcompress"})
    repo = tmp_path / "repo"
    for name in ("fancyopt.py", "zzcompress.py", "notrunner.py", "json.py", "required.py"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("x = 1\n")
    found = scan_repo(repo, site_packages=site)
    assert sorted(f.path for f in found if f.kind == "shadowing_module") == [
        "fancyopt.py", "zzcompress.py"]


def test_the_default_set_names_what_requests_and_urllib3_try() -> None:
    names = optional_imports()
    assert {"chardet", "brotli", "zstandard"} <= names, sorted(names)
    assert not names & {"json", "ssl", "os", "app", "main", "models", "config", "tests"}


def test_expressions_built_to_explode_a_reader_stay_bounded() -> None:
    import time

    lines = ["a0 = 'x'"] + [f"a{i} = a{i - 1} + a{i - 1} + a{i - 1}" for i in range(1, 60)]
    lines += [f"b{i} = f(b{i - 1}, b{i - 1}, b{i - 1})" for i in range(1, 60)]
    lines += ["exec(a59)", "exec(b59)", "__import__(a59)", "getattr(o, b59)"] * 50
    t0 = time.monotonic()
    analyse_reach("\n".join(lines))
    assert time.monotonic() - t0 < 5
