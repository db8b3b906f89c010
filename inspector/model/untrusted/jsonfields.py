"""Typed access to untrusted JSON with precise, file-and-field error messages."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path
from typing import Any

from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.files import read_regular
from inspector.model.untrusted.safe_text import json_may_hold_surrogates, normalize_tree

_MISSING = object()
MAX_INT = 2 ** 53  # larger integers overflow float arithmetic (ratios, thresholds) downstream


def read_json(path: Path, max_bytes: int = 256 * 1024 * 1024) -> Any:
    """Read a JSON file, raising :class:`LoadError` with a one-line reason on any problem
    (regular files only, at most ``max_bytes``: see :func:`~.files.read_regular`)."""
    data = read_regular(path, max_bytes)
    assert data is not None
    return parse_json_bytes(path, data)


def parse_json_bytes(path: Path, data: bytes) -> Any:
    """Decode and parse a JSON document read from ``path``; :class:`LoadError` with a one-line
    reason (not UTF-8, empty, invalid JSON with its position, nested too deeply).

    Lone surrogates (``"\\ud800"``: valid JSON, but no encoding can store them) are replaced
    by U+FFFD here, once, so no later layer (the index, a label write, a worker pipe) fails on
    them."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(path, f"not UTF-8 (byte {exc.start})") from None
    if not text.strip():
        raise LoadError(path, "file is empty")
    try:
        value = json.loads(text)
        return normalize_tree(value) if json_may_hold_surrogates(text) else value
    except json.JSONDecodeError as exc:
        raise LoadError(path, json_error_reason(exc, text)) from None
    except ValueError as exc:  # e.g. an integer literal longer than Python's digit limit
        raise LoadError(path, f"invalid JSON: {str(exc).split(':')[0]}") from None
    except RecursionError:
        raise LoadError(path, "JSON nested too deeply") from None


def json_error_reason(exc: json.JSONDecodeError, text: str) -> str:
    """What is wrong with a JSON document, as a whole sentence: a file that ends before the
    document does is ``truncated``; the decoder's own words that end in "at" (they expect
    the position after them) get the position inside the sentence."""
    msg = exc.msg
    for tail in (" starting at", " at"):
        if msg.endswith(tail):
            msg = msg[: -len(tail)]
            break
    if exc.msg.startswith("Unterminated string"):  # the decoder reached the end inside it
        end = text.rstrip()
        line = end.count("\n") + 1
        return (f"truncated JSON: the file ends at line {line} inside a string that starts at "
                f"line {exc.lineno} column {exc.colno}")
    if exc.pos >= len(text.rstrip()):
        return (f"truncated JSON: the file ends at line {exc.lineno} column {exc.colno} "
                f"({msg[:1].lower()}{msg[1:]})")
    return f"invalid JSON at line {exc.lineno} column {exc.colno}: {msg}"


class Fields:
    """Reads fields of one JSON object; problems are recorded as issues, not raised.

    Required fields that are missing or malformed raise :class:`LoadError` (the item cannot be
    used); optional ones fall back to a default and record a warning.
    """

    def __init__(self, obj: Any, path: Path, prefix: str, issues: list[LoadIssue]) -> None:
        self.path = path
        self.prefix = prefix
        self.issues = issues
        if not isinstance(obj, dict):
            raise LoadError(path, f"expected an object, got {_kind(obj)}", prefix)
        self.obj: dict[str, Any] = obj

    def _name(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def _bad(self, key: str, msg: str, required: bool) -> None:
        if required:
            raise LoadError(self.path, msg, self._name(key))
        self.issues.append(LoadIssue(self.path, self._name(key), msg, "warning"))

    def has(self, key: str) -> bool:
        return key in self.obj and self.obj[key] is not None

    def sub(self, key: str, required: bool = False) -> Fields | None:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return None
        if not isinstance(value, dict):
            self._bad(key, f"expected an object, got {_kind(value)}", required)
            return None
        return Fields(value, self.path, self._name(key), self.issues)

    def items(self, key: str, required: bool = False) -> list[Any]:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return []
        if not isinstance(value, list):
            self._bad(key, f"expected a list, got {_kind(value)}", required)
            return []
        return value

    def text(self, key: str, default: str | None = None, required: bool = False) -> str | None:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return default
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        self._bad(key, f"expected a string, got {_kind(value)}", required)
        return default

    def integer(self, key: str, default: int | None = None, required: bool = False,
            minimum: int | None = None) -> int | None:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return default
        if isinstance(value, bool):
            self._bad(key, "expected an integer, got a boolean", required)
            return default
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            with contextlib.suppress(ValueError):  # '--5', '²': isdigit(), not an int literal
                value = int(value.strip())
        if not isinstance(value, int):
            self._bad(key, f"expected an integer, got {_kind(value)}", required)
            return default
        if abs(value) > MAX_INT:
            self._bad(key, "integer out of range", required)
            return default
        if minimum is not None and value < minimum:
            self._bad(key, f"must be >= {minimum}, got {value}", required)
            return default
        return value

    def number(self, key: str, default: float | None = None, required: bool = False,
              lo: float | None = None, hi: float | None = None) -> float | None:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            self._bad(key, f"expected a number, got {_kind(value)}", required)
            return default
        try:
            value = float(value)
        except OverflowError:  # an integer too large for a float
            value = math.inf
        if math.isnan(value) or math.isinf(value):
            self._bad(key, "not a finite number", required)
            return default
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self._bad(key, f"must be between {lo} and {hi}, got {value}", required)
            return default
        return value

    def boolean(self, key: str, default: bool | None = None, required: bool = False) -> bool | None:
        value = self.obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                self._bad(key, "missing", True)
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "false", "0",
                                                                  "no"):
            return value.strip().lower() in ("true", "1", "yes")
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        self._bad(key, f"expected true/false, got {_kind(value)}", required)
        return default


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {
        dict: "an object", list: "a list", str: "a string", bool: "a boolean",
        int: "an integer", float: "a number",
    }.get(type(value), type(value).__name__)
