"""The run writer is the one write path of a delivered sample (local or Ray executor)."""

from __future__ import annotations

from pathlib import Path

from inspector.model.runs.runformat import INFRA_FILE
from inspector.services.evaluate.run_writer import (
    clear_infra_failure,
    sample_dir,
    write_infra_failure,
    write_sample_files,
)


def test_a_nodes_files_land_in_the_sample_folder_whole(tmp_path: Path) -> None:
    files = {"logs/install.log": b"line 1\n", "reports/junit.xml": b"<testsuite/>"}
    write_sample_files(tmp_path, "task-a", 2, files)
    folder = sample_dir(tmp_path, "task-a", 2)
    assert {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*") if p.is_file()} == files


def test_an_infrastructure_failure_is_marked_then_cleared(tmp_path: Path) -> None:
    write_infra_failure(tmp_path, "task-a", 0, "worker lost on node-2")
    marker = sample_dir(tmp_path, "task-a", 0) / INFRA_FILE
    assert marker.read_text(encoding="utf-8") == "worker lost on node-2\n"
    clear_infra_failure(tmp_path, "task-a", 0)
    assert not marker.exists()
    clear_infra_failure(tmp_path, "task-a", 1)  # nothing to clear: no error
