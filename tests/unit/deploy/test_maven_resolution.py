"""Where Maven resolves a Java repo from, and which goals build it: settings.xml, the goal plan,
and the per-machine cache filled by the harness over real HTTP on loopback."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.services.host.maven_cache import artifact_paths, fill_cache
from inspector.services.host.maven_source import (
    MavenSource,
    MavenSourceError,
    maven_source,
    outside_targets,
    settings_xml,
)
from inspector.services.suite.maven_plan import (
    GoalPlan,
    cache_hits,
    missing_lifecycle_plugin,
    surefire_filter,
)

CLEAN_MISSING = ("[ERROR] Plugin org.apache.maven.plugins:maven-clean-plugin:2.5 or one of its "
                 "dependencies could not be resolved: Could not find artifact "
                 "org.apache.maven.plugins:maven-clean-plugin:jar:2.5 in gi-source "
                 "(file:///usr/share/maven-repo) -> [Help 1]")
POM_PLAIN = "<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId>" \
            "<version>2.22.3</version></plugin></plugins></build></project>"


def test_a_lifecycle_plugin_the_pom_never_named_switches_to_plugin_goals() -> None:
    assert missing_lifecycle_plugin(CLEAN_MISSING, POM_PLAIN) == \
        "org.apache.maven.plugins:maven-clean-plugin:2.5"
    plan = GoalPlan(direct=True)
    assert plan.install() == ["compiler:compile"]
    assert plan.tests(warm=False) == ["compiler:testCompile", "surefire:test"]
    assert GoalPlan().install() == ["clean", "compile", "-DskipTests"]  # stock Dockerfile.java
    assert GoalPlan().tests() == ["test"]


def test_a_plugin_the_pom_names_that_does_not_resolve_stays_the_repos() -> None:
    pom = POM_PLAIN.replace("maven-surefire-plugin", "maven-clean-plugin")
    assert missing_lifecycle_plugin(CLEAN_MISSING, pom) is None
    other = CLEAN_MISSING.replace("maven-clean-plugin", "exec-maven-plugin")
    assert missing_lifecycle_plugin(other, POM_PLAIN) is None


def test_one_test_rerun_is_warm_and_narrowed() -> None:
    goals = GoalPlan().tests(["com.x.FooTest::bar(int)[2]", "com.x.BazTest::qux"], warm=True)
    assert goals[0] == "surefire:test" and "compile" not in " ".join(goals)
    assert "-Dtest=com.x.FooTest#bar,com.x.BazTest#qux" in goals
    assert surefire_filter("com.x.FooTest") == "com.x.FooTest"
    prep = GoalPlan().prepare_tests("com.x.FooTest")
    assert prep[0] == "test-compile" and "-Dtest=com.x.FooTest#giResolveOnly" in prep


def test_cache_hits_are_counted_per_repository() -> None:
    text = ("[INFO] Downloaded from gi-cache: file:///gi-cache/a/b/1/b-1.jar (1 kB)\n"
            "[INFO] Downloaded from gi-source: http://m/a/c/1/c-1.jar (1 kB)\n"
            "[INFO] Downloading from gi-cache: file:///gi-cache/a/c/1/c-1.jar\n")
    assert cache_hits(text, "gi-cache", "gi-source") == (1, 1)


def test_the_source_is_exactly_what_the_user_chose(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INSPECTOR_MAVEN_REPO", raising=False)
    monkeypatch.delenv("INSPECTOR_MAVEN_LOCAL", raising=False)
    assert maven_source().kind == "offline"
    with pytest.raises(MavenSourceError, match="choose one"):
        maven_source("http://m", str(tmp_path))
    with pytest.raises(MavenSourceError, match="not an http"):
        maven_source("ftp://m")
    with pytest.raises(MavenSourceError, match="no such folder"):
        maven_source(local=str(tmp_path / "nope"))
    url = maven_source("http://mirror.example:8081/maven2/")
    assert url.location == "http://mirror.example:8081/maven2" and url.complete
    local = maven_source(local=str(tmp_path))
    assert not local.complete  # a folder holds what someone put there
    xml = settings_xml(url, "/m2", cache_url="file:///gi-cache")
    assert "<mirrorOf>*,!gi-cache</mirrorOf>" in xml and \
        "<url>http://mirror.example:8081/maven2</url>" in xml
    assert "<checksumPolicy>warn</checksumPolicy>" in xml  # a network transfer is checked
    assert "<offline>true</offline>" in settings_xml(MavenSource("offline"), "/m2")


def test_a_folder_with_links_out_brings_their_targets(tmp_path: Path) -> None:
    java = tmp_path / "java"
    java.mkdir()
    (java / "a.jar").write_bytes(b"jar")
    repo = tmp_path / "repo" / "g" / "a" / "1"
    repo.mkdir(parents=True)
    (repo / "a-1.jar").symlink_to("../../../../java/a.jar")
    assert outside_targets(tmp_path / "repo") == [java]


@pytest.fixture
def served_repo(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "remote"
    (root / "g" / "a" / "1").mkdir(parents=True)
    (root / "g" / "a" / "1" / "a-1.jar").write_bytes(b"the real jar")
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(  # noqa: E731
        *a, directory=str(root), **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()


def test_the_cache_is_filled_from_the_source_never_from_a_build(
        served_repo: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = served_repo
    cache = tmp_path / "cache"
    # what a build's local repository listed, including what it may have planted
    listing = ["./g/a/1/a-1.jar", "./g/a/1/_remote.repositories", "../../etc/passwd",
               "/abs/x/y/z.jar", "./g/missing/1/missing-1.jar"]
    assert artifact_paths(listing) == ["g/a/1/a-1.jar", "g/missing/1/missing-1.jar"]
    fill = fill_cache(MavenSource("url", url), artifact_paths(listing), cache)
    assert fill.added == ["g/a/1/a-1.jar"]
    assert (cache / "g/a/1/a-1.jar").read_bytes() == b"the real jar"  # the source's bytes
    assert (cache / "g/a/1/a-1.jar").stat().st_mode & 0o777 == 0o644  # sandbox users read it
    assert fill.failed == {"g/missing/1/missing-1.jar": "HTTP 404"}
    again = fill_cache(MavenSource("url", url), ["g/a/1/a-1.jar"], cache)
    assert again.added == []  # resolved once per machine
    assert fill_cache(MavenSource("local", str(tmp_path)), ["g/a/1/a-1.jar"],
                      tmp_path / "c2").added == []
