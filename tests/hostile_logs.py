"""Shared by the hostile-log tests (local backend, Docker sandbox, app): the fixtures of
``tests/fixtures/hostile/logs`` and what a user must find in a flooded log."""

from __future__ import annotations

import re
from pathlib import Path

from inspector.model import Task
from inspector.model.benchmark.tasks import load_task
from inspector.model.logs.phase_logs import parse_log_line
from inspector.services.logs.line_buffer import MAX_LINE_BYTES
from inspector.services.logs.phase_log import CAP_NOTE, DEFAULT_LOG_CAP, read_output

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile" / "logs"
DROPPED = re.compile(r"log cap: ([\d,]+) lines \(([\d.]+) MB\) dropped here")


def noisy_task() -> Task:
    task = load_task(HOSTILE / "tasks" / "repo" / "noisy-service", [])
    assert task is not None and task.port == 18593
    return task


def records(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return [(ln.stream, ln.text) for ln in map(parse_log_line, fh)]


def check_flood_log(path: Path, cap: int = DEFAULT_LOG_CAP, flooded_mb: float = 300) -> None:
    """What a user opening the flooded start.log must find: bounded, head, tail, the count."""
    assert path.stat().st_size <= cap
    recs = records(path)
    texts = [t for _s, t in recs]
    assert "FLOOD-START" in texts[:5]
    assert texts[-1] == "serving on 127.0.0.1:18593"
    end = next(t for t in reversed(texts) if t.startswith("FLOOD-END"))
    flooded = int(end.split()[1])
    notes = [t for s, t in recs if s == "meta" and t.startswith(CAP_NOTE)]
    assert len(notes) == 2, notes
    m = DROPPED.search(notes[1])
    assert m, notes[1]
    kept = sum(1 for t in texts if t.startswith("flood line"))
    assert int(m.group(1).replace(",", "")) == flooded - kept
    assert float(m.group(2)) > flooded_mb - 2 * cap / 2**20 - 1
    out = read_output(path)
    assert out[0] == "FLOOD-START" and out[-1] == "serving on 127.0.0.1:18593"


def check_blob_log(path: Path, blob_mb: int = 100) -> None:
    recs = records(path)
    [blob] = [t for _s, t in recs if t.startswith("yyyy")]
    assert blob == "y" * MAX_LINE_BYTES + f" … [{blob_mb * 2**20 - MAX_LINE_BYTES} bytes cut]"
    assert ("out", "AFTER-BLOB") in recs
    assert path.stat().st_size < 100_000
