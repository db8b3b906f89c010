"""Where the bundled data lives, in a source checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """``sample_runs`` or ``themes``: the checkout's folder, else the copy inside the wheel."""
    for candidate in (_PKG.parent / name, _PKG / "_bundled" / name):
        if candidate.is_dir():
            return candidate
    return _PKG.parent / name


def sample_runs() -> Path:
    return bundled("sample_runs")


def cache_root() -> Path:
    """``$GENESIS_INSPECTOR_CACHE``, else ``$XDG_CACHE_HOME/genesis-inspector``."""
    import os

    if os.environ.get("GENESIS_INSPECTOR_CACHE"):
        return Path(os.environ["GENESIS_INSPECTOR_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "genesis-inspector"
