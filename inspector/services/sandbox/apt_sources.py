"""The machine's Debian mirror and suite, read from its apt configuration.

``inspector sandbox init`` builds the base image from the same package sources the machine
already uses, so it works offline from Docker Hub and never names a host of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SOURCES_DIR = Path("/etc/apt")


@dataclass(frozen=True)
class AptSource:
    """One ``deb`` entry: a mirror URI and a suite (e.g. ``bookworm``)."""

    uri: str
    suite: str
    components: tuple[str, ...]
    origin: Path


class NoAptSource(RuntimeError):
    """No usable Debian mirror was found in the apt configuration."""


def _deb822_stanzas(text: str) -> list[dict[str, str]]:
    stanzas: list[dict[str, str]] = []
    cur: dict[str, str] = {}
    key = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.lstrip().startswith("#"):
            continue
        if not line.strip():
            if cur:
                stanzas.append(cur)
            cur, key = {}, ""
            continue
        if line[0] in " \t" and key:
            cur[key] += " " + line.strip()
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            cur[key] = value.strip()
    if cur:
        stanzas.append(cur)
    return stanzas


def parse_deb822(text: str, origin: Path) -> list[AptSource]:
    """Entries of a ``.sources`` file (only enabled ``Types: deb`` stanzas)."""
    out: list[AptSource] = []
    for st in _deb822_stanzas(text):
        if "deb" not in st.get("types", "").split():
            continue
        if st.get("enabled", "yes").lower() in ("no", "false", "0"):
            continue
        comps = tuple(st.get("components", "").split())
        for uri in st.get("uris", "").split():
            for suite in st.get("suites", "").split():
                out.append(AptSource(uri.rstrip("/"), suite, comps, origin))
    return out


def parse_list(text: str, origin: Path) -> list[AptSource]:
    """Entries of a one-line-style ``.list`` file (``deb [opts] uri suite comps…``)."""
    out: list[AptSource] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line.startswith("deb "):
            continue
        parts = line.split()[1:]
        if parts and parts[0].startswith("["):
            while parts and not parts[0].endswith("]"):
                parts.pop(0)
            parts = parts[1:]
        if len(parts) >= 2:
            out.append(AptSource(parts[0].rstrip("/"), parts[1], tuple(parts[2:]), origin))
    return out


def read_sources(root: Path = SOURCES_DIR) -> list[AptSource]:
    """Every ``deb`` entry in ``sources.list`` and ``sources.list.d/*.{list,sources}``."""
    files = [root / "sources.list"] + sorted((root / "sources.list.d").glob("*"))
    out: list[AptSource] = []
    for f in files:
        if not f.is_file():
            continue
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if f.name.endswith(".sources"):
            out += parse_deb822(text, f)
        elif f.name.endswith(".list"):
            out += parse_list(text, f)
    return out


def debian_mirror(root: Path = SOURCES_DIR) -> AptSource:
    """The main Debian archive entry (not security, updates or backports) to debootstrap from."""
    sources = read_sources(root)
    for s in sources:
        if ("-" not in s.suite and "security" not in s.uri and s.uri.startswith(("http", "file"))
                and "main" in s.components):
            return s
    found = ", ".join(f"{s.uri} {s.suite}" for s in sources) or "no deb entries"
    raise NoAptSource(f"no Debian main archive in {root}/sources.list or "
                      f"{root}/sources.list.d ({found}); pass --mirror URL --suite NAME")
