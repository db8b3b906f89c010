"""What decides what an install yields besides the requirements: the installer, the platform
and the package-index settings (index and extra index URLs, find-links, trusted hosts,
constraints, pre-release and binary choices, and the config files they can come from).

Cache keys (the local backend's virtualenvs, the sandbox images) hash these with
:func:`identity`, so an environment built against one index is never reused under another.
Credentials in a URL (``https://user:token@host/simple``) enter a key only as a hash of their
own and are never stored or shown (:func:`redacted`).
"""

from __future__ import annotations

import hashlib
import os
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# pip and uv settings that change how an install runs but never what it installs
_HOW_NOT_WHAT = frozenset({
    "PIP_DEFAULT_TIMEOUT", "PIP_TIMEOUT", "PIP_RETRIES", "PIP_DISABLE_PIP_VERSION_CHECK",
    "PIP_NO_INPUT", "PIP_ROOT_USER_ACTION", "PIP_PROGRESS_BAR", "PIP_QUIET", "PIP_VERBOSE",
    "PIP_NO_COLOR", "PIP_LOG", "PIP_LOG_FILE", "PIP_CACHE_DIR", "PIP_NO_CACHE_DIR",
    "PIP_CERT", "PIP_CLIENT_CERT", "PIP_PROXY", "PIP_REQUIRE_VIRTUALENV", "PIP_YES",
    "PIP_EXISTS_ACTION", "PIP_NO_WARN_SCRIPT_LOCATION", "PIP_NO_WARN_CONFLICTS",
    "PIP_KEYRING_PROVIDER", "PIP_BREAK_SYSTEM_PACKAGES",
    "UV_LINK_MODE", "UV_NO_PROGRESS", "UV_CACHE_DIR", "UV_NO_CACHE", "UV_HTTP_TIMEOUT",
    "UV_REQUEST_TIMEOUT", "UV_HTTP_RETRIES", "UV_CONCURRENT_DOWNLOADS",
    "UV_CONCURRENT_BUILDS", "UV_CONCURRENT_INSTALLS", "UV_NATIVE_TLS", "UV_SYSTEM_CERTS",
    "UV_NO_COLOR", "UV_LOG_CONTEXT", "UV_KEYRING_PROVIDER", "UV_OFFLINE", "UV_QUIET",
    "UV_VERBOSE", "UV_COMPILE_BYTECODE", "UV_BREAK_SYSTEM_PACKAGES",
})
# settings naming a file whose content decides what is installed
_FILE_SETTINGS = ("PIP_CONSTRAINT", "PIP_CONFIG_FILE", "UV_CONSTRAINT", "UV_OVERRIDE",
                  "UV_BUILD_CONSTRAINT", "UV_CONFIG_FILE")
# settings naming local folders of packages whose listing decides what can be installed
_FOLDER_SETTINGS = ("PIP_FIND_LINKS", "UV_FIND_LINKS")
_MAX_LISTING = 10_000
# where pip and uv read configuration a process environment does not show
CONFIG_FILES = ("/etc/pip.conf", "/etc/xdg/pip/pip.conf", "~/.config/pip/pip.conf",
                "~/.pip/pip.conf", "/etc/uv/uv.toml", "/etc/xdg/uv/uv.toml",
                "~/.config/uv/uv.toml")
_MAX_FILE = 1024 * 1024


def content_settings(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The ``PIP_*`` / ``UV_*`` settings of ``environ`` (default: this process's) that can
    change what an install yields: every one but those known to change only how it runs."""
    env = os.environ if environ is None else environ
    return {k: v for k, v in sorted(env.items())
            if k.startswith(("PIP_", "UV_")) and k not in _HOW_NOT_WHAT and v != ""}


def redacted(value: str) -> str:
    """``value`` with the credentials of every URL in it replaced by a short hash of them
    (``https://<creds:1a2b3c4d>@host/simple``): the same credentials, the same text."""
    out = []
    for word in value.split():
        try:
            parts = urlsplit(word)
        except ValueError:
            out.append(word)
            continue
        if parts.scheme and "@" in parts.netloc:
            creds, _, host = parts.netloc.rpartition("@")
            digest = hashlib.sha256(creds.encode()).hexdigest()[:8]
            word = urlunsplit(parts._replace(netloc=f"<creds:{digest}>@{host}"))
        out.append(word)
    return " ".join(out)


def _file_digest(path: str) -> str:
    try:
        p = Path(path).expanduser()
        if not p.is_file():
            return "-"
        with p.open("rb") as fh:
            return hashlib.sha256(fh.read(_MAX_FILE)).hexdigest()[:16]
    except OSError:
        return "?"


def _listing_digest(value: str) -> str:
    """A hash of the file names in each local folder ``value`` names (URLs are left as they
    are: their content is the index's)."""
    h = hashlib.sha256()
    for word in value.split():
        folder = Path(word.removeprefix("file://")).expanduser()
        try:
            if folder.is_dir():
                with os.scandir(folder) as it:
                    names = sorted(e.name for _, e in zip(range(_MAX_LISTING), it, strict=False))
                h.update(("\0".join(names) + "\1").encode())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


def identity(settings: Mapping[str, str], installer: str,
             config_files: Iterable[str] = ()) -> str:
    """One line naming everything besides the requirements that decides what an install
    yields: the installer, the platform, each setting (credentials as hashes) and the
    content of each file a setting or ``config_files`` names. Safe to log; hash it for a key."""
    parts = [f"installer {installer}", f"platform {platform.system()}-{platform.machine()}"]
    for key, value in sorted(settings.items()):
        parts.append(f"{key}={redacted(value)}")
        if key in _FILE_SETTINGS:
            parts.append(f"{key} content {_file_digest(value)}")
        elif key in _FOLDER_SETTINGS:
            parts.append(f"{key} listing {_listing_digest(value)}")
    for path in config_files:
        digest = _file_digest(path)
        if digest != "-":  # absent: named only once it exists
            parts.append(f"{path} content {digest}")
    return "; ".join(parts)


def identity_key(text: str) -> str:
    """A short hash of an :func:`identity` line, for cache keys."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
