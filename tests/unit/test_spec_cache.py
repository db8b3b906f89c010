"""The spec-complexity cache: a hit gives the same score as scoring again, an edited README
or README reader is scored again, and a broken cache file costs time, never an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model.readme.spec_complexity import spec_complexity
from inspector.services.analysis import spec_cache
from inspector.services.analysis.spec_cache import SpecCache

TASKS = Path(__file__).resolve().parents[2] / "sample_runs" / "tasks" / "repo"


def _readme(task: str) -> str:
    return (TASKS / task / "README.md").read_text(encoding="utf-8")


def test_a_saved_score_is_served_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "spec.pickle"
    first = SpecCache(path)
    fresh = first.score("WebPan", _readme("WebPan"))
    first.save()
    again = SpecCache(path)
    served = again.score("WebPan", _readme("WebPan"))
    assert again.hits == 1
    assert served == fresh == spec_complexity(_readme("WebPan"), "WebPan")


def test_an_edited_readme_is_scored_again(tmp_path: Path) -> None:
    path = tmp_path / "spec.pickle"
    cache = SpecCache(path)
    cache.score("flask", _readme("flask"))
    cache.save()
    edited = _readme("flask") + "\n## Authentication\nEvery request needs a JWT bearer token.\n"
    again = SpecCache(path)
    spec = again.score("flask", edited)
    assert again.hits == 0 and spec.flag("auth")


def test_a_changed_readme_reader_invalidates_the_cache(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "spec.pickle"
    cache = SpecCache(path)
    cache.score("eve", _readme("eve"))
    cache.save()
    model = tmp_path / "model"
    model.mkdir()
    for f in spec_cache._MODEL.glob("*.py"):
        (model / f.name).write_bytes(f.read_bytes())
    (model / "readme_schemas.py").write_text("# edited\n", encoding="utf-8")
    monkeypatch.setattr(spec_cache, "_MODEL", model)
    spec_cache.code_version.cache_clear()
    try:
        again = SpecCache(path)
        again.score("eve", _readme("eve"))
        assert again.hits == 0
    finally:
        spec_cache.code_version.cache_clear()


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x04K\x01."])
def test_a_broken_cache_file_is_ignored(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "spec.pickle"
    path.write_bytes(content)
    cache = SpecCache(path)
    assert cache.score("eve", _readme("eve")) == spec_complexity(_readme("eve"), "eve")
    cache.save()
    assert SpecCache(path).score("eve", _readme("eve")) is not None
