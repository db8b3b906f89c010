"""Export a log, or the lines a filter keeps, to a file — byte for byte, so it replays."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.storage.atomic import atomic_writer


class ExportCancelled(Exception):
    """The export was cancelled; nothing was written."""


def export_lines(log: DeploymentLog, lines: Sequence[int] | None, path: Path,
                 cancelled: Callable[[], bool] | None = None) -> int | None:
    """Write the raw lines (all when ``lines`` is None) to ``path`` atomically.

    Lines keep their timestamps and streams, so the export opens and replays like the
    original. Returns the number of lines written, or None if cancelled (no file is left).
    """
    count = 0
    try:
        with atomic_writer(Path(path)) as fh:
            if lines is None and log.interleaved:
                lines = range(len(log))
            if lines is None:
                for _first, block, _seg in log.iter_blocks():
                    if cancelled is not None and cancelled():
                        raise ExportCancelled
                    fh.write(block if block.endswith(b"\n") else block + b"\n")
                    count += block.count(b"\n") + (not block.endswith(b"\n"))
                return count
            for n, line in enumerate(lines):
                if n % 4096 == 0 and cancelled is not None and cancelled():
                    raise ExportCancelled
                seg, local = log.locate(line)
                fh.write(seg.source.raw(local, 1 << 40) + b"\n")
                count += 1
    except ExportCancelled:
        return None
    return count
