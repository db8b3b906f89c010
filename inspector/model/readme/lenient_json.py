"""A forgiving reader for the JSON that task READMEs write: real JSON, JSON with comments
(``// "ONLINE", "OFFLINE"``), bare type names (``"id": integer``, ``<int>``, ``string|null``),
ellipses (``{...}``, ``"...": "..."``) and trailing commas. It never raises: what cannot be
read is skipped. Every key and value keeps its README line number."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"?)
  | (?P<punct>[{}\[\]:,])
  | (?P<bare>[^\s{}\[\]:,"]+(?:[ \t]+[^\s{}\[\]:,"/]+)*)
  | (?P<newline>\n)
  | (?P<space>[ \t\r]+)
""", re.X | re.S)


@dataclass(slots=True)
class Node:
    """A parsed value: an object (``entries``), an array (``items``) or a scalar (``text``)."""

    kind: str  # "object" | "array" | "scalar"
    line: int
    entries: list[tuple[str, int, Node]] = field(default_factory=list)  # (key, key line, value)
    items: list[Node] = field(default_factory=list)
    text: str = ""  # scalar text, quotes removed
    quoted: bool = False
    comment: str = ""  # a // comment on the value's line

    def get(self, key: str) -> Node | None:
        return next((v for k, _, v in self.entries if k == key), None)


def _unquote(tok: str) -> str:
    body = tok[1:-1] if len(tok) >= 2 and tok.endswith('"') else tok[1:]
    return re.sub(r"\\(.)", r"\1", body)


class _Parser:
    def __init__(self, text: str, first_line: int) -> None:
        self.toks: list[tuple[str, str, int]] = []  # (kind, text, line)
        self.comments: dict[int, str] = {}
        line = first_line
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup or ""
            tok = m.group(0)
            if kind == "newline":
                line += 1
            elif kind == "comment":
                self.comments[line] = (self.comments.get(line, "") + " " + tok.strip("/* ")).strip()
                line += tok.count("\n")
            elif kind != "space":
                self.toks.append((kind, tok, line))
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def value(self, depth: int = 0) -> Node | None:
        tok = self.peek()
        if tok is None:
            return None
        kind, text, line = tok
        self.i += 1  # always consume: callers loop until a closing bracket
        if depth > 40:
            return None
        if text == "{":
            return self._object(line, depth)
        if text == "[":
            return self._array(line, depth)
        if kind == "string":
            return Node("scalar", line, text=_unquote(text), quoted=True,
                        comment=self.comments.get(line, ""))
        if kind == "bare":
            return Node("scalar", line, text=text.rstrip(), comment=self.comments.get(line, ""))
        return None  # stray ':' ',' '}' ']'

    def _object(self, line: int, depth: int) -> Node:
        node = Node("object", line, comment=self.comments.get(line, ""))
        while (tok := self.peek()) is not None:
            kind, text, kline = tok
            if text == "}":
                self.i += 1
                break
            if text == "]":  # mismatched: let the caller close
                break
            if text == ",":
                self.i += 1
                continue
            if kind not in ("string", "bare"):
                self.value(depth + 1)  # a value without a key: read and drop
                continue
            self.i += 1
            key = _unquote(text) if kind == "string" else text
            nxt = self.peek()
            if nxt is not None and nxt[1] == ":":
                self.i += 1
                val = self.value(depth + 1) or Node("scalar", kline)
                node.entries.append((key, kline, val))
            # a key without ':' ('...' in '{...}') is dropped
        return node

    def _array(self, line: int, depth: int) -> Node:
        node = Node("array", line, comment=self.comments.get(line, ""))
        while (tok := self.peek()) is not None:
            text = tok[1]
            if text == "]":
                self.i += 1
                break
            if text == "}":
                break
            if text in ",:":
                self.i += 1
                continue
            val = self.value(depth + 1)
            if val is not None and not (val.kind == "scalar" and val.text in ("...", "…")):
                node.items.append(val)
        return node


def parse_json(text: str, first_line: int = 1) -> Node | None:
    """The first JSON value in ``text`` (README line ``first_line`` is its first line)."""
    parser = _Parser(text, first_line)
    while (tok := parser.peek()) is not None and tok[1] not in "{[":
        parser.i += 1
    return parser.value()
