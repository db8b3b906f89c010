"""Log line classification: flags of real-looking lines, traceback context, prefilters."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.logs.levels import (
    LEVEL_CHOICES,
    PREFILTER,
    Level,
    classify,
    level_names,
    pytest_test_ref,
)
from inspector.model.logs.phase_logs import LogLine, format_log_line

E, W, TB, PIP, PT, META, NOISE = (Level.ERROR, Level.WARNING, Level.TRACEBACK, Level.PIP,
                                  Level.PYTEST, Level.META, Level.NOISE)
N = Level.NONE

# (line, expected flags) with no context, stream "out"
CASES: list[tuple[str, Level]] = [
    # pip
    ("Collecting fastapi==0.115.0 (from -r requirements.txt (line 1))", PIP | NOISE),
    ("  Downloading fastapi-0.115.0-py3-none-any.whl (94 kB)", PIP | NOISE),
    ("  Using cached starlette-0.38.6-py3-none-any.whl (71 kB)", PIP | NOISE),
    ("Requirement already satisfied: idna>=2.8 in ./venv/lib/python3.11/site-packages",
     PIP | NOISE),
    ("  Stored in directory: /root/.cache/pip/wheels/ab/cd", PIP | NOISE),
    ("     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 2.1/2.1 MB 95.7 MB/s eta 0:00:00", PIP | NOISE),
    ("     |████████████████████████████████| 10.2 MB 5.6 MB/s", PIP | NOISE),
    ("Installing collected packages: typing-extensions, idna, h11, click", PIP),
    ("Successfully installed annotated-types-0.8.0 anyio-4.16.0 click-8.5.1", PIP),
    ("Successfully installed Flask-3.0.3 errors-1.0 FATAL-0.1", PIP),
    ("Successfully built pyyaml", PIP),
    ("Building wheels for collected packages: pyyaml", PIP),
    ("  Building wheel for pyyaml (pyproject.toml) ... done", PIP),
    ("  Created wheel for pyyaml: filename=PyYAML-6.0-cp311-linux_x86_64.whl size=1", PIP),
    ("  Attempting uninstall: click", PIP),
    ("    Found existing installation: click 8.1.0", PIP),
    ("Obtaining file:///repo", PIP),
    ("  Preparing metadata (pyproject.toml) ... done", PIP),
    ("Looking in indexes: https://pypi.org/simple", PIP),
    ("Processing /opt/pypi/files/idna-3.20-py3-none-any.whl (from requests)", PIP),
    ("ERROR: Could not find a version that satisfies the requirement flask==9.9 (from versions:"
     " 1.0, 2.0)", PIP | E),
    ("ERROR: No matching distribution found for flask==9.9", PIP | E),
    ("ERROR: Cannot install fastapi==0.1 and starlette==0.38 because these package versions "
     "have conflicting dependencies.", PIP | E),
    ("ERROR: pip's dependency resolver does not currently take into account all the packages "
     "that are installed.", PIP | E),
    ("fastapi 0.110.0 requires starlette<0.37.0,>=0.36.3, but you have starlette 0.38.6 which is"
     " incompatible.", PIP),
    ("The conflict is caused by:", PIP),
    ("  error: subprocess-exited-with-error", PIP | E),
    ("  × Getting requirements to build wheel did not run successfully.", PIP | E),
    ("WARNING: Location 'file:///opt/pypi-more/simple/h11/' is ignored: it is neither a file "
     "nor a directory.", PIP | W),
    ("WARNING: Running pip as the 'root' user can result in broken permissions", PIP | W),
    ("[notice] A new release of pip is available: 23.0 -> 24.0", PIP),
    # pytest -v
    ("============================= test session starts ==============================", PT),
    ("platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0 -- /venv/bin/python", PT),
    ("rootdir: /tmp/gi-todo-service-i5dro7qd/repo", PT),
    ("plugins: anyio-4.16.0", PT),
    ("collecting ... collected 12 items", PT),
    ("collected 12 items", PT),
    ("collected 4 items / 1 error", PT | E),
    ("tests/test_todos.py::test_health PASSED                                  [  8%]", PT),
    ("tests/test_todos.py::test_health FAILED                                  [  8%]", PT | E),
    ("tests/test_todos.py::test_health ERROR                                   [  8%]", PT | E),
    ("tests/test_errors.py::test_error_handling PASSED                         [ 50%]", PT),
    ("test_error_handling PASSED", PT),
    ("test_error_case PASSED", PT),
    ("tests/test_a.py::TestX::test_y[1-2] SKIPPED (needs a db)                 [ 50%]", PT),
    ("tests/test_a.py::test_x XFAIL (known bug)                                [ 60%]", PT),
    ("tests/test_a.py::test_x XPASS                                            [ 70%]", PT),
    ("=================================== FAILURES ===================================", PT),
    ("==================================== ERRORS ====================================", PT),
    ("_________________________________ test_health __________________________________", PT),
    ("__________________ ERROR collecting tests/test_quote_model.py __________________", PT | E),
    ("/venv/lib/python3.11/site-packages/urllib3/connection.py:239: in _new_conn", PT),
    ("tests/test_a.py:12: in test_x", PT),
    ("tests/test_a.py:12: AssertionError", PT | E),
    ("tests/test_a.py:12: Failed", PT | E),
    ("tests/test_a.py:7: SystemExit", PT | E),
    ("tests/test_a.py \x1b[32m.\x1b[0m\x1b[32m.\x1b[0m\x1b[31mF\x1b[0m", PT | E),
    ("E   ConnectionRefusedError: [Errno 111] Connection refused", PT | E),
    ("E       assert 500 == 200", PT | E),
    ("E    +  where 500 = <Response [500]>.status_code", PT | E),
    ("tests/test_a.py ..F.s                                                   [ 40%]", PT | E),
    ("tests/test_a.py .....                                                   [100%]", PT),
    ("                                                                        [ 50%]", PT | NOISE),
    ("PASSED                                                                  [ 50%]", PT),
    ("- generated xml file: /work/junit.xml", PT),
    # pytest short summary and results
    ("=========================== short test summary info ============================", PT),
    ("FAILED tests/test_a.py::test_y - AssertionError: assert 500 == 200", PT | E),
    ("FAILED tests/test_a.py::test_y[a b] - assert 1 == 2", PT | E),
    ("ERROR tests/test_a.py::test_y - fixture 'db' not found", PT | E),
    ("ERROR tests/test_quote_model.py", PT | E),
    ("SKIPPED [1] tests/test_a.py:12: no database", PT),
    ("XFAIL tests/test_a.py::test_x - known bug", PT),
    ("==== 3 failed, 2 passed in 1.2s ====", PT | E),
    ("========================== 4 passed, 1 error in 0.28s ==========================", PT | E),
    ("============================== 10 passed in 0.18s ==============================", PT),
    ("= 1 passed, 3 warnings in 0.01s =", PT),
    ("=== warnings summary ===", PT),
    ("= no tests ran =", PT),
    ("!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!", PT | E),
    # uvicorn / flask / gunicorn
    ("INFO:     Started server process [20628]", N),
    ("INFO:     Uvicorn running on http://127.0.0.1:18080 (Press CTRL+C to quit)", N),
    ('INFO:     127.0.0.1:5555 - "GET /x HTTP/1.1" 200 OK', NOISE),
    ('INFO:     127.0.0.1:42664 - "POST /items HTTP/1.1" 409 Conflict', NOISE),
    ('INFO:     127.0.0.1:42664 - "GET /errors HTTP/1.1" 500 Internal Server Error', E),
    ("ERROR:    Exception in ASGI application", E),
    ("ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address"
     " already in use", E),
    ("WARNING:  StatReload detected changes in 'app.py'. Reloading...", W),
    (" * Serving Flask app 'app'", N),
    ("\x1b[31m\x1b[1mWARNING: This is a development server. Do not use it in a production "
     "deployment.\x1b[0m", W),
    ('127.0.0.1 - - [21/Nov/2026 06:19:45] "\x1b[35m\x1b[1mPOST /todos HTTP/1.1\x1b[0m" 201 -',
     NOISE),
    ('127.0.0.1 - - [21/Nov/2026 06:19:45] "GET /todos HTTP/1.1" 500 -', E),
    ("[2024-05-01 10:00:00 +0000] [7] [INFO] Booting worker with pid: 8", N),
    ("[2024-05-01 10:00:00 +0000] [7] [ERROR] Exception in worker process", E),
    ("[2024-05-01 10:00:00 +0000] [7] [CRITICAL] WORKER TIMEOUT (pid:8)", E),
    ("[2024-05-01 10:00:00 +0000] [7] [WARNING] Worker with pid 8 was terminated", W),
    # npm, maven
    ("npm ERR! code ELIFECYCLE", E),
    ("npm error code E404", E),
    ("npm WARN deprecated inflight@1.0.6: This module is not supported", W),
    ("npm warn deprecated glob@7.2.3", W),
    ("added 57 packages, and audited 58 packages in 3s", N),
    ("found 0 vulnerabilities", N),
    ("[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1", E),
    ("[WARNING] Using platform encoding (UTF-8 actually) to copy filtered resources", W),
    ("[INFO] BUILD FAILURE", E),
    ("[INFO] BUILD SUCCESS", N),
    # shell, process and Python errors
    ("start.sh: line 3: uvicorn: command not found", E),
    ("python: can't open file '/app/main.py': [Errno 2] No such file or directory", E),
    ("start.sh: line 5:  1234 Killed                  python app.py", E),
    ("Killed", E),
    ("Segmentation fault (core dumped)", E),
    ("Aborted (core dumped)", E),
    ("OSError: [Errno 98] Address already in use", E),
    ("ModuleNotFoundError: No module named 'yaml'", E),
    ("requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=18080)", E),
    ("Exception: boom", E),
    ("Error: Cannot find module 'express'", E),
    ("error: could not compile `app`", E),
    ("fatal: not a git repository (or any of the parent directories): .git", E),
    ("CRITICAL:root:database unreachable", E),
    ("FATAL: password authentication failed for user \"app\"", E),
    ("/app/x.py:3: DeprecationWarning: datetime.utcnow() is deprecated", W),
    ("Warning: no config file found, using defaults", W),
    ("WARN  unused dependency", W),
    # harness notes are classified by stream (below); RepoGenesis markers by text
    (">>>>> DSR_START", META),
    ("DSR_RESULT=success", META),
    ("DSR_MESSAGE=Service failed to start within 15s", META),
    (">>>>> TEST_START", META),
    ("TEST_EXIT_CODE=1", META),
    (">>>>> TEST_END", META),
    # tracebacks without context
    ("Traceback (most recent call last):", TB),
    ('  File "/tmp/repo/app.py", line 3, in <module>', TB),
    ("During handling of the above exception, another exception occurred:", TB),
    ("The above exception was the direct cause of the following exception:", TB),
    # false-positive guards
    ("0 errors", N),
    ("Found 0 errors in 3 files", N),
    ("errors=0", N),
    ("error_handler.py", N),
    ("app/errors.py", N),
    ("ERRORS=0 FAILURES=0", N),
    ("process exited with code 0 after 0.4s", N),
    ("KeyboardInterrupt", N),
    ("    raise HTTPException(status_code=404)", N),
    ("Application startup complete.", N),
    # noise
    ("", NOISE),
    ("   ", NOISE),
    ("\t", NOISE),
]


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[repr(c[0])[:60] for c in CASES])
def test_classify_table(line: str, expected: Level) -> None:
    assert classify(line) == expected, level_names(classify(line))


def test_meta_stream_lines_are_meta_plus_their_text() -> None:
    assert classify("$ python -m pytest tests -v --continue-on-collection-errors", "meta") == META
    assert classify("entry point: start.sh", "meta") == META
    assert classify("process exited with code 1 after 0.4s", "meta") == META | E
    assert classify("process exited with code 0 after 0.4s", "meta") == META
    assert classify("INFO:     Started server process [1]", "err") == N


def sequence(lines: list[tuple[str, str]] | list[str]) -> list[Level]:
    """Classify lines one after the other, each with the previous line's flags as context."""
    out: list[Level] = []
    prev = Level.NONE
    for item in lines:
        text, stream = (item, "err") if isinstance(item, str) else item
        prev = classify(text, stream, prev)
        out.append(prev)
    return out


def test_traceback_context_marks_continuation_and_final_exception() -> None:
    lines = [
        "ERROR:    Exception in ASGI application",
        "Traceback (most recent call last):",
        '  File "/venv/lib/python3.11/site-packages/uvicorn/protocols/http/h11_impl.py", '
        "line 406, in run_asgi",
        "    result = await app(  # type: ignore[func-returns-value]",
        "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "/repo/app.py", line 8, in load_policy',
        '    raise KeyError("ERROR: missing")',
        "KeyError: 'ERROR: missing'",
        "INFO:     Shutting down",
    ]
    assert sequence(lines) == [E, TB, TB, TB, TB, TB, TB, TB | E, N]


def test_chained_traceback() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/repo/policy.py", line 8, in load_policy',
        "    import yaml",
        "ModuleNotFoundError: No module named 'yaml'",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 3, in <module>',
        "    policy = load_policy()",
        "             ^^^^^^^^^^^^^",
        '  File "/repo/policy.py", line 10, in load_policy',
        '    raise RuntimeError("no yaml")',
        "app.errors.PolicyError",
        "Started",
    ]
    assert sequence(lines) == [TB, TB, TB, TB | E, NOISE, TB, NOISE,
                               TB, TB, TB, TB, TB, TB, TB | E, N]


def test_traceback_ends_at_an_unindented_other_line() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 3, in <module>',
        "    from routes import todos_bp",
        "INFO:     Shutting down",  # an all-caps log level is not an exception name
        "    indented again",
        "SystemExit: 3",  # the traceback ended: SystemExit is not an ERROR on its own
    ]
    assert sequence(lines) == [TB, TB, TB, N, N, N]


def test_syntax_error_traceback_and_bare_exception_name() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/repo/main.py", line 3',
        "    def f(:",
        "          ^",
        "SyntaxError: invalid syntax",
        "Traceback (most recent call last):",
        '  File "/repo/main.py", line 9, in <module>',
        "    main()",
        "KeyboardInterrupt",
    ]
    assert sequence(lines) == [TB, TB, TB, TB, TB | E, TB, TB, TB, TB | E]


def test_pytest_short_tb_block() -> None:
    lines = [
        ("_________________________________ test_health __________________________________", "out"),
        ("tests/test_todos.py:12: in test_health", "out"),
        ("    resp = requests.get(f\"{BASE}/health\", timeout=5)", "out"),
        ("E   requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1')", "out"),
        ("", "out"),
        ("The above exception was the direct cause of the following exception:", "out"),
        ("/venv/lib/python3.11/site-packages/urllib3/connectionpool.py:793: in urlopen", "out"),
    ]
    assert sequence(lines) == [PT, PT, N, PT | E, NOISE, TB, PT]


@pytest.mark.parametrize(("line", "ref"), [
    ("tests/test_a.py::test_y PASSED    [ 12%]", ("tests/test_a.py::test_y", "PASSED")),
    ("tests/test_a.py::TestX::test_y[1-2] FAILED                   [ 25%]",
     ("tests/test_a.py::TestX::test_y[1-2]", "FAILED")),
    ("tests/test_a.py::test_y[a b-c d] PASSED                      [ 25%]",
     ("tests/test_a.py::test_y[a b-c d]", "PASSED")),
    ("FAILED tests/test_a.py::test_y - AssertionError: assert 500 == 200",
     ("tests/test_a.py::test_y", "FAILED")),
    ("FAILED tests/test_a.py::test_y[x] - assert [1] == [2]", ("tests/test_a.py::test_y[x]",
                                                              "FAILED")),
    ("ERROR tests/test_a.py::test_y", ("tests/test_a.py::test_y", "ERROR")),
    ("ERROR tests/test_quote_model.py", ("tests/test_quote_model.py", "ERROR")),
    ("ERROR tests/test_quote_model.py - ModuleNotFoundError: No module named 'app'",
     ("tests/test_quote_model.py", "ERROR")),
    ("tests/test_a.py::test_y SKIPPED (no db)   [ 50%]", ("tests/test_a.py::test_y", "SKIPPED")),
    ("tests/test_a.py::test_y XFAIL (bug)       [ 60%]", ("tests/test_a.py::test_y", "XFAIL")),
    ("tests/test_a.py::test_y XPASS             [ 70%]", ("tests/test_a.py::test_y", "XPASS")),
    ("XFAIL tests/test_a.py::test_y - known bug", ("tests/test_a.py::test_y", "XFAIL")),
    ("XPASS tests/test_a.py::test_y unexpectedly passed", ("tests/test_a.py::test_y", "XPASS")),
    ("[gw1] [ 50%] PASSED tests/test_a.py::test_y", ("tests/test_a.py::test_y", "PASSED")),
    ("tests/test_a.py::test_y \x1b[32mPASSED\x1b[0m\x1b[32m   [ 12%]\x1b[0m",
     ("tests/test_a.py::test_y", "PASSED")),
    ("  tests/test_a.py::test_y PASSED", ("tests/test_a.py::test_y", "PASSED")),
    ("tests/test_a.py::test_y", None),
    ("tests/test_a.py::test_y printed output", None),
    ("SKIPPED [1] tests/test_a.py:12: no db", None),
    ("ERROR:    Exception in ASGI application", None),
    ("ERROR: Could not find a version that satisfies the requirement x", None),
    ("PASSED", None),
    ("tests/test_a.py ..F.                                                    [ 40%]", None),
    ("[ERROR] Failed to execute goal", None),
    ("", None),
])
def test_pytest_test_ref(line: str, ref: tuple[str, str] | None) -> None:
    assert pytest_test_ref(line) == ref


def test_level_names_and_choices() -> None:
    assert level_names(Level.PYTEST | Level.ERROR) == ["error", "pytest"]
    assert level_names(Level.NONE) == []
    assert level_names(Level(127)) == ["error", "warning", "traceback", "pip", "pytest", "meta",
                                       "noise"]
    assert LEVEL_CHOICES == {"errors": E, "warnings": W, "tracebacks": TB, "pip": PIP,
                             "pytest": PT, "meta": META}


def test_classify_returns_level_members() -> None:
    level = classify("FAILED tests/test_a.py::test_y - boom")
    assert isinstance(level, Level)
    assert level is classify("FAILED tests/test_a.py::test_z - bang")  # shared, cached values


# --- prefilter -------------------------------------------------------------------------------

def raw(text: str, stream: str = "out") -> bytes:
    return format_log_line(LogLine("2026-11-21T06:20:05.019334+00:00", stream, text)).encode()


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[repr(c[0])[:60] for c in CASES])
def test_prefilter_finds_every_table_line(line: str, expected: Level) -> None:
    for flag, pattern in PREFILTER.items():
        if expected & flag:
            assert pattern.search(line.encode()), flag
            assert pattern.search(raw(line)), flag


def test_prefilter_covers_the_traceback_starts_and_meta_stream() -> None:
    assert PREFILTER[TB].search(b"Traceback (most recent call last):")
    assert PREFILTER[TB].search(b'  File "/repo/app.py", line 3, in <module>')
    assert PREFILTER[META].search(raw("$ bash start.sh", "meta"))
    assert not PREFILTER[META].search(raw("$ bash start.sh", "out"))
    assert set(PREFILTER) == {E, W, TB, PIP, PT, META}


def test_prefilter_rejects_plain_lines() -> None:
    plain = raw("INFO:     Application startup complete.")
    for flag in (E, TB, PIP, PT, META, W):
        assert not PREFILTER[flag].search(plain), flag


FRAGMENTS = [
    # words and separators that the rules look at, in realistic pieces
    "", " ", "  ", "    ", "\t", ": ", " - ", "=", "===", "====", "_", "___", "!", "!!!", "[", "]",
    "::", ".py", "tests/test_a.py", "::test_x", "[1-2]", " [ 50%]", "[100%]", "%]", " ..F.",
    " ...", "PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS", "ERRORS", "FAILURES",
    "E   ", "E       assert", "error", "Error", "Error:", "error:", "errors", "ValueError",
    "ValueError:", "pkg.mod.CustomError:", "Exception", "Exception:", "Exception in thread ",
    "Caused by: ", "SystemExit", "WARNING", "WARN", "Warning:", "warning:", "UserWarning:",
    "[WARNING]", "[ERROR]", "[INFO]", "[error]", "[crit]", "[warn]", "level=error",
    "level=warning", '"level": "error"', "CRITICAL", "FATAL", "fatal:", "panic:", "FAILURE",
    "Killed", "OOMKilled", "Segmentation fault", "core dumped", "command not found",
    "No such file or directory", "Address already in use", "Permission denied", "npm ERR!",
    "npm error", "npm warn", "npm WARN", "exited with code", "exit code", "exit status",
    " 0", " 1", " 137", "× ", "╰─> ", "━━━━", "████", " 1.2/3.4 MB", "Collecting ",
    "Downloading ", "Using cached ", "Requirement already satisfied: ",
    "Successfully installed ", "ERROR: Could not find a version", "ERROR: No matching "
    "distribution", "WARNING: Retrying ", "Processing ", "./pkg", "x.whl", "requires x, ",
    "but you have y which is incompatible", "Traceback (most recent call last):", "File ",
    '"app.py", line 3', "During handling of the above exception", "The above exception was the"
    " direct cause", ">>>>> DSR_START", "DSR_RESULT=", "DSR_MESSAGE=", "TEST_EXIT_CODE=",
    "platform linux -- Python 3.11", "rootdir:", "plugins:", "collecting ", "collected 3 items",
    " / 1 error", "3 failed", "2 passed", "1 error", " in 1.2s", "no tests ran", "Interrupted",
    ": in test_x", ":12: in test_x", ":12", "AssertionError", "- generated xml file:",
    'INFO:     127.0.0.1:5555 - "GET /x HTTP/1.1" ', '"POST /y HTTP/1.1" ', "200", "500", "503",
    " OK", "test_error_case", "0 errors", "errors=0", "error_handler.py",
    "\x1b[31m", "\x1b[0m", "\x1b[1m", "\x1b[32m", "\x1b[35m\x1b[1m", "\r", "é", "\\",
]


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8),
       st.sampled_from(["out", "err", "meta"]))
def test_prefilter_is_a_superset_of_classify(parts: list[str], stream: str) -> None:
    line = "".join(parts)
    flags = classify(line, stream)
    for flag, pattern in PREFILTER.items():
        if flags & flag:
            assert pattern.search(raw(line, stream)), (flag, line)
            if stream != "meta" or flag != META:
                assert pattern.search(line.encode()), (flag, line)


def assert_prefiltered(line: str, stream: str) -> None:
    flags = classify(line, stream)
    for flag, pattern in PREFILTER.items():
        if flags & flag:
            assert pattern.search(raw(line, stream)), (flag, line)


STARTS = ["", "  ", "    ", "E   ", "E       ", "=", "===", "====", "_", "___", "!!!", "[",
          "tests/test_a.py", "tests/test_a.py::test_x", "FAILED ", "ERROR ", "XFAIL ", "PASSED",
          "Processing ", "Collecting ", "× ", "File ", "Traceback", "ValueError", "pkg.Error",
          "Exception", "error", "Error", "fatal", "panic", "npm ", "[ERROR] ", ">>>>> ",
          "DSR_RESULT=", "platform linux -- Python", "rootdir:", "collected 2 items",
          "test_error_case", "INFO:     ", "127.0.0.1 - - [21/Nov/2026 06:19:45] "]
MIDDLES = ["", " ", ": ", ":", "::test_y", " ..F.", " .E", " ...", " x ", " 3 failed, 1 passed",
           " in 0.5s", " no tests ran", " 1 error", ":12: in test_x", ":3: AssertionError",
           '"app.py", line 3, in f', " (most recent call last):", '"GET /x HTTP/1.1"',
           '"POST /y HTTP/1.1" ', " 500", " 200", "./pkg", "x.whl", " PASSED", " FAILED",
           " SKIPPED", " ERR!", " error", " exited with code 2", " Killed", " WARN", "warning:"]
ENDS = ["", " ", "===", "=", "___", "!!!", " [ 50%]", "[100%]", " - boom", " OK", "\r"]
ANSI = ["", "", "", "\x1b[0m", "\x1b[31m", "\x1b[1m\x1b[32m", "\x1b[35m\x1b[1m"]


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.sampled_from(ANSI), st.sampled_from(STARTS), st.sampled_from(ANSI),
       st.lists(st.tuples(st.sampled_from(MIDDLES), st.sampled_from(ANSI)), max_size=3),
       st.sampled_from(ENDS), st.sampled_from(["out", "err", "meta"]))
def test_prefilter_is_a_superset_for_line_shaped_text(
        a0: str, start: str, a1: str, middle: list[tuple[str, str]], end: str,
        stream: str) -> None:
    line = a0 + start + a1 + "".join(m + a for m, a in middle) + end
    assert_prefiltered(line, stream)


def _token_boundaries(line: str) -> list[int]:
    return [i for i in range(len(line) + 1)
            if i in (0, len(line)) or line[i - 1].isalnum() != line[i].isalnum()
            or line[i - 1].isspace() != line[i].isspace()]


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.data())
def test_prefilter_is_a_superset_for_colored_real_lines(data: st.DataObject) -> None:
    """Real lines with escape sequences put between tokens, as colouring tools do."""
    line = data.draw(st.sampled_from([c[0] for c in CASES]))
    spots = _token_boundaries(line)
    picks = sorted(data.draw(st.lists(st.sampled_from(spots), max_size=4)), reverse=True)
    for i in picks:
        line = line[:i] + data.draw(st.sampled_from(ANSI[3:])) + line[i:]
    assert_prefiltered(line, data.draw(st.sampled_from(["out", "meta"])))


@pytest.mark.parametrize("line", [
    ":" * 5000, ":" * 5000 + " PASSED", "a::" * 2000 + " PASSED", "= " + " in 1s" * 2000 + " x",
    "A" * 5000 + "arning:", "requires " + ", but you have " * 1000, "FAILED " + "a[" * 3000,
    "Aa." * 2000 + "Error", "x.py:1: in " * 1000, "\x1b]" * 3000, "E   " + "x" * 10_000,
])
def test_long_odd_lines_stay_fast(line: str) -> None:
    """No regex backtracks quadratically: a 5,000+ character line takes milliseconds."""
    start = time.process_time()  # CPU time: a machine loaded by other programs does not count
    for prev in (Level.NONE, Level.TRACEBACK):
        classify(line, "out", prev)
    pytest_test_ref(line)
    assert time.process_time() - start < 0.1


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=80), st.sampled_from(list(Level)))
def test_classify_never_raises(text: str, prev: Level) -> None:
    level = classify(text, "out", prev)
    assert 0 <= int(level) < 128
    pytest_test_ref(text)


def test_maven_transfers_are_package_manager_noise_and_its_errors_stay_errors() -> None:
    """A Java install log is mostly Maven fetching artifacts: dimmed like pip's downloads (and
    found by the prefilter), while its build failures and compile errors stay errors."""
    for line in ("[INFO] Downloading from gi-source: file:///usr/share/maven-repo/a/b/1/b-1.pom",
                 "[INFO] Downloaded from gi-cache: file:///gi-cache/a/b/1/b-1.jar (29 kB at 1.4 "
                 "MB/s)"):
        assert classify(line) == Level.PIP | Level.NOISE
        assert PREFILTER[Level.PIP].search(f"2026-11-29T18:44:29+00:00\tout\t{line}".encode())
    assert classify("[ERROR] /repo/src/main/java/app/A.java:[85,29] cannot find symbol") & \
        Level.ERROR
    assert classify("[INFO] BUILD FAILURE") & Level.ERROR
