"""The model and services layers never import Textual or Rich (DEVELOPERS.md layering)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_model_and_services_do_not_import_textual_or_rich() -> None:
    code = textwrap.dedent("""
        import importlib, pkgutil, sys
        import inspector.model, inspector.services
        for pkg in (inspector.model, inspector.services):
            for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
                importlib.import_module(mod.name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
        print(",".join(bad))
        sys.exit(1 if bad else 0)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, f"model/services pulled in: {proc.stdout} {proc.stderr}"


def test_ui_does_import_textual() -> None:
    """Sanity check that the probe above can see Textual at all."""
    proc = subprocess.run(
        [sys.executable, "-c", "import sys, inspector.ui.app; "
         "sys.exit(0 if 'textual' in sys.modules else 1)"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
