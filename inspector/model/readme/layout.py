"""The layout of a task README as line numbers: code blocks (fenced, and bare JSON written as
plain text), headings (Markdown and plain-text ones), numbered items, list items, tables and
paragraphs. Everything else in the README contract reads the README through this."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED = re.compile(r"^\d+[.)]\s+\S")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
PLAIN_LEVEL = 7  # level given to plain-text headings ("Movie Resources" on its own line)


@dataclass(frozen=True, slots=True)
class Block:
    """A code block: ``start``/``end`` are its first and last README lines (fences included);
    ``body`` its text, whose first line is README line ``first``."""

    start: int
    end: int
    first: int
    body: str
    lang: str = ""
    fenced: bool = True

    @property
    def is_json(self) -> bool:
        text = self.body.lstrip()
        return self.lang.lower() in ("json", "jsonc", "json5") or text[:1] in "{["


@dataclass(slots=True)
class Layout:
    """Line structure of one README (all line numbers 1-based)."""

    lines: list[str]
    code: set[int] = field(default_factory=set)  # lines inside fenced blocks (fences included)
    blocks: list[Block] = field(default_factory=list)
    headings: list[tuple[int, int, str]] = field(default_factory=list)  # (line, level, title)
    numbered: list[int] = field(default_factory=list)  # top-level "1) Title" / "2. Title" lines
    _owner: list[int] = field(default_factory=list)  # per line: index of its block, -1 none

    @classmethod
    def read(cls, text: str) -> Layout:
        lay = cls(text.splitlines())
        lay._scan()
        return lay

    def line(self, no: int) -> str:
        return self.lines[no - 1] if 1 <= no <= len(self.lines) else ""

    def _scan(self) -> None:
        fence: str | None = None
        start, lang = 0, ""
        body: list[str] = []
        skip_to = 0
        plain: list[tuple[int, int, str]] = []
        for no, raw in enumerate(self.lines, 1):
            fm = _FENCE.match(raw)
            if fence is not None:
                self.code.add(no)
                if fm and raw.strip().startswith(fence):
                    self.blocks.append(Block(start, no, start + 1, "\n".join(body), lang))
                    fence = None
                else:
                    body.append(raw)
                continue
            if fm:
                fence, start, lang, body = fm.group(1), no, fm.group(2), []
                self.code.add(no)
                continue
            if no <= skip_to:
                continue
            hm = _HEADING.match(raw)
            if hm:
                self.headings.append((no, len(hm.group(1)), hm.group(2).strip("*_ ")))
            elif self._plain_heading(no):
                plain.append((no, PLAIN_LEVEL, raw.strip()))
            elif _NUMBERED.match(raw):
                self.numbered.append(no)
            bare = self._bare_json(no)
            if bare:
                self.blocks.append(bare)
                skip_to = bare.end
        if fence is not None:  # an unclosed fence runs to the end
            self.blocks.append(Block(start, len(self.lines), start + 1, "\n".join(body), lang))
        if len(self.headings) < 2:  # plain-text titles only where Markdown headings are missing
            self.headings = sorted(self.headings + plain)
        self.blocks.sort(key=lambda b: b.start)
        self._owner = [-1] * (len(self.lines) + 2)
        for i, b in enumerate(self.blocks):
            for n in range(b.start, b.end + 1):
                self._owner[n] = i

    def _plain_heading(self, no: int) -> bool:
        """A short title-like line on its own after a blank line, outside Markdown syntax."""
        text = self.line(no).strip()
        if not text or self.line(no - 1).strip() or no == len(self.lines):
            return False
        if not text[0].isupper() or text[-1] in ".:;,!?" or "`" in text or ":" in text:
            return False
        words = text.split()
        return len(words) <= 6 and len(text) <= 60 and not re.match(r"^[A-Z]+\s+/", text)

    def _bare_json(self, no: int) -> Block | None:
        """JSON written as plain text: a line starting with '{' (or '[' + '{'/'"') up to the
        line where its brackets balance."""
        text = self.line(no).lstrip()
        if not (text.startswith("{") or re.match(r"\[\s*(?:[{\"\[]|$)", text)):
            return None
        depth, quoted, escaped = 0, False, False
        for end in range(no, min(len(self.lines), no + 120) + 1):
            for ch in self.line(end):
                if quoted:
                    escaped = not escaped and ch == "\\"
                    if ch == '"' and not escaped:
                        quoted = False
                    continue
                if ch == '"':
                    quoted = True
                elif ch in "{[":
                    depth += 1
                elif ch in "}]":
                    depth -= 1
            if depth <= 0:
                body = "\n".join(self.lines[no - 1:end])
                return Block(no, end, no, body, "json", fenced=False)
        return None

    # -- queries ---------------------------------------------------------------------------

    def block_at(self, no: int) -> Block | None:
        i = self._owner[no] if 0 <= no < len(self._owner) else -1
        return self.blocks[i] if i >= 0 else None

    def block_before(self, block: Block) -> Block | None:
        """The block right before ``block`` with only blank lines between, if any."""
        i = self._owner[block.start]
        prev = self.blocks[i - 1] if i > 0 else None
        return prev if prev is not None and self.next_block(prev.end) is block else None

    def in_code(self, no: int) -> bool:
        return no in self.code or self.block_at(no) is not None

    def heading_before(self, no: int) -> tuple[int, int, str] | None:
        """The last Markdown or plain heading at or before line ``no``."""
        return next((h for h in reversed(self.headings) if h[0] <= no), None)

    def section_title(self, no: int) -> str:
        h = self.heading_before(no)
        return h[2] if h else ""

    def paragraph(self, no: int) -> tuple[int, int]:
        """The run of non-blank lines around ``no`` (outside code)."""
        a = b = no
        while a > 1 and self.line(a - 1).strip() and not self.in_code(a - 1):
            a -= 1
        while b < len(self.lines) and self.line(b + 1).strip() and not self.in_code(b + 1):
            b += 1
        return a, b

    def item(self, no: int) -> tuple[int, int]:
        """A list item or table row and its more indented continuation lines."""
        raw = self.line(no)
        indent = len(raw) - len(raw.lstrip())
        b = no
        while b < len(self.lines):
            nxt = self.line(b + 1)
            if not nxt.strip() or len(nxt) - len(nxt.lstrip()) <= indent or nxt.lstrip()[:1] == "|":
                break
            b += 1
        return no, b

    def is_item(self, no: int) -> bool:
        raw = self.line(no)
        return bool(_BULLET.match(raw)) or raw.lstrip().startswith("|")

    def next_block(self, no: int) -> Block | None:
        """The code block starting right after line ``no`` (only blank lines between)."""
        n = no + 1
        while n <= len(self.lines) and not self.line(n).strip():
            n += 1
        b = self.block_at(n)
        return b if b and b.start == n else None

    def label(self, block: Block) -> tuple[int, str]:
        """The text introducing ``block``: up to two non-blank lines right before it
        (stopping at another block), as (line of the nearest, joined text)."""
        got: list[str] = []
        first = 0
        n = block.start - 1
        while n >= 1 and len(got) < 2:
            raw = self.line(n)
            if not raw.strip():
                if got:
                    break
                n -= 1
                continue
            if self.in_code(n):
                break
            got.insert(0, raw.strip())
            first = first or n
            if _HEADING.match(raw) or self.is_item(n):
                break
            n -= 1
        return first, " ".join(got)

    def parent(self, no: int) -> tuple[int, str]:
        """The nearest line above ``no`` with less indentation (the list item it belongs to)."""
        raw = self.line(no)
        indent = len(raw) - len(raw.lstrip())
        for n in range(no - 1, 0, -1):
            up = self.line(n)
            if up.strip() and len(up) - len(up.lstrip()) < indent:
                return n, up.strip()
        return 0, ""


def table_cells(raw: str) -> list[str]:
    """The cells of a Markdown table row ('\\|' kept inside a cell)."""
    parts = re.split(r"(?<!\\)\|", raw.strip().strip("|"))
    return [p.strip().replace("\\|", "|") for p in parts]


def is_rule_row(raw: str) -> bool:
    return bool(re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", raw)) and "-" in raw


def code_spans(raw: str) -> list[tuple[int, str]]:
    """Inline code spans of a line as (offset, text)."""
    return [(m.start(1), m.group(1)) for m in re.finditer(r"`([^`]+)`", raw)]
