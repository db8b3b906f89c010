"""User settings from ``$GENESIS_INSPECTOR_CONFIG`` or ``~/.config/genesis-inspector/config.toml``.

Keys used so far: ``allow_local_exec`` (bool), ``theme`` (str). Environment variable
``GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC=1`` also allows local execution.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path


class ConfigError(Exception):
    """The config file is unreadable or malformed; message names file and key."""


@dataclass
class Settings:
    allow_local_exec: bool = False
    theme: str | None = None
    path: Path | None = None


def config_path() -> Path:
    if os.environ.get("GENESIS_INSPECTOR_CONFIG"):
        return Path(os.environ["GENESIS_INSPECTOR_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "genesis-inspector" / "config.toml"


def load_settings(path: Path | None = None) -> Settings:
    path = path or config_path()
    settings = Settings(path=path)
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read config: {exc}") from None
        value = data.get("allow_local_exec", False)
        if not isinstance(value, bool):
            raise ConfigError(f"{path}: 'allow_local_exec' must be true or false")
        settings.allow_local_exec = value
        theme = data.get("theme")
        if theme is not None and not isinstance(theme, str):
            raise ConfigError(f"{path}: 'theme' must be a string")
        settings.theme = theme
    if os.environ.get("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", "").lower() in ("1", "true", "yes"):
        settings.allow_local_exec = True
    return settings
