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


def test_the_test_command_lints_type_checks_then_runs_pytest() -> None:
    """CI's command runs scripts/lint.sh (ruff, then mypy) and then the whole pytest suite,
    stopping at the first failure; the developer loop (scripts/check.sh) runs the same steps,
    with its arguments passed on to pytest: the fast tier in parallel, or with ``--all`` every
    test as CI does."""
    assert _readme_test_command().endswith("bash scripts/lint.sh && python -m pytest")
    lint = (ROOT / "scripts" / "lint.sh").read_text(encoding="utf-8")
    assert "set -euo pipefail" in lint
    steps = [ln for ln in lint.splitlines() if " -m " in ln and not ln.startswith("#")]
    assert [ln.split(" -m ")[1].split()[0] for ln in steps] == ["ruff", "mypy"]
    assert steps[0].endswith("check inspector tests bench scripts")
    check = (ROOT / "scripts" / "check.sh").read_text(encoding="utf-8")
    assert "set -euo pipefail" in check
    body = [ln for ln in check.splitlines() if ln.strip() and not ln.startswith("#")]
    lint_step = body.index('PYTHON="$python" bash scripts/lint.sh')
    runs = [ln.strip() for ln in body[lint_step + 1:] if " -m pytest " in ln]
    assert runs[0].endswith('-m pytest "$@"'), runs  # --all: the whole suite
    assert " -n " in runs[1] and runs[1].endswith(
        '-m "not docker and not browser and not cluster and not slow" "$@"'), runs
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "bash scripts/check.sh $(TESTS)" in make and "bash scripts/check.sh --all" in make


def test_date_time_format_is_really_checked() -> None:
    """jsonschema checks ``date-time`` only with rfc3339-validator (the format-nongpl extra)."""
    checker = FormatChecker()
    assert "date-time" in checker.checkers, "jsonschema[format-nongpl] is not installed"
    assert not checker.conforms("2026-13-45 nonsense", "date-time")
    assert checker.conforms("2026-11-25T17:20:49Z", "date-time")
