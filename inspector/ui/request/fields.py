"""The composer's free-text fields as request parts (no Textual)."""

from __future__ import annotations

import json


def parse_query(text: str) -> tuple[tuple[str, str], ...]:
    """``k=v`` lines (blank lines skipped) as query pairs."""
    out = []
    for line in text.splitlines():
        if line.strip():
            key, _, value = line.partition("=")
            out.append((key.strip(), value.strip()))
    return tuple(out)


def parse_headers(text: str) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """``Name: value`` lines as header pairs, and a problem for each line without a colon."""
    out, problems = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":")
        if not sep:
            problems.append(f"header line {line.strip()!r} must be 'Name: value'")
            continue
        out.append((name.strip(), value.strip()))
    return tuple(out), problems


def is_json(text: str) -> bool:
    """``text`` parses as JSON."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
