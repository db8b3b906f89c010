"""Per-test results from the JUnit XML pytest writes (``-o junit_family=xunit1``).

JUnit names tests relative to pytest's rootdir; given that rootdir and the folder pytest ran
in (the repo root), ids and files are made relative to the repo root, so a suite with its own
``tests/pytest.ini`` (rootdir ``tests/``) still gets ``tests/test_x.py::test_y``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from inspector.model import Outcome, TestCase
from inspector.model.suite.testids import relocate_id, rootdir_relative_to_repo

MAX_TEXT = 20_000


def _node_id(case: ET.Element) -> tuple[str, str | None]:
    name = case.get("name", "")
    classname = case.get("classname", "")
    file = case.get("file")
    if not classname and file:
        # a collection error: pytest's own node id is the test file itself
        return file, file
    if file:
        module = file[:-3].replace("/", ".") if file.endswith(".py") else file
        rest = classname[len(module):].lstrip(".") if classname.startswith(module) else ""
        parts = [file] + ([p for p in rest.split(".") if p]) + [name]
        return "::".join(parts), file
    if classname:
        bits = classname.split(".")
        return "/".join(bits) + ".py::" + name, "/".join(bits) + ".py"
    # collection errors: name is the dotted module, classname empty
    return name.replace(".", "/") + ".py", name.replace(".", "/") + ".py"


def parse_junit(path: Path, rootdir: str | None = None, cwd: str | None = None
                ) -> tuple[list[TestCase], int]:
    """Test cases from a JUnit XML file and the number of collection errors.

    ``rootdir`` and ``cwd`` are pytest's rootdir and working folder (absolute, as seen by the
    machine that ran pytest); ids are made relative to ``cwd`` when both are given.
    Raises ``ValueError`` with a one-line reason when the file is not usable.
    """
    try:
        tree = ET.parse(path)
    except (ET.ParseError, OSError) as exc:
        raise ValueError(f"{path}: unreadable JUnit XML ({exc})") from None
    cases: list[TestCase] = []
    collection_errors = 0
    for case in tree.iter("testcase"):
        if not case.get("name") and not case.get("classname") and not case.get("file"):
            continue  # pytest.exit() inside a test leaves an empty <testcase/>
        test_id, file = _node_id(case)
        test_id = relocate_id(test_id, rootdir, cwd)
        file = rootdir_relative_to_repo(file, rootdir, cwd) if file else file
        outcome = Outcome.PASSED
        message = ""
        text = ""
        for child in case:
            tag = child.tag
            if tag in ("failure", "error", "skipped"):
                outcome = {"failure": Outcome.FAILED, "error": Outcome.ERROR,
                           "skipped": Outcome.SKIPPED}[tag]
                message = (child.get("message") or "")[:MAX_TEXT]
                text = (child.text or "")[:MAX_TEXT]
                break
        if outcome is Outcome.ERROR and not case.get("classname") and \
                message.startswith("collection failure"):
            collection_errors += 1
        try:
            duration = float(case.get("time", "") or 0)
        except ValueError:
            duration = None
        line = case.get("line")
        cases.append(TestCase(
            id=test_id, outcome=outcome, duration_seconds=duration, message=message,
            traceback=text, file=file,
            line=int(line) + 1 if line and line.isascii() and line.isdigit() else None,
        ))
    return cases, collection_errors
