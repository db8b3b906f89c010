"""Runs holding text no encoding can store, for the index tests (issue 27, part 5).

``lone/`` is a copy of a bundled run whose first sample's task name holds a lone surrogate
(``"\\ud800"``: valid JSON, but not UTF-8); ``x<0xff>/`` is another copy in a folder whose name
is not valid UTF-8 (Python sees it as a surrogate too). Neither may stop the index: the first
loads with U+FFFD in place of the surrogate, the second is reported by name and skipped.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "sample_runs" / "runs" / \
    "repo_readme_1125_dash_m2-mini_Java"
TASK = "javalin-task-manager"
SHOWN_TASK = "javalin-\ufffdtask-manager"  # what the surrogate becomes
BAD_NAME = os.fsdecode(b"x\xff")


def build(root: Path) -> Path:
    """Write ``root/lone`` and ``root/x<0xff>`` (returned: ``root``)."""
    lone = root / "lone" / SOURCE.name
    shutil.copytree(SOURCE, lone)
    result = lone / "samples" / TASK / "0" / "result.json"
    text = result.read_text(encoding="utf-8")
    assert f'"task": "{TASK}"' in text
    result.write_text(text.replace(f'"task": "{TASK}"', '"task": "javalin-\\ud800task-manager"',
                                   1), encoding="utf-8")
    shutil.copytree(SOURCE, root / BAD_NAME / SOURCE.name)
    return root
