"""Does the README state what a failing test expected? :func:`check` compares one
:class:`~.failure_facts.Expectation` with a :class:`~.readme_contract.ReadmeContract`.

Rules (about README structure and HTTP semantics, never about particular tasks):

* **status**: the expected code listed in the endpoint's lines, or globally (an errors table,
  "Common HTTP status codes") -> specified; a documented endpoint answering 5xx (or 405, or 404
  on a route without parameters) where the test expects 2xx -> specified (the README promises
  the endpoint works); the README giving a sibling code for the same situation (another 2xx,
  400 vs 422, 401 vs 403) -> contradicted; otherwise silent (saying which codes it lists).
* **key**: a field documented in the endpoint's response (or a global one: error format, named
  types) -> specified; only in another endpoint's or the request's schema -> silent.
* **value**: a fixed value, enum or schema literal equal to the expectation -> specified; the
  same value in another case or spelling, or another value -> contradicted; examples and
  defaults are not promises (unknown).
* **contains**: specified only if the README gives a literal containing the text.
* **type**: the declared type compatible -> specified; incompatible -> contradicted.
* **header**: specified only if the README mentions the header (CORS for Access-Control-*).
"""


from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.model.failures.facts import (
    CONTAINS,
    EXCEPTION,
    HEADER,
    KEY,
    LENGTH,
    STATUS,
    TRUTH,
    TYPE,
    VALUE,
    Expectation,
)
from inspector.model.readme.check_ctx import Ctx
from inspector.model.readme.check_fields import contains, header, key, length, truth, type_, value
from inspector.model.readme.check_status import status
from inspector.model.readme.contract_types import UNKNOWN, SpecCheck

if TYPE_CHECKING:
    from inspector.model.readme.contract import ReadmeContract

_HANDLERS = {STATUS: status, KEY: key, VALUE: value, CONTAINS: contains, TYPE: type_,
             HEADER: header, LENGTH: length, TRUTH: truth}


def check(expectation: Expectation, contract: ReadmeContract) -> SpecCheck:
    """What ``contract`` says about ``expectation`` (see the module docstring)."""
    x = Ctx(expectation, contract)
    kind = expectation.kind
    if kind == EXCEPTION and expectation.exception == "KeyError" and isinstance(
            expectation.expected, str):
        kind = KEY  # KeyError: 'data' is a missing key
    handler = _HANDLERS.get(kind)
    if handler is None:
        return x.result(UNKNOWN, f"a {kind} failure is not something the README can state")
    return handler(x)
