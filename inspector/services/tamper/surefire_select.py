"""Which test classes a Surefire selection runs: ``<includes>``, ``<excludes>`` and ``<test>``.

Patterns as Surefire reads them: comma-separated items; ``%regex[…]`` matched against the class
file's path (``com/example/ApiTest.class``); otherwise an Ant-style path pattern (``**`` any
folders, ``*`` and ``?`` within one) where a ``.java``/``.class`` ending is dropped, a name
without ``/`` may be dotted (``com.example.ApiTest``) and then matches in any package; a
``#method`` part selects some of the class's methods (counted here as selecting the class).
"""

from __future__ import annotations

import re
from functools import lru_cache

DEFAULT_INCLUDES = ("**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java")


def items(text: str) -> list[str]:
    """A pattern list's comma-separated items, trimmed, without empty ones."""
    return [p.strip() for p in text.split(",") if p.strip()]


@lru_cache(maxsize=512)
def _ant(pattern: str) -> re.Pattern[str] | None:
    parts = []
    for seg in pattern.split("/"):
        if seg == "**":
            parts.append("(?:[^/]+/)*")
            continue
        rx = "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in seg)
        parts.append(rx + "/")
    try:
        return re.compile("".join(parts)[:-1] if parts else "")
    except re.error:
        return None


def matches(pattern: str, class_name: str) -> bool | None:
    """Whether one pattern item selects the class (``pkg.Name``); None when it cannot be read."""
    path = class_name.replace(".", "/")
    if pattern.startswith("%regex[") and pattern.endswith("]"):
        body = pattern[len("%regex["):-1].split("#")[0]
        try:
            rx = re.compile(body)
        except re.error:
            return None
        return any(rx.fullmatch(f"{path}{ext}") for ext in (".class", ".java", ""))
    pat = pattern.split("#")[0].strip()
    if not pat:
        return True  # "#method": every class, some methods
    for ext in (".java", ".class"):
        pat = pat.removesuffix(ext)
    if "/" not in pat:
        pat = "**/" + pat.replace(".", "/")
    rx_ant = _ant(pat.lstrip("/"))
    return None if rx_ant is None else rx_ant.fullmatch(path) is not None


def any_match(patterns: list[str], class_name: str) -> bool:
    """Whether any readable item selects the class."""
    return any(matches(p, class_name) for p in patterns)


def left_out(classes: list[str], includes: list[str] | None, excludes: list[str],
             test: list[str] | None) -> list[str]:
    """The classes Surefire would not run: ``test`` (items starting with ``!`` exclude) takes
    the place of the includes and excludes when given, as in Surefire."""
    out = []
    for cls in classes:
        if test is not None:
            wanted = [t for t in test if not t.startswith("!")]
            unwanted = [t[1:] for t in test if t.startswith("!")]
            run = (not wanted or any_match(wanted, cls)) and not any_match(unwanted, cls)
        else:
            run = any_match(list(includes or DEFAULT_INCLUDES), cls) and \
                not any_match(excludes, cls)
        if not run:
            out.append(cls)
    return out
