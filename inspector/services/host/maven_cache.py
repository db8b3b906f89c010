"""Filling the per-machine Maven artifact cache, by the harness, from the user's source only.

A build only says *which* artifacts it needed (the files in its own local repository); the
harness then fetches each one the cache lacks straight from the source (``--maven-repo URL``)
and stores it atomically. Nothing a build wrote ever enters the cache, so an untrusted build
cannot plant an artifact another sample would use. A folder source (``--maven-local``) is
already local and is not copied.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from inspector.services.host.maven_source import MavenSource

_KEEP = (".jar", ".pom")


@dataclass
class CacheFill:
    """What one fill added and what it could not fetch (path: why)."""

    added: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def artifact_paths(listing: list[str]) -> list[str]:
    """The artifact files (``.jar``/``.pom``) of a local-repository listing, relative and
    safe (no absolute paths, no ``..``), in order, once each."""
    out: list[str] = []
    for raw in listing:
        text = raw.strip()
        p = PurePosixPath(text.removeprefix("./"))
        if not text or p.is_absolute() or ".." in p.parts or len(p.parts) < 4:
            continue
        if p.suffix in _KEEP and str(p) not in out:
            out.append(str(p))
    return out


def fill_cache(source: MavenSource, paths: list[str], cache: Path,
               timeout: float = 60.0) -> CacheFill:
    """Fetch the ``paths`` the cache lacks from the source URL into ``cache``."""
    fill = CacheFill()
    if source.kind != "url":
        return fill
    # start-up: httpx only when a URL source is used
    import httpx

    with httpx.Client(timeout=timeout, follow_redirects=True) as client:
        for rel in paths:
            dest = cache / rel
            if dest.is_file():
                continue
            try:
                r = client.get(f"{source.location}/{rel}")
            except httpx.HTTPError as exc:
                fill.failed[rel] = f"{type(exc).__name__}: {exc}"
                continue
            if r.status_code != 200:
                fill.failed[rel] = f"HTTP {r.status_code}"
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".gi-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(r.content)
                os.chmod(tmp, 0o644)  # every sandbox user reads the cache (mkstemp: 0600)
                os.replace(tmp, dest)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
            fill.added.append(rel)
    return fill
