"""The local backend's virtualenv cache is keyed by the package index too: switching the index
between two evaluations builds a new environment from the new index, and an index's
credentials enter the key only as a hash (never written anywhere)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from inspector.services.host.venvs import VenvCache, VenvResult
from inspector.services.logs.phase_log import PhaseLog
from tests.tiny_index import MODULE, PROJECT, VERSION, build_index, serve

pytestmark = pytest.mark.slow
REQS = f"{PROJECT}=={VERSION}\n"


def _where(result: VenvResult) -> str:
    return subprocess.run([str(result.path / "bin" / "python"), "-c",
                           f"import {MODULE}; print({MODULE}.WHERE)"], capture_output=True,
                          text=True, timeout=60, check=True).stdout.strip()


def test_switching_the_index_builds_a_new_venv_from_the_new_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = VenvCache(tmp_path / "venvs", installer="pip")
    logs: list[Path] = []

    def get(index: str) -> VenvResult:
        monkeypatch.setenv("PIP_INDEX_URL", index)
        monkeypatch.setenv("PIP_TRUSTED_HOST", "127.0.0.1")
        logs.append(tmp_path / f"install-{len(logs)}.log")
        result = cache.get(REQS, [f"{PROJECT}=={VERSION}"], PhaseLog(logs[-1]), 300,
                           lambda: False)
        assert result.ok, logs[-1].read_text()
        return result

    with serve(build_index(tmp_path / "a", "A")) as index_a, \
            serve(build_index(tmp_path / "b", "B")) as index_b:
        first = get(index_a)
        second = get(index_b)
        again = get(index_b)
        secret = index_b.replace("http://", "http://probe:s3cret-token@")
        with_creds = get(secret)
    assert (first.cached, _where(first)) == (False, "A")
    assert (second.cached, _where(second)) == (False, "B"), "index B reused index A's venv"
    assert second.path != first.path
    assert (again.cached, again.path) == (True, second.path)
    # other credentials for the same index: another identity, another environment
    assert not with_creds.cached and with_creds.path not in (first.path, second.path)
    written = "".join(p.read_text() for p in logs)
    assert "s3cret-token" not in written
    assert "s3cret-token" not in "".join(str(p) for p in (tmp_path / "venvs").rglob("*"))
