"""Theme files (bundled and user) and persisting the chosen theme in the config file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import Theme
from textual.widgets import Static

from inspector import paths
from inspector.config import ConfigError, load_settings, save_setting
from inspector.ui.themes import (
    COLOR_KEYS,
    DEFAULT_THEME,
    SEMANTIC_VARIABLES,
    ThemeError,
    load_theme_file,
    load_themes,
    theme_dirs,
    user_themes_dir,
)

BUNDLED = paths.bundled("themes")
BUNDLED_FILES = sorted(BUNDLED.glob("*.toml"))
OUTCOMES = [v for v in SEMANTIC_VARIABLES if v.startswith("outcome-")]


def _luminance(color: str) -> float:
    c = Color.parse(color)

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_helper() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)


# --- bundled themes -------------------------------------------------------------------------

def test_bundled_set() -> None:
    themes = load_themes([BUNDLED])
    assert themes.failures == []
    assert len(themes.themes) >= 4 and len(BUNDLED_FILES) == len(themes.themes)
    assert DEFAULT_THEME in themes.themes
    assert "high-contrast" in themes.themes
    assert any(not t.dark for t in themes.themes.values())
    assert theme_dirs()[0] == BUNDLED


@pytest.mark.parametrize("path", BUNDLED_FILES, ids=lambda p: p.stem)
def test_bundled_theme(path: Path) -> None:
    theme = load_theme_file(path)
    assert isinstance(theme, Theme)
    assert theme.name == path.stem  # file named after its theme
    for key in COLOR_KEYS:
        assert getattr(theme, key), f"{path.name} sets no {key}"
    for var in SEMANTIC_VARIABLES:
        Color.parse(theme.variables[var])
    assert theme.to_color_system().generate()["background"]  # Textual can derive its palette
    assert len({theme.variables[v].lower() for v in OUTCOMES}) == len(OUTCOMES)


@pytest.mark.parametrize("path", BUNDLED_FILES, ids=lambda p: p.stem)
def test_bundled_contrast(path: Path) -> None:
    theme = load_theme_file(path)
    assert theme.foreground and theme.background and theme.surface
    minimum = 7.0 if theme.name == "high-contrast" else 4.5
    assert contrast(theme.foreground, theme.background) >= minimum
    assert contrast(theme.foreground, theme.surface) >= minimum
    for var in SEMANTIC_VARIABLES:  # outcome text on the screen and on table surfaces
        for bg in (theme.background, theme.surface):
            ratio = contrast(theme.variables[var], bg)
            assert ratio >= minimum, f"{theme.name}: {var} on {bg} is {ratio:.2f}:1"


class _Probe(App[None]):
    """Styles one Static per semantic variable with ``color: $<variable>``."""

    CSS = "\n".join(f"#{v} {{ color: ${v}; }}" for v in SEMANTIC_VARIABLES)

    def __init__(self) -> None:
        super().__init__()
        self.loaded = load_themes([BUNDLED]).themes
        for theme in self.loaded.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME

    def compose(self) -> ComposeResult:
        for var in SEMANTIC_VARIABLES:
            yield Static(var, id=var)


async def test_bundled_themes_drive_app_css() -> None:
    app = _Probe()
    async with app.run_test() as pilot:
        for name, theme in app.loaded.items():
            app.theme = name
            await pilot.pause()
            for var in SEMANTIC_VARIABLES:
                shown = app.query_one(f"#{var}", Static).styles.color
                assert shown == Color.parse(theme.variables[var]), (name, var)


def test_high_contrast_is_black_white_yellow_cyan() -> None:
    theme = load_theme_file(BUNDLED / "high-contrast.toml")
    assert Color.parse(theme.background or "") == Color.parse("#000000")
    assert Color.parse(theme.foreground or "") == Color.parse("#ffffff")
    accents = {Color.parse(c) for c in (theme.primary, theme.secondary or "", theme.accent or "")}
    assert accents <= {Color.parse("#ffff00"), Color.parse("#00ffff")}


# --- malformed files ------------------------------------------------------------------------

GOOD = """\
name = "mine"
dark = true
primary = "#112233"
background = "#000000"
[variables]
outcome-pass = "#00ff00"
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "key"), [
    ("name = [unclosed", "invalid TOML"),
    ('primary = "#123456"\n', "'name'"),
    ('name = ""\nprimary = "#123456"\n', "'name'"),
    ('name = 3\nprimary = "#123456"\n', "'name'"),
    ('name = "x"\n', "'primary'"),
    ('name = "x"\nprimary = "not-a-colour"\n', "'primary'"),
    ('name = "x"\nprimary = "#123456"\nbackground = "#12345"\n', "'background'"),
    ('name = "x"\nprimary = 123\n', "'primary'"),
    ('name = "x"\nprimary = "#123456"\ncolour = "#000000"\n', "'colour'"),
    ('name = "x"\nprimary = "#123456"\ndark = "yes"\n', "'dark'"),
    ('name = "x"\nprimary = "#123456"\ntext_alpha = 2\n', "'text_alpha'"),
    ('name = "x"\nprimary = "#123456"\nvariables = "#000000"\n', "'variables'"),
    ('name = "x"\nprimary = "#123456"\nvariables = ["a"]\n', "'variables'"),
    ('name = "x"\nprimary = "#123456"\n[variables]\noutcome-fail = "reddish"\n',
     "variables.outcome-fail"),
    ('name = "x"\nprimary = "#123456"\n[variables]\nfooter-key-foreground = 1\n',
     "footer-key-foreground"),
    ('name = "x"\nprimary = "#123456"\n[variables]\n"bad name" = "red"\n', "bad name"),
])
def test_malformed_theme_names_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = _write(tmp_path, "broken.toml", text)
    with pytest.raises(ThemeError) as info:
        load_theme_file(path)
    assert str(path) in str(info.value)
    assert key in str(info.value)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ThemeError, match="latin.toml"):
        load_theme_file(path)


def test_minimal_user_theme_and_textual_variables(tmp_path: Path) -> None:
    theme = load_theme_file(_write(tmp_path, "m.toml", GOOD + 'block-cursor-text-style = "bold"\n'))
    assert theme.name == "mine" and theme.primary == "#112233" and theme.dark
    assert theme.variables == {"outcome-pass": "#00ff00", "block-cursor-text-style": "bold"}


# --- loading several folders ----------------------------------------------------------------

def test_user_theme_overrides_bundled(tmp_path: Path) -> None:
    user = tmp_path / "user"
    _write(user, "mine.toml", GOOD.replace('"mine"', f'"{DEFAULT_THEME}"'))
    result = load_themes([BUNDLED, user])
    assert result.failures == []
    assert result.themes[DEFAULT_THEME].primary == "#112233"
    assert "high-contrast" in result.themes


def test_failures_collected_not_raised(tmp_path: Path) -> None:
    user = tmp_path / "user"
    bad = _write(user, "bad.toml", "name = [")
    _write(user, "good.toml", GOOD)
    dup = _write(user, "zz-dup.toml", GOOD)
    _write(user, "notes.txt", "not a theme")
    result = load_themes([BUNDLED, user, tmp_path / "missing"])
    assert "mine" in result.themes and DEFAULT_THEME in result.themes
    assert [p for p, _ in result.failures] == [bad, dup]
    assert all(str(p) in msg for p, msg in result.failures)
    assert "already used" in result.failures[1][1]


def test_theme_dir_that_is_a_file(tmp_path: Path) -> None:
    not_dir = _write(tmp_path, "themes", "x")
    result = load_themes([not_dir])
    assert result.themes == {} and [p for p, _ in result.failures] == [not_dir]


def test_user_themes_dir_next_to_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    assert user_themes_dir() == tmp_path / "cfg" / "themes"
    assert theme_dirs() == [BUNDLED, tmp_path / "cfg" / "themes"]


# --- persisting the choice ------------------------------------------------------------------

def test_save_setting_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    save_setting("theme", "high-contrast", path)
    assert load_settings(path).theme == "high-contrast"
    save_setting("theme", "genesis-light", path)
    save_setting("allow_local_exec", True, path)
    settings = load_settings(path)
    assert settings.theme == "genesis-light" and settings.allow_local_exec is True
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temp files left


def test_save_setting_keeps_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# comment\nallow_local_exec = true\nname = "a \\"q\\" \\u001b"\n'
                    "n = 3\nx = 1.5\nwhen = 2024-01-02T03:04:05Z\nlist = [1, \"two\"]\n"
                    '[extra]\nkey = "v"\n[extra.deeper]\nflag = false\n'
                    '[[servers]]\nhost = "h"\n', encoding="utf-8")
    before = tomllib.loads(path.read_text(encoding="utf-8"))
    save_setting("theme", 'we"ird\\name', path)
    after = tomllib.loads(path.read_text(encoding="utf-8"))
    assert after == {**before, "theme": 'we"ird\\name'}
    assert load_settings(path).allow_local_exec is True


def test_save_setting_refuses_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = [oops\nimportant = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="config.toml"):
        save_setting("theme", "genesis-dark", path)
    assert path.read_text(encoding="utf-8") == "theme = [oops\nimportant = 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


def test_save_setting_validates_known_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    with pytest.raises(ConfigError, match="theme"):
        save_setting("theme", True, path)
    with pytest.raises(ConfigError, match="allow_local_exec"):
        save_setting("allow_local_exec", "yes", path)
    assert not path.exists()


def test_save_setting_through_symlink_keeps_link(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "config.toml"
    real.parent.mkdir()
    real.write_text("n = 1\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    save_setting("theme", "genesis-nord", link)
    assert link.is_symlink()
    assert tomllib.loads(real.read_text(encoding="utf-8")) == {"n": 1, "theme": "genesis-nord"}
    assert real.stat().st_mode & 0o777 == 0o640


def test_load_settings_rejects_non_string_theme(tmp_path: Path) -> None:
    path = _write(tmp_path, "config.toml", "theme = 3\n")
    with pytest.raises(ConfigError, match="'theme' must be a string"):
        load_settings(path)
