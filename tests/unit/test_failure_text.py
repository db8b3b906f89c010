"""The shared failure-text patterns (model.failure_text) on the lines real tracebacks, pytest
reports and client errors print."""

from __future__ import annotations

from inspector.model.failures import text as ft


def test_python_frames() -> None:
    line = 'File "/tmp/repo/app/main.py", line 12, in create_app'
    m = ft.PY_FRAME.match(line)
    assert m and (m["path"], m["line"], m["func"]) == ("/tmp/repo/app/main.py", "12",
                                                       "create_app")
    assert ft.PY_FRAME.match('File "<string>", line 1') is not None
    assert ft.PY_FRAME.match('  File "a.py", line 1') is None  # whole stripped lines only
    text = 'E   raised at File "app.py", line 3 and more'
    assert ft.PY_FRAME_ANYWHERE.search(text)["path"] == "app.py"  # type: ignore[index]
    assert ft.PY_FRAME_INDENTED.match('    File "x/y.py", line 4, in f')["func"] == "f"  # type: ignore[index]
    assert ft.PY_FRAME_LOG.match('|   File "x.py", line 4, in f')


def test_pytest_frames() -> None:
    m = ft.PYTEST_FRAME.match("tests/test_api.py:41: in test_create")
    assert m and (m["path"], m["line"], m["func"]) == ("tests/test_api.py", "41",
                                                       "test_create")
    assert ft.PYTEST_FRAME.match("tests/test_api.py:41: AssertionError")
    assert ft.PYTEST_FRAME_PREFIX.match("my tests/test api.py:9: KeyError")
    full = ft.PYTEST_FRAME_FULL.match("app/x.py:7: KeyError")
    assert full and full["exc"] == "KeyError"
    assert ft.PYTEST_FRAME_FULL.match("E   app/x.py:7: in f") is None
    found = ft.FILE_LINE_ANYWHERE.search("see src/Main.java:12: error")
    assert found and found["path"] == "src/Main.java"
    java = ft.JAVA_FRAME.search("at com.x.App.main(App.java:33)")
    assert java and (java["path"], java["line"]) == ("App.java", "33")


def test_library_paths() -> None:
    assert ft.LIBRARY_PATH.search("/v/lib/python3.11/site-packages/flask/app.py")
    assert ft.LIBRARY_PATH.search("<frozen importlib._bootstrap>")
    assert not ft.LIBRARY_PATH.search("/tmp/repo/app.py")
    assert ft.LIBRARY_OR_TOOL_PATH.search("venv/lib/x.py")
    assert ft.LIBRARY_OR_TOOL_PATH.search("/x/_pytest/python.py")
    assert not ft.LIBRARY_OR_TOOL_PATH.search("tests/test_x.py")
    m = ft.SITE_PACKAGE.search("/v/site-packages/werkzeug/urls.py")
    assert m and m["pkg"] == "werkzeug"


def test_connection_failures() -> None:
    assert ft.is_connection_failure("requests.exceptions.ConnectionError: HTTPConnectionPool")
    assert ft.is_connection_failure("[Errno 111] connection refused")
    assert not ft.is_connection_failure("x" * ft.SCAN_CHARS + "Connection refused")
    assert not ft.is_connection_failure("assert 404 == 200")
    assert ft.is_connection_error("requests.exceptions.ConnectionError", "")
    assert ft.is_connection_error("OSError", "Max retries exceeded with url: /api")
    assert not ft.is_connection_error("AssertionError", "Connection refused")


def test_missing_modules() -> None:
    line = "ModuleNotFoundError: No module named 'app.models'; 'app' is not a package"
    m = ft.NO_MODULE.search(line)
    assert m and m["name"] == "app.models" and m["rest"].startswith(";")
    assert ft.missing_module(line) == "app.models"
    assert ft.missing_module("ImportError: cannot import name 'x'") is None
