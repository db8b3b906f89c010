"""The fields of one README, read from its code blocks (JSON, JSON Schema, example requests,
field lists), inline JSON, list items and tables, each assigned to the endpoints whose lines it
is on (or whose "Interface Name" its block's label gives)."""

from __future__ import annotations

import re
from dataclasses import replace

from inspector.model.readme.contract_types import (
    ERROR,
    REQUEST,
    RESPONSE,
    EndpointContract,
    FieldSpec,
)
from inspector.model.readme.fields import FieldReader, role_of
from inspector.model.readme.layout import Block, Layout, code_spans, is_rule_row, table_cells
from inspector.model.readme.lenient_json import parse_json
from inspector.model.readme.sections import METHODS

_HTTP_FIRST = re.compile(rf"^\s*(?:{'|'.join(METHODS)})\s+/\S*\s+HTTP/", re.M)
_NAME_LABEL = re.compile(
    r"\b(?:interface|operation|api|endpoint)?\s*(?:name|id)\b\W{0,4}:\W{0,4}`?([A-Za-z][\w-]{3,})",
    re.I)


def collect_fields(lay: Layout, eps: list[EndpointContract]) -> list[FieldSpec]:
    """Every documented field of the README laid out as ``lay``, in line order."""
    return _Fields(lay, eps).collect()


class _Fields:
    """Collects the fields of one README and assigns them to endpoints."""

    def __init__(self, lay: Layout, eps: list[EndpointContract]) -> None:
        self.lay = lay
        self.eps = eps
        self.reader = FieldReader(lay.lines)
        self.out: list[FieldSpec] = []
        self.names = {e.key: self._names(e) for e in eps}

    def _names(self, e: EndpointContract) -> set[str]:
        got = set()
        for no in range(e.start, e.end + 1):
            for m in _NAME_LABEL.finditer(self.lay.line(no)):
                if m.group(1).upper() not in METHODS:
                    got.add(m.group(1))
        return got

    def _owners(self, line: int, label: str) -> tuple[str, ...]:
        owners = tuple(e.key for e in self.eps if e.covers(line))
        if not owners and label:
            owners = tuple(k for k, names in self.names.items()
                           if any(re.search(rf"\b{re.escape(n)}\b", label) for n in names))
        return owners

    def _take(self, label: str) -> None:
        """Move the fields just read to the output, each owned by the endpoints covering its
        line (or named by ``label``)."""
        self.out += [replace(f, endpoints=self._owners(f.line, label)) for f in self.reader.fields]
        self.reader.fields = []

    def collect(self) -> list[FieldSpec]:
        for block in self.lay.blocks:
            self._block(block)
        for no in range(1, len(self.lay.lines) + 1):
            if not self.lay.in_code(no):
                self._line(no)
        self._tables()
        return sorted(self.out, key=lambda f: f.line)

    def _block_role(self, block: Block) -> tuple[str, str, bool, bool]:
        """(role, label, example, schema) of a block: an example's literals are examples, a
        block labelled as a schema states its literals."""
        lay = self.lay
        near, label = lay.label(block)
        example = bool(re.search(r"\bexamples?\b", label, re.I))
        role = role_of(lay.line(near)) or role_of(label)
        schema = bool(re.search(r"\bschema\b|\bformat\b", label, re.I)) and not example
        if not role and re.search(r"\berror", lay.section_title(block.start), re.I):
            role = ERROR
        prev = lay.block_before(block)
        if not label and prev is not None and (_HTTP_FIRST.search(prev.body) or "curl" in
                                                prev.body):
            role, example = RESPONSE, True  # the response shown after an example request
        if re.search(r"\bexamples?\b", lay.section_title(block.start), re.I):
            example, schema = True, False
        return role, label, example, schema

    def _block(self, block: Block) -> None:
        role, label, example, schema = self._block_role(block)
        body = block.body
        if block.is_json:
            node = parse_json(body, block.first)
            if node is not None:
                self.reader.read_tree(node, role, example, schema)
        elif _HTTP_FIRST.search(body) or re.search(r"^\s*(\$\s*)?curl\b", body, re.M):
            brace = body.find("{")
            if brace >= 0:  # the request body of an example request
                node = parse_json(body[brace:], block.first + body[:brace].count("\n"))
                if node is not None:
                    self.reader.read_tree(node, REQUEST, example=True)
        else:
            for i, raw in enumerate(body.splitlines()):
                self.reader.read_field_line(block.first + i, raw, role or REQUEST)
        self._take(label)

    def _line(self, no: int) -> None:
        lay = self.lay
        raw = lay.line(no)
        table = raw.lstrip().startswith("|")
        for off, span in code_spans(raw):
            s = span.strip()
            if not (s.startswith("{") or re.match(r"\[\s*[{\"]", s)):
                continue
            node = parse_json(s, no)
            if node is None:
                continue
            prefix = re.sub(r"`[^`]*`", " ", raw[:off])
            role = self._table_role(no) if table else role_of(prefix)
            if not role and not table and lay.is_item(no):
                role = role_of(lay.parent(no)[1])
            self.reader.read_tree(node, role)
            self._take("")
        if lay.is_item(no) and not table:
            role = role_of(self._context(no))
            if self.reader.read_field_line(no, raw, role):
                self._take("")

    def _context(self, no: int) -> str:
        """The text a list item's field belongs to: its parent item, or the label above."""
        lay = self.lay
        up, text = lay.parent(no)
        if up and lay.is_item(up):
            return text
        n = no - 1
        while n > 0 and (lay.is_item(n) or not lay.line(n).strip()) and no - n < 30:
            n -= 1
        return lay.line(n) if n > 0 and not lay.in_code(n) else ""

    def _table_role(self, no: int) -> str:
        lay = self.lay
        n = no
        while n > 1 and lay.line(n - 1).lstrip().startswith("|"):
            n -= 1
        head = " ".join(table_cells(lay.line(n)))
        if re.search(r"\berror", lay.section_title(no), re.I) or re.search(r"\bstatus\b", head,
                                                                            re.I):
            return ERROR
        return role_of(head)

    def _tables(self) -> None:
        lay = self.lay
        rows: list[tuple[int, list[str]]] = []
        for no in range(1, len(lay.lines) + 2):
            raw = lay.line(no)
            if raw.lstrip().startswith("|") and not lay.in_code(no):
                if not is_rule_row(raw):
                    rows.append((no, table_cells(raw)))
                continue
            if rows:
                title = lay.section_title(rows[0][0])
                role = role_of(title) or role_of(lay.line(rows[0][0] - 2))
                self.reader.read_table(rows, role)
                self._take(title)
                rows = []

