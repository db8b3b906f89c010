"""Where Maven may resolve a Java repo's artifacts: exactly what the user chose, nothing else.

Three sources (:class:`MavenSource`):

* ``url``: a mirror or proxy (``--maven-repo URL``), written into a generated ``settings.xml``
  as the mirror of every repository (``*``): a repo's own ``<repositories>`` are never asked;
* ``local``: a repository folder (``--maven-local DIR``), read through ``file://`` (mounted
  read-only in the sandbox, with the folders its symbolic links point into: Debian's
  ``/usr/share/maven-repo`` links to ``/usr/share/java``);
* ``offline``: only what the per-machine artifact cache already holds (:func:`cache_dir`).

The per-machine cache is a Maven repository layout shared by every sample on the machine. It is
consulted first (as the ``gi-cache`` repository, read-only) and filled by the harness, never by
a build: an artifact a build downloaded is copied in only when its checksum matches the one the
source publishes (:mod:`inspector.services.sandbox.maven_cache`). Builds resolve in the install
phase only; tests run offline (``-o``) against what the install resolved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse
from xml.sax.saxutils import escape

from inspector import paths

URL_ENV = "INSPECTOR_MAVEN_REPO"
LOCAL_ENV = "INSPECTOR_MAVEN_LOCAL"
COMPLETE_ENV = "INSPECTOR_MAVEN_COMPLETE"
MIRROR_ID = "gi-source"
CACHE_ID = "gi-cache"


class MavenSourceError(ValueError):
    """The chosen Maven repository cannot be used; the message names the option and why."""


@dataclass(frozen=True)
class MavenSource:
    """The repository Maven may resolve from (see the module docstring)."""

    kind: str  # "url" | "local" | "offline"
    location: str = ""  # the URL, or the folder's absolute path
    declared_complete: bool = False  # the user said a folder holds all a repo may use

    def describe(self) -> str:
        if self.kind == "url":
            return f"the Maven repository {self.location} (--maven-repo)"
        if self.kind == "local":
            return (f"the local Maven repository folder {self.location} (--maven-local"
                    + (", declared complete)" if self.declared_complete else ")"))
        return "the per-machine artifact cache only (offline; no --maven-repo or --maven-local)"

    @property
    def needs_network(self) -> bool:
        return self.kind == "url"

    @property
    def complete(self) -> bool:
        """Whether "not found" here means the repo asked for what it may not have: a mirror or
        proxy URL stands for the whole of Maven's repositories; a folder or the cache holds
        what someone put there, so an artifact missing from it says nothing of the repo's
        coordinates, unless the user declared the folder complete (``--maven-complete``: a
        task whose README lists the artifacts available, as its repository of record)."""
        return self.kind == "url" or (self.kind == "local" and self.declared_complete)


def maven_source(url: str | None = None, local: str | None = None,
                 complete: bool | None = None) -> MavenSource:
    """The source from the options (else ``INSPECTOR_MAVEN_REPO`` / ``INSPECTOR_MAVEN_LOCAL``
    and ``INSPECTOR_MAVEN_COMPLETE``, else offline). Raises :class:`MavenSourceError` for both
    given, a URL that is not http(s), or a folder that does not exist."""
    if complete is None:
        complete = os.environ.get(COMPLETE_ENV, "").strip().lower() in ("1", "true", "yes")
    url = url or (None if local else os.environ.get(URL_ENV) or None)
    local = local or (None if url else os.environ.get(LOCAL_ENV) or None)
    if url and local:
        raise MavenSourceError("--maven-repo and --maven-local: choose one Maven repository")
    if url:
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise MavenSourceError(f"--maven-repo {url}: not an http(s) URL")
        return MavenSource("url", url.rstrip("/"))
    if local:
        folder = Path(local).expanduser()
        if not folder.is_dir():
            raise MavenSourceError(f"--maven-local {local}: no such folder")
        return MavenSource("local", str(folder.resolve()), declared_complete=complete)
    return MavenSource("offline")


def cache_dir() -> Path:
    """The per-machine artifact cache (a Maven repository layout), created on first use."""
    d = paths.cache_root() / "maven" / "repository"
    d.mkdir(parents=True, exist_ok=True)
    return d


def outside_targets(folder: Path, limit: int = 200_000) -> list[Path]:
    """The folders outside ``folder`` that its symbolic links point into (deepest common
    folders, at most a few): what must be mounted beside it for the links to resolve."""
    found: set[Path] = set()
    root = folder.resolve()
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + dirnames:
            seen += 1
            if seen > limit:
                break
            p = Path(dirpath) / name
            if not p.is_symlink():
                continue
            try:
                target = p.resolve()
            except (OSError, RuntimeError):
                continue
            if root not in target.parents and target != root:
                found.add(target.parent)
    tops: list[Path] = []
    for p in sorted(found, key=lambda q: len(q.parts)):
        if not any(t == p or t in p.parents for t in tops):
            tops.append(p)
    return tops


def settings_xml(source: MavenSource, local_repo: str, source_url: str | None = None,
                 cache_url: str | None = None) -> str:
    """A ``settings.xml`` that resolves through ``source`` only: its URL (``source_url``
    overrides it, e.g. a folder as mounted in the sandbox) mirrors every repository, and the
    cache (``cache_url``), when given, is asked first. Offline with no cache: no repository.
    Checksums are checked for a URL (a network transfer); a folder and the harness-filled cache
    are local copies, often without checksum files (Debian's), so they are not."""
    url = source_url or (source.location if source.kind == "url"
                         else Path(source.location).as_uri() if source.kind == "local" else "")
    policy = "warn" if source.kind == "url" else "ignore"
    parts = ["<settings>", f"  <localRepository>{escape(local_repo)}</localRepository>",
             "  <interactiveMode>false</interactiveMode>"]
    if not url and cache_url is None:
        parts += ["  <offline>true</offline>", "</settings>"]
        return "\n".join(parts) + "\n"
    mirrors = []
    if url:
        mirrors.append((MIRROR_ID, url))
    elif cache_url:  # offline: the cache stands in for every repository
        mirrors.append((f"{CACHE_ID}-all", cache_url))
    parts.append("  <mirrors>")
    for mid, murl in mirrors:
        parts += ["    <mirror>", f"      <id>{mid}</id>",
                  f"      <mirrorOf>{'*,!' + CACHE_ID if cache_url else '*'}</mirrorOf>",
                  f"      <url>{escape(murl)}</url>", "    </mirror>"]
    parts.append("  </mirrors>")

    def repo(rid: str, rurl: str, check: str) -> str:
        return (f"<id>{rid}</id><url>{escape(rurl)}</url><releases><enabled>true</enabled>"
                f"<updatePolicy>never</updatePolicy><checksumPolicy>{check}</checksumPolicy>"
                "</releases><snapshots><enabled>false</enabled></snapshots>")

    # ``central`` redeclared only to set its checksum policy (the mirror serves it)
    repos = [repo("central", "https://repo.maven.apache.org/maven2", policy)]
    if cache_url:
        repos.insert(0, repo(CACHE_ID, cache_url, "ignore"))
    parts += ["  <profiles>", "    <profile>", "      <id>gi</id>",
              "      <repositories>" + "".join(f"<repository>{r}</repository>" for r in repos)
              + "</repositories>",
              "      <pluginRepositories>" + "".join(
                  f"<pluginRepository>{r}</pluginRepository>" for r in repos)
              + "</pluginRepositories>", "    </profile>", "  </profiles>",
              "  <activeProfiles><activeProfile>gi</activeProfile></activeProfiles>",
              "</settings>"]
    return "\n".join(parts) + "\n"
