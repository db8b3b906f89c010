"""JUnit test methods of a Java test tree (``src/test/java``), found from their annotations.

A light lexical scan, not a compiler: comments and string literals are blanked out first (so a
commented-out ``@Test`` never counts), then annotations, class declarations and braces are
followed to know which method of which (possibly nested) class each test annotation belongs
to. JUnit 4 and 5 are both covered: ``@Test`` counts one, ``@ParameterizedTest``,
``@TestFactory`` and ``@TestTemplate`` count at least one, ``@RepeatedTest(n)`` counts ``n``;
``@Disabled`` / ``@Ignore`` (on the method or its class) are counted and noted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ONE = {"Test"}
AT_LEAST_ONE = {"ParameterizedTest", "TestFactory", "TestTemplate"}
REPEATED = "RepeatedTest"
DISABLED = {"Disabled", "Ignore"}
MAX_FILE_BYTES = 2 * 1024 * 1024

_LEXEMES = re.compile(
    r'//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
_TOKENS = re.compile(
    r"(?P<ann>@(?P<aname>[A-Za-z_][\w.]*)(?:\s*\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\))?)"
    r"|(?P<cls>\b(?:class|interface|enum|record)\s+(?P<cname>[A-Za-z_]\w*))"
    r"|(?P<call>\b(?P<mname>[A-Za-z_]\w*)\s*\()"
    r"|(?P<open>\{)|(?P<close>\})|(?P<semi>;)")
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_INT = re.compile(r"(?:^|value\s*=\s*)(\d+)")
_KEYWORDS = {"if", "for", "while", "switch", "catch", "synchronized", "return", "new", "throw",
             "super", "this"}


@dataclass(frozen=True, slots=True)
class JavaTest:
    """One annotated test method; ``class_name`` is Surefire's (``pkg.Outer$Inner``)."""

    class_name: str
    method: str
    file: str  # relative to the folder that was scanned's parent task root, '/' separated
    line: int
    annotation: str
    count: int  # how many tests it stands for (RepeatedTest(n) -> n)
    disabled: bool = False

    @property
    def test_id(self) -> str:
        return f"{self.class_name}::{self.method}"


def strip_comments_and_strings(text: str) -> str:
    """``text`` with comments and string/char literals blanked (newlines kept for line
    numbers; a string keeps its quotes so an annotation's argument list stays balanced)."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        if s.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", s)
        return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
    return _LEXEMES.sub(blank, text)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _repeat_count(args: str | None) -> int:
    m = _INT.search((args or "").strip())
    return max(1, int(m.group(1))) if m else 1


def scan_java_source(text: str, rel: str) -> list[JavaTest]:
    """Test methods declared in one Java source file (``rel`` is recorded as their file)."""
    clean = strip_comments_and_strings(text)
    pkg_m = _PACKAGE.search(clean)
    pkg = pkg_m.group(1) + "." if pkg_m else ""
    out: list[JavaTest] = []
    depth = 0
    classes: list[tuple[str, int, bool]] = []  # (name, depth of its body, disabled)
    pending_class: tuple[str, bool] | None = None
    anns: list[tuple[str, str | None]] = []
    test_ann: tuple[str, str | None, int] | None = None

    def line_of(pos: int) -> int:
        return clean.count("\n", 0, pos) + 1

    for m in _TOKENS.finditer(clean):
        if m.group("ann"):
            name = _short(m.group("aname"))
            if name == "interface":  # an @interface declaration
                pending_class = None
                anns = []
                continue
            anns.append((name, m.group("args")))
            if name in ONE | AT_LEAST_ONE or name == REPEATED:
                test_ann = (name, m.group("args"), line_of(m.start()))
        elif m.group("cls"):
            pending_class = (m.group("cname"), any(a in DISABLED for a, _ in anns))
            anns, test_ann = [], None
        elif m.group("call"):
            if test_ann is not None and m.group("mname") not in _KEYWORDS and classes:
                name, args, _ = test_ann
                count = _repeat_count(args) if name == REPEATED else 1
                disabled = any(a in DISABLED for a, _ in anns) or any(c[2] for c in classes)
                cls = pkg + "$".join(c[0] for c in classes)
                out.append(JavaTest(cls, m.group("mname"), rel, line_of(m.start("mname")),
                                    name, count, disabled))
            anns, test_ann = [], None
        elif m.group("open"):
            depth += 1
            if pending_class is not None:
                classes.append((pending_class[0], depth, pending_class[1]))
                pending_class = None
            anns, test_ann = [], None
        elif m.group("close"):
            if classes and classes[-1][1] == depth:
                classes.pop()
            depth = max(0, depth - 1)
            anns, test_ann = [], None
        elif m.group("semi"):
            anns, test_ann = [], None
    return out


def java_tests(test_root: Path, rel_base: Path | None = None) -> list[JavaTest]:
    """Every test method under ``test_root``; files are recorded relative to ``rel_base``
    (default: ``test_root``)."""
    base = rel_base or test_root
    found: list[JavaTest] = []
    for file in sorted(test_root.rglob("*.java")):
        try:
            if file.stat().st_size > MAX_FILE_BYTES:
                continue
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        try:
            rel = file.relative_to(base).as_posix()
        except ValueError:
            rel = file.name
        found.extend(scan_java_source(text, rel))
    return found


def count_java_tests(test_root: Path) -> int | None:
    """How many tests a JUnit suite declares (None when there is no such folder)."""
    if not test_root.is_dir():
        return None
    return sum(t.count for t in java_tests(test_root))


def java_test_notes(tests: list[JavaTest]) -> list[str]:
    """What a reader of the count should know: disabled tests, parameterized lower bounds."""
    notes = []
    disabled = [t for t in tests if t.disabled]
    if disabled:
        notes.append(f"{sum(t.count for t in disabled)} test(s) disabled (@Disabled/@Ignore): "
                     + ", ".join(t.test_id for t in disabled[:5])
                     + (" …" if len(disabled) > 5 else ""))
    generated = [t for t in tests if t.annotation in AT_LEAST_ONE]
    if generated:
        notes.append(f"{len(generated)} parameterized/dynamic test(s) counted once each; they "
                     "may run more times")
    return notes
