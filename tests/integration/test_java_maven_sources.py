"""Java repos on the local backend resolving through a Maven repository the user chose: a
mirror URL (here Debian's repository folder served over HTTP on loopback) and a folder.

A mirror URL stands for all of Maven's repositories: an artifact it answers "not found" for
is the repo's dependency failure. A mirror that does not answer, or a folder that lacks an
artifact, is the machine's: not evaluable, with the artifact and the repository named."""

from __future__ import annotations

import http.server
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.model import Phase, PhaseStatus
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.backend import SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import evaluate_sample

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_REPO = Path("/usr/share/maven-repo")
REPO = ROOT / "corpus-java" / "predictions" / "repo_readme_1129_hasty_java-m1_Java" / \
    "bookmarks-java"


@pytest.fixture(scope="module")
def mirror() -> Iterator[str]:
    """Debian's Maven repository folder as an HTTP mirror on loopback (links followed)."""
    assert (DEBIAN_REPO / "org" / "junit").is_dir(), \
        "Debian's Maven repository is missing: run scripts/sandbox-setup.sh"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = lambda *a, **k: Quiet(*a, directory=str(DEBIAN_REPO), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _evaluate(tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch, **env: str):  # type: ignore[no-untyped-def]
    for var in ("INSPECTOR_MAVEN_REPO", "INSPECTOR_MAVEN_LOCAL"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    tasks, _ = load_tasks(ROOT / "corpus-java" / "tasks")
    job = SampleJob("java-sources", tasks["bookmarks-java"], 0, repo, tmp_path / "sample")
    return evaluate_sample(LocalBackend(allow_exec=True), job)


def _with_version(tmp_path: Path, version: str) -> Path:
    """The sample with its Jackson version changed (a version no repository has)."""
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo)
    pom = repo / "pom.xml"
    text = pom.read_text()
    assert "<version>2.14.0</version>" in text
    pom.write_text(text.replace("<version>2.14.0</version>", f"<version>{version}</version>"))
    return repo


def test_an_artifact_a_mirror_does_not_have_is_the_repos_dependency_failure(
        tmp_path: Path, mirror: str, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _evaluate(tmp_path, _with_version(tmp_path, "2.99.0"), monkeypatch,
                       INSPECTOR_MAVEN_REPO=mirror)
    assert result.not_evaluable is None, "the mirror answered: the repo asked for nothing real"
    install = result.deployment.phase(Phase.INSTALL)
    assert install is not None and install.status is PhaseStatus.FAILED
    assert install.message.startswith(
        "Maven could not resolve com.fasterxml.jackson.core:jackson-databind:2.99.0")
    assert f"repository tried: the Maven repository {mirror} (--maven-repo)" in install.message
    log = result.logs[Phase.INSTALL].read_text()
    assert "plugin goals directly" in log  # the served folder lacks the clean plugin too


def test_a_mirror_that_does_not_answer_makes_the_sample_not_evaluable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = _evaluate(tmp_path, REPO, monkeypatch,
                       INSPECTOR_MAVEN_REPO=f"http://127.0.0.1:{port}")
    ne = result.not_evaluable
    assert ne is not None and ne.kind == "dependency_repository_unreachable"
    assert f"127.0.0.1:{port}" in ne.reason


def test_the_folder_source_builds_starts_and_tests(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _evaluate(tmp_path, REPO, monkeypatch, INSPECTOR_MAVEN_LOCAL=str(DEBIAN_REPO))
    assert result.deployment.success, result.deployment.message
    assert result.tests.passed == len(result.tests.cases) == 52
    tests_log = result.logs[Phase.TESTS].read_text()
    assert " -o surefire:test" in tests_log  # offline, warm from the install's test build
