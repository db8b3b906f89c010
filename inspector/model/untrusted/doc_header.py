"""The header every JSON document of ours starts with: ``format`` and ``version``.

:func:`check_header` refuses a document that is not an object, names another format, or
comes from a newer inspector (never guessed at), with one :class:`LoadError` naming the file
and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.model.untrusted.errors import LoadError


def type_name(value: Any) -> str:
    """``null`` for None, else the Python type's name (as errors say what was found)."""
    return "null" if value is None else type(value).__name__


def check_header(data: Any, path: Path, fmt: str, newest: int, what: str,
                 newer_hint: str = "upgrade genesis-inspector") -> int:
    """``data``'s version after checking it is a ``fmt`` document (``what``: "label file",
    "errata file") of a version this inspector reads (up to ``newest``)."""
    a = "an" if what[:1] in "aeiou" else "a"
    if not isinstance(data, dict):
        raise LoadError(path, f"{a} {what} must be a JSON object, not {type_name(data)}")
    if data.get("format") != fmt:
        raise LoadError(path, f"not {a} {what} (format must be {fmt!r}, found "
                              f"{data.get('format')!r})", "format")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LoadError(path, f"invalid version {version!r}", "version")
    if version > newest:
        raise LoadError(path, f"written by a newer inspector ({what.split()[0]} format version "
                              f"{version}, this one reads up to {newest}); {newer_hint}",
                        "version")
    return version
