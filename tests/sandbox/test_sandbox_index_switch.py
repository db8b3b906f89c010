"""Sandbox images are keyed by the package index too, and carry none of its settings: a
second evaluation under another index builds its own image from that index instead of reusing
the first one (whose installs would go to an index the second never configured)."""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from pathlib import Path

import pytest

from inspector.services.logs.phase_log import PhaseLog
from inspector.services.sandbox.base_image import BASE_IMAGE
from inspector.services.sandbox.images import ImageResult, ensure_sample_image
from tests.tiny_index import MODULE, PROJECT, VERSION, bridge_gateway, build_index, serve

INDEX_KEYS = ("PIP_INDEX_URL", "UV_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_EXTRA_INDEX_URL",
              "PIP_TRUSTED_HOST")


def _env_keys(client, image: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    env = client.images.get(image).attrs["Config"]["Env"] or []
    return dict(e.partition("=")[::2] for e in env)


def test_switching_the_index_builds_a_new_image_from_it_and_no_image_keeps_the_index(
        docker_client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    # a comment unique to this run: its own images are built (and removed at the end)
    (repo / "requirements.txt").write_text(f"{PROJECT}=={VERSION}\n# {time.time_ns()}\n")
    gateway = bridge_gateway(docker_client)
    results: list[tuple[str, ImageResult, str]] = []
    try:
        with serve(build_index(tmp_path / "a", "A"), gateway) as index_a, \
                serve(build_index(tmp_path / "b", "B"), gateway) as index_b:
            for index in (index_a, index_b):
                monkeypatch.setenv("PIP_INDEX_URL", index)
                monkeypatch.setenv("PIP_TRUSTED_HOST", gateway)
                log = PhaseLog(tmp_path / f"install-{len(results)}.log")
                result = ensure_sample_image(docker_client, repo, None, log,
                                             threading.Event(), timeout=600)
                results.append((index, result, log.path.read_text()))
                assert result.ok, results[-1][2]
        (_, first, _), (_, second, second_log) = results
        assert not first.cached
        assert not second.cached and second.tag != first.tag, \
            "the image built against index A was reused under index B"
        where = docker_client.containers.run(
            second.tag, ["/opt/venv/bin/python", "-c",
                         f"import {MODULE}; print({MODULE}.WHERE)"],
            network_mode="none", remove=True).decode().strip()
        assert where == "B", second_log
        base = _env_keys(docker_client, BASE_IMAGE)
        for index, result, _ in results:
            env = _env_keys(docker_client, result.tag)
            carried = {k: v for k, v in env.items() if k in INDEX_KEYS and base.get(k) != v}
            assert carried == {}, f"{result.tag} keeps the index settings of its build"
            image = docker_client.images.get(result.tag)
            seen = json.dumps([image.attrs, image.history()])
            assert index.split("//")[1] not in seen, "the index URL is stored in the image"
    finally:
        for _, result, log_text in results:
            with contextlib.suppress(Exception):
                docker_client.images.remove(result.tag, force=True)
            # the runner images this test built (keyed by its own index: no one else's)
            for runner in re.findall(r"building the test runner image "
                                     r"(genesis-inspector/runner:\w+)", log_text):
                with contextlib.suppress(Exception):
                    docker_client.images.remove(runner, force=True)
