"""A catalog worker: ``python -m inspector.services.catalog.worker``.

Reads one frame ``(tasks, root, locations)`` from stdin and writes one frame
``(rows, issues)`` per location to stdout, in order (see :mod:`.catalog_load`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

from inspector.model.benchmark.task import Task
from inspector.model.runs.discover import RunLocation
from inspector.services.catalog.load import load_one, read_frame, write_frame


def main() -> int:
    """Serve one batch of locations; 0 when every answer was written."""
    frames = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the frames
    job = cast(tuple[dict[str, Task], Path, list[RunLocation]], read_frame(sys.stdin.buffer))
    tasks, root, locations = job
    for loc in locations:
        write_frame(frames, load_one(loc, tasks, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
