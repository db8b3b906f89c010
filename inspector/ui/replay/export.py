"""Where the replay's export goes unless told otherwise."""

from __future__ import annotations

import re
from pathlib import Path

from inspector.services.logs.deployment_log import DeploymentLog


def default_export_name(log: DeploymentLog) -> str:
    """``<task>-<sample>-filtered.log`` (or the log's name) in the working directory."""
    s = log.sample
    stem = f"{s.task}-{s.sample}" if s is not None else Path(log.title).stem or "log"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", stem)
    return str(Path.cwd() / f"{stem}-filtered.log")
