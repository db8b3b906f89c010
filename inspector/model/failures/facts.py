"""What a failing test expected and what came back, read from the failing assertion.

:class:`Expectation` is extracted from pytest's assertion message and traceback, the golden
test's source (its AST at the failing line) and the request the test made before it. It is the
input of the README check (:mod:`inspector.model.readme.contract`): a status code, a JSON path,
a literal or a type the test demanded, compared with what the README specifies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Kinds of expectation.
STATUS = "status"  # an HTTP status code: expected 201, got 409
KEY = "key"  # a JSON key / path must exist (KeyError: 'data', assert 'id' in body)
VALUE = "value"  # a JSON value must equal a literal (body["token_type"] == "bearer")
CONTAINS = "contains"  # a literal must appear in a text (assert 'required' in msg)
TYPE = "type"  # a value's type (isinstance(x, int))
HEADER = "header"  # a response header (Access-Control-Allow-Origin)
LENGTH = "length"  # a collection's size (len(items) == 3)
TRUTH = "truth"  # a bare truth test of a computed value (assert ok, assert x is True)
COMPARISON = "comparison"  # an ordering (<, <=, >, >=), e.g. a timing or rate threshold
CONNECTION = "connection"  # the test could not reach the service at all
EXCEPTION = "exception"  # an exception raised before any assertion (in the test or a fixture)
UNKNOWN = "unknown"
KINDS = (STATUS, KEY, VALUE, CONTAINS, TYPE, HEADER, LENGTH, TRUTH, COMPARISON, CONNECTION,
         EXCEPTION, UNKNOWN)

# Where the failing frame is.
IN_TEST = "test"  # the test function's own body
IN_FIXTURE = "fixture"  # a fixture / setup of the suite (conftest, setup_method)
IN_HELPER = "helper"  # another function of the suite's files
IN_LIBRARY = "library"  # inside a library the test called (requests, json)
IN_REPO = "repo"  # inside the generated repo's code (white-box suites)


@dataclass(frozen=True, slots=True)
class RequestFact:
    """The HTTP request the test made before the failing line (as written in the test)."""

    method: str  # GET, POST, … (upper case)
    path: str  # URL path as far as it is known statically ("/api/v1/users/{}" for f-strings)
    line: int  # line in ``file`` (0 when only the error message named the request)
    body_keys: tuple[str, ...] = ()  # top-level keys of a literal json= body, when literal
    source: str = ""  # the call's source text (one line, clipped)
    file: str | None = None  # suite-relative file the call is in (a conftest for a fixture)


@dataclass(frozen=True, slots=True)
class Expectation:
    """The failing check of one test: what it demanded and what it got."""

    kind: str  # one of KINDS
    expected: Any = None  # 201, "Bearer", "required", "data", "int", … (a tuple: any of them)
    actual: Any = None  # 409, "bearer", "validation failed", … (None when unknown)
    json_path: str | None = None  # "data.token_type" when the check is on a response field
    request: RequestFact | None = None  # the request whose response was checked
    test_file: str | None = None  # suite-relative file of the failing line ("tests/conftest.py")
    line: int | None = None  # the failing line in test_file
    statement: str = ""  # the failing statement's source (one line, clipped)
    where: str = IN_TEST  # IN_TEST / IN_FIXTURE / IN_HELPER / IN_LIBRARY / IN_REPO
    exception: str | None = None  # exception type when kind is EXCEPTION/CONNECTION/KEY
    function: str | None = None  # the test (or fixture) function the line is in
    negated: bool = False  # "assert x not in y" / "!="
    op: str | None = None  # the check's operator: "==", "in", ">=", "is", … (observed on the left)
    header: str | None = None  # the header's name when kind is HEADER
    message: str = ""  # the assertion's own message or the exception's text (one line, clipped)
