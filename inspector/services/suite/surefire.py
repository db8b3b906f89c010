"""Per-test results from Maven Surefire's XML reports (``target/surefire-reports/TEST-*.xml``).

Surefire 2.22 and 3.x write one ``<testsuite>`` per test class with one ``<testcase name=
classname= time=>`` per test; a ``<failure>``, ``<error>`` or ``<skipped>`` child (with
``message`` and ``type``; the stack trace as text) says how it ended, ``<system-out>`` holds what
it printed, and with reruns ``<flakyFailure>``/``<rerunFailure>`` record the earlier attempts.

Test ids are ``<class>::<method>`` (``com.example.FooTest::bar``, ``tests.ApiTest::
testLogin``, ``pkg.Outer$Inner::case(int)[2]``); ``file`` is the golden test's path relative to
the task folder (``src/test/java/com/example/FooTest.java``) and ``line`` the failing line of the
test class taken from the stack trace, or where the method is declared.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from inspector.model import Outcome, TestCase
from inspector.model.suite.java_tests import JavaTest

MAX_TEXT = 20_000
_FRAME = re.compile(r"^\s*at\s+(?:[\w.$]+/)?(?P<cls>[\w.$]+)\.(?P<meth>[\w$<>]+)"
                    r"\((?P<file>[\w$-]+\.java):(?P<line>\d+)\)", re.M)


class SourceIndex:
    """Where each test class and method of the golden suite is declared."""

    def __init__(self, tests: list[JavaTest] | None = None) -> None:
        self.files: dict[str, str] = {}
        self.lines: dict[tuple[str, str], int] = {}
        for t in tests or []:
            self.files.setdefault(t.class_name, t.file)
            outer = t.class_name.split("$", 1)[0]
            self.files.setdefault(outer, t.file)
            self.lines.setdefault((t.class_name, t.method), t.line)

    def file_of(self, class_name: str) -> str:
        outer = class_name.split("$", 1)[0]
        known = self.files.get(class_name) or self.files.get(outer)
        return known or "src/test/java/" + outer.replace(".", "/") + ".java"

    def declared_line(self, class_name: str, method: str) -> int | None:
        return self.lines.get((class_name, _bare(method)))


def _bare(method: str) -> str:
    """``positive(int)[3]`` -> ``positive``; ``bar{TestInfo}`` -> ``bar``."""
    return re.split(r"[({\[]", method, maxsplit=1)[0].strip()


def failing_line(trace: str, class_name: str) -> int | None:
    """The line of the test class in a stack trace (the outermost frame of that class)."""
    outer = class_name.split("$", 1)[0]
    line = None
    for m in _FRAME.finditer(trace):
        cls = m.group("cls")
        if cls == class_name or cls.split("$", 1)[0] == outer:
            line = int(m.group("line"))
            break
    return line


def test_case(class_name: str, name: str, outcome: Outcome, duration: float | None,
              message: str, trace: str, index: SourceIndex) -> TestCase:
    """One :class:`TestCase` in the Java id/file/line conventions above."""
    line = failing_line(trace, class_name) if outcome.is_failure else None
    if line is None:
        line = index.declared_line(class_name, name)
    return TestCase(id=f"{class_name}::{name}", outcome=outcome, duration_seconds=duration,
                    message=message[:MAX_TEXT], traceback=trace[:MAX_TEXT],
                    file=index.file_of(class_name), line=line)


def _float(value: str | None) -> float | None:
    try:
        return float((value or "").replace(",", "")) if value else None
    except ValueError:
        return None


def parse_surefire_xml(path: Path, index: SourceIndex | None = None) -> list[TestCase]:
    """The test cases of one ``TEST-*.xml``; ``ValueError`` (one line) when it is unusable."""
    index = index or SourceIndex()
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise ValueError(f"{path}: unreadable Surefire XML report ({exc})") from None
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    if not suites:
        raise ValueError(f"{path}: not a Surefire report (no <testsuite>)")
    cases: list[TestCase] = []
    for suite in suites:
        for case in suite.findall("testcase"):
            class_name = case.get("classname") or suite.get("name") or "?"
            name = case.get("name") or "?"
            outcome, message, trace = Outcome.PASSED, "", ""
            notes: list[str] = []
            for child in case:
                tag = child.tag
                if tag in ("failure", "error", "skipped", "rerunFailure", "rerunError"):
                    outcome = {"failure": Outcome.FAILED, "rerunFailure": Outcome.FAILED,
                               "error": Outcome.ERROR, "rerunError": Outcome.ERROR,
                               "skipped": Outcome.SKIPPED}[tag]
                    message = child.get("message") or ""
                    kind = child.get("type") or ""
                    body = (child.text or "").strip("\n")
                    if not message and kind:
                        message = kind
                    trace = body or (f"{kind}: {message}" if kind else "")
                    break
                if tag in ("flakyFailure", "flakyError"):
                    notes.append(f"flaky: failed once before passing ({child.get('type')}: "
                                 f"{child.get('message') or ''})")
            out = case.find("system-out")
            err = case.find("system-err")
            extra = [f"--- {n} ---\n{e.text.strip()}" for n, e in
                     (("stdout", out), ("stderr", err))
                     if e is not None and e.text is not None and e.text.strip()]
            if notes or extra:
                trace = "\n\n".join(p for p in [trace, *notes, *extra] if p)
            cases.append(test_case(class_name, name, outcome, _float(case.get("time")),
                                   message, trace, index))
    return cases


def parse_surefire_reports(folder: Path, index: SourceIndex | None = None
                           ) -> tuple[list[TestCase], list[str]]:
    """Every test case of ``folder/TEST-*.xml`` (sorted by file name) and a note per report
    that could not be read."""
    cases: list[TestCase] = []
    problems: list[str] = []
    for file in sorted(folder.glob("TEST-*.xml")):
        try:
            cases.extend(parse_surefire_xml(file, index))
        except ValueError as exc:
            problems.append(str(exc))
    return cases, problems
