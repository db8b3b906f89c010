"""Themes as data: TOML files in the bundled ``themes/`` folder and in ``<config dir>/themes``.

A theme file holds ``name``, ``dark`` and the colour keys of :class:`textual.theme.Theme`
(``primary`` required), plus a ``[variables]`` table of CSS variables. The bundled themes
define all :data:`SEMANTIC_VARIABLES` (the app CSS uses ``$outcome-pass`` etc.); a user theme
may leave some out (the app supplies defaults) but must give colours for those it sets. A user
theme with the same name as a bundled one replaces it.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from inspector.config import config_path
from inspector.paths import bundled

DEFAULT_THEME = "genesis-dark"

#: CSS variables the app CSS uses; every bundled theme defines them, as colours.
SEMANTIC_VARIABLES: tuple[str, ...] = (
    "outcome-pass",  # every test passed
    "outcome-fail",  # a test failed
    "outcome-error",  # a test errored
    "outcome-deploy",  # the service did not deploy
    "outcome-notrun",  # the suite did not run
    "outcome-skip",  # skipped
    "health-suspect",  # candidate benchmark defect
)

COLOR_KEYS: tuple[str, ...] = ("primary", "secondary", "accent", "foreground", "background",
                               "surface", "panel", "boost", "warning", "error", "success")
_BOOL_KEYS = ("dark", "ansi")
_FLOAT_KEYS = ("luminosity_spread", "text_alpha")
_ALLOWED_KEYS = frozenset({"name", "variables", *COLOR_KEYS, *_BOOL_KEYS, *_FLOAT_KEYS}) & (
    {f.name for f in dataclasses.fields(Theme)})
_VARIABLE_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


class ThemeError(Exception):
    """A theme file is unreadable or invalid; the message names the file and the key."""


@dataclass
class ThemeLoadResult:
    themes: dict[str, Theme] = field(default_factory=dict)
    failures: list[tuple[Path, str]] = field(default_factory=list)


def user_themes_dir() -> Path:
    """``themes/`` next to the config file (``~/.config/genesis-inspector/themes``)."""
    return config_path().parent / "themes"


def theme_dirs() -> list[Path]:
    """Bundled themes first, then the user's (which override by name)."""
    return [bundled("themes"), user_themes_dir()]


def _check_color(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ThemeError(f"{path}: '{key}' must be a colour string, not {type(value).__name__}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeError(f"{path}: '{key}' is not a colour: {value!r}") from None
    return value


def load_theme_file(path: Path) -> Theme:
    """Parse and validate one theme file. Raises :class:`ThemeError`."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeError(f"{path}: cannot read theme: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError(f"{path}: invalid TOML: {exc}") from None
    unknown = sorted(set(data) - _ALLOWED_KEYS)
    if unknown:
        raise ThemeError(f"{path}: unknown key '{unknown[0]}' (allowed: "
                         f"{', '.join(sorted(_ALLOWED_KEYS))})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeError(f"{path}: 'name' is missing or not a non-empty string")
    if "primary" not in data:
        raise ThemeError(f"{path}: 'primary' is missing")
    kwargs: dict[str, Any] = {"name": name.strip()}
    for key in COLOR_KEYS:
        if key in data:
            kwargs[key] = _check_color(path, key, data[key])
    for key in _BOOL_KEYS:
        if key in data:
            if not isinstance(data[key], bool):
                raise ThemeError(f"{path}: '{key}' must be true or false")
            kwargs[key] = data[key]
    for key in _FLOAT_KEYS:
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 <= value <= 1:
                raise ThemeError(f"{path}: '{key}' must be a number between 0 and 1")
            kwargs[key] = float(value)
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeError(f"{path}: 'variables' must be a table ([variables])")
    for key, value in variables.items():
        if not _VARIABLE_NAME.match(key):
            raise ThemeError(f"{path}: variables.'{key}' is not a valid CSS variable name")
        if not isinstance(value, str):
            raise ThemeError(f"{path}: variables.'{key}' must be a string")
    for key in SEMANTIC_VARIABLES:  # optional (the app has defaults), but must be colours
        if key in variables:
            _check_color(path, f"variables.{key}", variables[key])
    kwargs["variables"] = dict(variables)
    return Theme(**kwargs)


def load_themes(dirs: list[Path] | None = None) -> ThemeLoadResult:
    """Every ``*.toml`` theme in ``dirs`` (default :func:`theme_dirs`), later dirs overriding
    earlier ones by name. Bad files are collected in ``failures``, never raised."""
    result = ThemeLoadResult()
    for folder in theme_dirs() if dirs is None else dirs:
        if not folder.exists():
            continue
        try:
            files = sorted(p for p in folder.iterdir() if p.suffix == ".toml")
        except OSError as exc:
            result.failures.append((folder, f"{folder}: cannot list themes: {exc}"))
            continue
        seen: dict[str, Path] = {}
        for path in files:
            try:
                theme = load_theme_file(path)
            except ThemeError as exc:
                result.failures.append((path, str(exc)))
                continue
            if theme.name in seen:
                result.failures.append((path, f"{path}: 'name' {theme.name!r} is already used "
                                              f"by {seen[theme.name].name}; ignored"))
                continue
            seen[theme.name] = path
            result.themes[theme.name] = theme
    return result


def install_themes(app: App, wanted: str | None) -> list[tuple[Path, str]]:
    """Register the bundled and user themes on ``app`` and select ``wanted`` (else the
    default); returns the (file, reason) of every theme that could not be used."""
    loaded = load_themes([bundled("themes"), user_themes_dir()])
    failures = list(loaded.failures)
    for t in loaded.themes.values():
        app.register_theme(t)
    wanted = wanted or DEFAULT_THEME
    if wanted not in app.available_themes:
        failures.append((Path(wanted), f"unknown theme {wanted!r}; using {DEFAULT_THEME}"))
        wanted = DEFAULT_THEME if DEFAULT_THEME in app.available_themes else "textual-dark"
    app.theme = wanted
    return failures
