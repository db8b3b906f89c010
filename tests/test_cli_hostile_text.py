"""The CLI never prints untrusted text raw to a terminal; piped output stays exact.

The real ``inspector`` command runs with its stdout (and stderr) on a pseudo-terminal, over the
hostile run of ``tests/hostile_text.py`` (markup, OSC 52, OSC 0, CSI, BEL, a C1 CSI, a
zero-width joiner and bidi controls in run ids, messages, file names, logs and labels). What the
terminal receives must hold none of them, and shows the placeholders instead; piped ``--json``
(and piped plain output) is byte-exact.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_text import BAD_FOLDER, GREET, RUN_ID, SHOWN_RUN_ID, hostile_root

from inspector.model import discover_runs
from inspector.services.figures.failures import list_failures

#: Bytes that must never reach the terminal: ESC (apart from ``evaluate``'s live panel, see
#: :data:`OWN_PANEL`, our CLI prints no escape sequence of its own, so any ESC came from the
#: data), BEL, the C1 CSI, ZWJ, RLO and LRI in UTF-8.
RAW = (b"\x1b", b"\x07", b"\xc2\x9b", "\u200d".encode(), "\u202e".encode(),
       "\u2066".encode())
TIMEOUT = 180.0
#: What ``evaluate``'s live progress panel (Rich) writes itself on a terminal: colours, hiding
#: and showing the cursor, erasing and moving up lines to redraw. Nothing else is ours.
OWN_PANEL = re.compile(rb"\x1b\[(?:[0-9;]*m|\?25[hl]|2K|[0-9]*A|[0-9]*G)")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, GENESIS_INSPECTOR_CONFIG=str(tmp_path / "config.toml"),
               GENESIS_INSPECTOR_CACHE=str(tmp_path / "cache"), COLUMNS="400")
    env.update(extra)
    return env


def on_terminal(*args: str, env: dict[str, str], stderr_too: bool = True
                ) -> tuple[int, bytes, bytes]:
    """Run ``inspector ARGS`` with stdout (and stderr unless ``stderr_too`` is False) on a
    pseudo-terminal; (exit code, what the terminal received, piped stderr)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "inspector", *args], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave if stderr_too else subprocess.PIPE,
                            env=env, close_fds=True)
    os.close(slave)
    received = bytearray()
    deadline = time.monotonic() + TIMEOUT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                break
            if not chunk:
                break
            received += chunk
        else:
            proc.kill()
            raise AssertionError(f"inspector {' '.join(args)} did not finish in {TIMEOUT}s")
        err = proc.stderr.read() if proc.stderr else b""
        return proc.wait(timeout=30), bytes(received), err
    finally:
        os.close(master)
        if proc.stderr:
            proc.stderr.close()


def piped(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          env=env, timeout=TIMEOUT)


def assert_clean(received: bytes, *shown: str, own_panel: bool = False) -> str:
    if own_panel:
        received = OWN_PANEL.sub(b"", received)
    leaked = [r for r in RAW if r in received]
    assert not leaked, f"{leaked!r} reached the terminal:\n{received[:3000]!r}"
    text = received.decode("utf-8")
    for s in shown:
        assert s in text, f"{s!r} not shown:\n{text[:3000]}"
    return text


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return hostile_root(tmp_path)




def test_summary_on_a_terminal_shows_ids_and_problems_as_placeholders(root: Path,
                                                                        tmp_path: Path) -> None:
    code, received, _ = on_terminal("summary", str(root), env=_env(tmp_path))
    assert code == 3  # the two broken run.json are unreadable runs (docs/unreadable.md)
    text = assert_clean(received, SHOWN_RUN_ID, "agent[/x]<ESC>]52;c;cHduZWQ=<BEL>",
                        "model[/x][bold<ESC>]52")
    # problem lines name the folders: b[/x] (markup) and one whose name holds controls
    assert "b[/x]/run.json" in text and "bad<ESC>]0;T<BEL><U+200D>/run.json" in text
    # the table is laid out as shown: the header is as wide as the placeholder-holding id
    lines = text.replace("\r\n", "\n").splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("run "))
    row = next(line for line in lines[header + 2:] if line.startswith(SHOWN_RUN_ID))
    assert lines[header].index("agent") == row.index("agent[/x]")


def test_failures_on_a_terminal_sanitise_messages(root: Path, tmp_path: Path) -> None:
    code, received, _ = on_terminal("failures", str(root), env=_env(tmp_path))
    assert code == 3  # the two broken run.json are unreadable runs
    assert_clean(received, "AssertionError: EVIL[/x][bold]B[link=https://example.invalid]L"
                           "[@click=app.quit]Q", SHOWN_RUN_ID, GREET)


def test_json_piped_is_exact_and_on_a_terminal_is_the_same_data_in_ascii(
        root: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    found = discover_runs(root)
    failures = json.dumps([r.to_json() for r in list_failures(found.runs)], indent=2)
    for command in ("summary", "failures"):
        proc = piped(command, "--json", str(root), env=env)
        assert proc.returncode == 3  # the two broken run.json are unreadable runs
        data = json.loads(proc.stdout)
        # byte-exact, as before: json.dumps's own text, nothing rewritten
        assert proc.stdout == (json.dumps(data, indent=2) + "\n").encode("utf-8")
        if command == "failures":
            assert proc.stdout == (failures + "\n").encode("utf-8")
        code, received, err = on_terminal(command, "--json", str(root), env=env,
                                          stderr_too=False)
        assert code == 3
        assert_clean(received)
        assert received.isascii()
        assert json.loads(received) == data  # the same document, escaped by JSON
        assert b"b[/x]" in err  # problems still go to stderr
    runs = [r for r in json.loads(piped("summary", "--json", str(root), env=env).stdout)
            if not r["unreadable"]]
    assert runs[0]["run_id"] == RUN_ID and "\u200d" in RUN_ID
    assert "\x1b]52;" in runs[0]["agent"]


def test_plain_output_piped_stays_exact(root: Path, tmp_path: Path) -> None:
    """Piped output is data for other programs: nothing is rewritten (a pager or editor shows
    control characters safely itself)."""
    proc = piped("failures", str(root), env=_env(tmp_path))
    assert proc.returncode == 3
    assert RUN_ID.encode("utf-8") in proc.stdout
    assert BAD_FOLDER.encode("utf-8") in proc.stderr


def test_errors_on_a_terminal_are_sanitised(tmp_path: Path) -> None:
    missing = tmp_path / "gone\x1b]0;TITLE\x07\u200d"
    env = _env(tmp_path)
    for command in ("summary", "app", "replay"):
        code, received, _ = on_terminal(command, str(missing), env=env)
        assert code != 0
        assert_clean(received, "gone<ESC>]0;TITLE<BEL><U+200D>")


def test_labels_commands_on_a_terminal(root: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    for args in (("agreement",), ("check",), ("suggest",), ("export", "--format", "md"),
                 ("export", "--format", "csv"), ("export", "--format", "latex")):
        code, received, _ = on_terminal("labels", *args, str(root), env=env)
        assert code in (0, 1), args
        assert_clean(received)
    code, received, _ = on_terminal("labels", "export", str(root), env=env)
    assert_clean(received, "Cross-file [/x]<ESC>]0;T<BEL><U+200D>")
    for args in (("agreement", "--json"), ("suggest", "--json"),
                 ("export", "--format", "json")):
        proc = piped("labels", *args, str(root), env=env)
        code, received, _ = on_terminal("labels", *args, str(root), env=env, stderr_too=False)
        assert_clean(received)
        assert json.loads(received) == json.loads(proc.stdout), args
    proc = piped("labels", "export", "--format", "json", str(root), env=env)
    # piped, as written before: JSON escapes the C0 controls, the ZWJ stays itself
    assert "Cross-file [/x]\\u001b]0;T\\u0007\u200d" in proc.stdout.decode("utf-8")


@pytest.mark.slow
def test_rerun_request_and_evaluate_stream_sanitised_output(root: Path, tmp_path: Path,
                                                            venv_cache: Path) -> None:
    """A real local deployment of the hostile service: pytest's streamed output (the test
    prints the service's answer), the response body, and evaluate's progress lines."""
    env = _env(tmp_path, GENESIS_INSPECTOR_CACHE=str(venv_cache.parent))
    runs = str(root)  # the repo must lie inside the folder given (or the run's predictions)
    code, received, _ = on_terminal("rerun", runs, "echo-svc", GREET, "--backend", "local",
                                    "--allow-local-exec", env=env)
    assert code == 1  # the test fails: the service answers 500 with its payload
    text = assert_clean(received, "<ESC>]52;c;cHduZWQ=<BEL><ESC>]0;TITLE<BEL><ESC>[2J"
                                  "<ESC>[31mRED<BEL>\\x9b1mZ<U+200D>W<U+202E>R<U+2066>I",
                        "[@click=app.quit]Q")
    assert "test_greet" in text and "recorded:" in text
    code, received, _ = on_terminal("request", runs, "echo-svc", "GET", "/greet", "--backend",
                                    "local", "--allow-local-exec", env=env)
    assert code == 1  # 500
    assert_clean(received, "500", "EVIL[/x][bold]B[link=https://example.invalid]L"
                                  "[@click=app.quit]Q<ESC>]52;c;cHduZWQ=<BEL>")
    code, received, _ = on_terminal(
        "evaluate", "--tasks", str(root / "tasks"), "--predictions",
        str(root / "predictions" / "repo_readme_0101_hostile_evil_Python"),
        "--out", str(tmp_path / "again"), "--backend", "local", "--allow-local-exec",
        "--run-id", "again[bold]\u200d\u202e\x9b", "--agent", "a\x1b]0;T\x07", env=env)
    assert code == 0
    assert b"\x1b[?25l" in received  # the live panel ran (its own sequences are allowed)
    assert_clean(received, "again[bold]<U+200D><U+202E>\\x9b/echo-svc/0: running tests",
                 "again[bold]<U+200D><U+202E>\\x9b: 1 samples", own_panel=True)
