"""Start-up: what `inspector` imports before its first screen (issue 16).

Checked in a fresh interpreter: the modules the CLI and the app load at import time must
not include the heavy ones only later screens need (bench/bench_startup.py times the rest).
"""

from __future__ import annotations

import json
import subprocess
import sys

NOT_AT_START = ("watchdog", "docker", "httpx", "pygments", "markdown_it",
                "inspector.services.figures.health", "inspector.services.tamper",
                "inspector.services.triage",
                "inspector.services.sandbox", "inspector.services.deploy", "ray",
                "inspector.services.cluster",
                "inspector.model.runs.discover", "inspector.ui.screens.help",
                "inspector.ui.screens.sample")


def _loaded_by(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_cli_and_app_modules_leave_later_screens_unimported() -> None:
    loaded = _loaded_by("import inspector.cli, inspector.ui.app\n"
                        "inspector.cli.build_parser()")
    assert "inspector.ui.screens.main" in loaded and "textual.app" in loaded
    early = sorted(m for m in loaded
                   if any(m == n or m.startswith(n + ".") for n in NOT_AT_START))
    assert early == []


def test_model_package_names_load_on_first_use() -> None:
    loaded = _loaded_by("import inspector.model.untrusted.safe_text")
    assert "inspector.model.runs.discover" not in loaded
    loaded = _loaded_by("from inspector.model import discover_runs, Phase, TestCase, Run")
    assert "inspector.model.runs.discover" in loaded


def test_every_model_package_name_resolves() -> None:
    import inspector.model as model

    for name in model.__all__:
        assert getattr(model, name).__name__ == name
