"""User settings from ``$GENESIS_INSPECTOR_CONFIG`` or ``~/.config/genesis-inspector/config.toml``.

Keys used so far: ``allow_local_exec`` (bool), ``theme`` (str), ``annotator`` (str: your name
in label files), ``blind_labels`` (bool: hide others' labels until you labelled the item),
``allow_any_package_source`` (bool: install generated repos' requirements from anywhere, not
only the configured package index).
Environment variable ``GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC=1`` also allows local execution.
:func:`save_setting` rewrites the file (atomically) keeping every other key; comments are not
kept.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.services.storage.atomic import write_bytes_atomic


class ConfigError(Exception):
    """The config file is unreadable or malformed; message names file and key."""


@dataclass
class Settings:
    allow_local_exec: bool = False
    theme: str | None = None
    annotator: str | None = None
    blind_labels: bool = False
    allow_any_package_source: bool = False
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
        annotator = data.get("annotator")
        if annotator is not None and not isinstance(annotator, str):
            raise ConfigError(f"{path}: 'annotator' must be a string")
        settings.annotator = annotator or None
        blind = data.get("blind_labels", False)
        if not isinstance(blind, bool):
            raise ConfigError(f"{path}: 'blind_labels' must be true or false")
        settings.blind_labels = blind
        any_source = data.get("allow_any_package_source", False)
        if not isinstance(any_source, bool):
            raise ConfigError(f"{path}: 'allow_any_package_source' must be true or false")
        settings.allow_any_package_source = any_source
    if local_exec_from_env():
        settings.allow_local_exec = True
    return settings


def local_exec_from_env() -> bool:
    """``GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC`` allows local execution (1, true or yes)."""
    return os.environ.get("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", "").lower() in ("1", "true", "yes")


_KNOWN_TYPES: dict[str, type] = {"allow_local_exec": bool, "theme": str, "annotator": str,
                                  "blind_labels": bool, "allow_any_package_source": bool}
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n",
            "\f": "\\f", "\r": "\\r"}


def save_setting(key: str, value: str | bool, path: Path | None = None) -> None:
    """Set top-level ``key`` in the config file, keeping all other keys (not comments).

    Raises :class:`ConfigError` rather than overwrite a file it cannot parse.
    """
    path = path or config_path()
    expected = _KNOWN_TYPES.get(key)
    if expected is not None and not isinstance(value, expected):
        raise ConfigError(f"{path}: '{key}' must be a {expected.__name__}")
    if not isinstance(value, str | bool):
        raise ConfigError(f"{path}: '{key}': only strings and booleans can be saved")
    if not key:
        raise ConfigError(f"{path}: empty setting name")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path  # keep dotfile links
    data: dict[str, Any] = {}
    mode = None
    if target.exists():
        try:
            st = target.stat()
            if not stat.S_ISREG(st.st_mode):
                raise ConfigError(f"{path}: not a regular file; not overwritten")
            mode = stat.S_IMODE(st.st_mode)
            data = tomllib.loads(target.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read config, not overwritten: {exc}") from None
    data[key] = value
    text = _dump_toml(data, path)
    if tomllib.loads(text) != data:  # never write something that reads back differently
        raise ConfigError(f"{path}: cannot write this config faithfully; not overwritten")
    try:
        write_bytes_atomic(target, text.encode("utf-8"))
        if mode is not None:
            os.chmod(target, mode)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write config: {exc}") from None


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def _string(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _value(value: Any, path: Path) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dt.date | dt.time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v, path) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v, path)}" for k, v in value.items()) + "}"
    raise ConfigError(f"{path}: cannot write a {type(value).__name__} value")


def _dump_toml(data: dict[str, Any], path: Path, prefix: str = "") -> str:
    """TOML text for ``data``: scalars and arrays first, then ``[tables]``."""
    lines = [f"{_key(k)} = {_value(v, path)}" for k, v in data.items()
             if not isinstance(v, dict)]
    out = "\n".join(lines) + ("\n" if lines else "")
    for k, v in data.items():
        if isinstance(v, dict):
            name = f"{prefix}.{_key(k)}" if prefix else _key(k)
            out += f"\n[{name}]\n" + _dump_toml(v, path, name)
    return out
