"""The README's two set-up commands and CI's entry point stay in step, and nothing the tests
need hides behind a package the extras do not declare."""

from __future__ import annotations

import re
from pathlib import Path

from jsonschema import FormatChecker

ROOT = Path(__file__).resolve().parents[1]


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```bash\n(.+?)\n```", readme, flags=re.S)
    tests = [c.strip() for c in commands if re.search(r'\.\[test[],]', c)]
    assert tests, "README.md gives no test command"
    return tests[0]


def test_ci_runs_the_readme_test_command_verbatim_in_a_new_virtualenv() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_test_command() in ci.splitlines()
    assert "python3 -m venv" in ci and "activate" in ci
    # the venv is created before the command runs
    assert ci.index("python3 -m venv") < ci.index(_readme_test_command())


def test_the_test_command_lints_type_checks_and_tests_through_check_sh() -> None:
    """CI and the developer loop share scripts/check.sh: ruff, then mypy, then pytest, stopping
    at the first failure, with the script's arguments passed on to pytest."""
    assert _readme_test_command().endswith("bash scripts/check.sh")
    script = (ROOT / "scripts" / "check.sh").read_text(encoding="utf-8")
    assert "set -euo pipefail" in script
    steps = [ln for ln in script.splitlines() if " -m " in ln and not ln.startswith("#")]
    assert [ln.split(" -m ")[1].split()[0] for ln in steps] == ["ruff", "mypy", "pytest"]
    assert steps[0].endswith("check inspector tests bench scripts")
    assert steps[2].endswith('pytest "$@"')
    assert "scripts/check.sh" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_date_time_format_is_really_checked() -> None:
    """jsonschema checks ``date-time`` only with rfc3339-validator (the format-nongpl extra)."""
    checker = FormatChecker()
    assert "date-time" in checker.checkers, "jsonschema[format-nongpl] is not installed"
    assert not checker.conforms("2026-13-45 nonsense", "date-time")
    assert checker.conforms("2026-11-25T17:20:49Z", "date-time")
