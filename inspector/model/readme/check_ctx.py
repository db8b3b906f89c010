"""The context of one README check: the expectation, the contract, the README endpoint the
test's request goes to, and the helpers that cite README lines in a reason."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from inspector.model.failures.facts import CONTAINS, EXCEPTION, KEY, Expectation
from inspector.model.readme.contract_types import (
    SILENT,
    UNKNOWN,
    EndpointContract,
    FieldSpec,
    Mention,
    SpecCheck,
)

if TYPE_CHECKING:
    from inspector.model.readme.contract import ReadmeContract

RESPONSE_SIDE = ("response", "error", "")


def quote(value: Any) -> str:
    """A value as a reason quotes it: 'text', true, null, 201."""
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


class Ctx:
    """One expectation, the contract, and the README endpoint its request goes to."""

    def __init__(self, exp: Expectation, contract: ReadmeContract) -> None:
        self.exp = exp
        self.c = contract
        req = exp.request
        self.ep: EndpointContract | None = None
        self.others: list[EndpointContract] = []
        if req is not None and req.path:
            self.ep = contract.endpoint_for(req.method, req.path)
            self.others = contract.endpoints_at(req.path) if self.ep is None else []
        self.got = f"; the service returned {quote(exp.actual)}" if exp.actual is not None else ""

    # -- helpers ------------------------------------------------------------------------------

    def cite(self, mentions: list[Mention] | tuple[Mention, ...]) -> str:
        """'README.md:12, 40' for the mentions' lines (at most four)."""
        lines = sorted({m.line for m in mentions})
        if not lines:
            return self.c.name
        return f"{self.c.name}:{', '.join(str(n) for n in lines[:4])}"

    def where(self, ep: EndpointContract | None = None) -> str:
        """'POST /x (section lines 14-41)'."""
        ep = ep or self.ep
        return f"{ep.key} (section lines {ep.start}-{ep.end})" if ep else "the README"

    def result(self, verdict: str, reason: str, mentions: list[Mention] | tuple[Mention, ...] = ()
               ) -> SpecCheck:
        return SpecCheck(verdict, reason, tuple(mentions), self.ep.key if self.ep else None)

    def ep_mention(self, ep: EndpointContract) -> Mention:
        return Mention(ep.line, self.c.text_of(ep.line), ep.key)

    def undocumented(self) -> SpecCheck | None:
        """Silent when the request goes to an endpoint the README does not document."""
        req = self.exp.request
        if req is None or self.ep is not None:
            return None
        if not self.c.endpoints:
            return self.result(UNKNOWN, f"{self.c.name}: no endpoint could be read from the "
                               "README, so the request cannot be placed")
        if self.others:
            other = self.others[0]
            methods = ", ".join(sorted({e.method for e in self.others}))
            return self.result(SILENT, f"{self.c.name}:{other.line} documents {methods} "
                               f"{other.path} but not {req.method} on it", [
                                   self.ep_mention(other)])
        return self.result(SILENT, f"{self.c.name} documents no endpoint {req.method} "
                           f"{req.path}")

    def paths(self) -> list[str]:
        """JSON paths the expectation is about: for a key, json_path + the key (json_path
        alone when it already ends with it); otherwise json_path."""
        exp = self.exp
        leaf = exp.expected if isinstance(exp.expected, str) and exp.kind in (
            KEY, CONTAINS, EXCEPTION) and re.fullmatch(r"[A-Za-z_$][\w$-]*", exp.expected) \
            else ""
        if not leaf:
            return [exp.json_path] if exp.json_path else []
        if not exp.json_path or re.search(rf"(^|\.){re.escape(leaf)}$", exp.json_path):
            return [exp.json_path or leaf]
        return [f"{exp.json_path}.{leaf}"]

    def best(self, paths: list[str], roles: tuple[str, ...] | None = RESPONSE_SIDE
              ) -> tuple[FieldSpec, int, str] | None:
        """The best (field, level, scope) for any of ``paths`` (see
        :meth:`~.readme_contract.ReadmeContract.field_matches`)."""
        got = [m for p in paths for m in self.c.field_matches(p, self.ep, roles)]
        rank = {"endpoint": 0, "global": 1, "other": 2}
        got.sort(key=lambda x: (rank[x[2]], -x[1]))
        return got[0] if got else None

    def describe(self, f: FieldSpec) -> str:
        typ = f" ({f.type})" if f.type else ""
        return f"{f.path}{typ}"

