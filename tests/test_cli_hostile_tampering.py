"""Tampering findings are untrusted text in the CLI too (issue 27, part 4): a crafted
``result.json`` whose findings' kind, path and detail hold OSC 0/OSC 52/CSI escapes, BEL, bidi
controls and a line break. ``failures`` and ``summary`` show each finding on one line with all
of it visible, on a terminal and piped alike (a finding line is for reading; ``--json`` is the
data, exact)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_text import SAMPLE_0, hostile_root
from test_cli_hostile_text import RAW, _env, on_terminal

KIND = "pytest_plugin\x1b]0;OWNED\x07\x1b]52;c;cHduZWQ=\x07\n  forged/sample/0: all clear"
FINDINGS = [{"kind": KIND, "path": "conf\x1b[2Jtest.py",
             "detail": "hook \u202eevil\u200d\x07\nforged line", "deliberate": True}]
SHOWN_KIND = ("pytest plugin<ESC>]0;OWNED<BEL><ESC>]52;c;cHduZWQ=<BEL><LF>  "
              "forged/sample/0: all clear")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = hostile_root(tmp_path)
    result = next(root.glob("runs/*/samples/echo-svc/0/result.json"))
    doc = json.loads(result.read_text("utf-8"))
    doc["tampering"] = FINDINGS
    result.write_text(json.dumps(doc), encoding="utf-8")
    return root


def _finding_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if "OWNED" in ln or "forged" in ln]


def test_failures_shows_a_crafted_finding_on_one_visible_line(root: Path,
                                                             tmp_path: Path) -> None:
    code, received, _ = on_terminal("failures", str(root), env=_env(tmp_path))
    assert code == 3, received[-2000:]  # the fixture's two broken run.json: unreadable runs
    leaked = [r for r in RAW if r in received]
    assert not leaked, f"raw {leaked!r} reached the terminal"
    shown = _finding_lines(received.decode("utf-8", "replace").replace("\r\n", "\n"))
    # the table row (message cut at 100 characters) and the finding under its sample
    assert len(shown) == 2 and "tampering_attempt" in shown[0], shown
    assert shown[1] == (f"    deliberate {SHOWN_KIND}: hook <U+202E>evil<U+200D><BEL><LF>forged "
                        "line"), shown
    piped = subprocess.run([sys.executable, "-m", "inspector", "failures", str(root)],
                           capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert piped.returncode == 3, piped.stderr
    assert "\x1b" not in piped.stdout and "\x07" not in piped.stdout
    piped_lines = _finding_lines(piped.stdout)  # the run id is data there: piped as it is
    assert len(piped_lines) == 2 and piped_lines[1] == shown[1], piped_lines
    # --json stays the exact data
    doc = json.loads(subprocess.run(
        [sys.executable, "-m", "inspector", "failures", str(root), "--json"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120).stdout)
    row = next(r for r in doc if r["outcome"] == "tampering_attempt")
    assert row["tampering"][0]["kind"] == KIND and row["sample_id"] == SAMPLE_0


def test_summary_names_a_crafted_kind_on_its_sample_line(root: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "inspector", "summary", str(root)],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert done.returncode == 3, done.stderr  # the fixture's broken run.json: unreadable
    block = done.stdout[done.stdout.index("Tampering attempts:"):].splitlines()
    assert block[1].endswith("deliberate (pytest_plugin<ESC>]0;OWNED<BEL><ESC>]52;c;"
                             "cHduZWQ=<BEL><LF>  forged/sample/0: all clear)"), block[:3]
    assert not block[2].startswith("  forged")
