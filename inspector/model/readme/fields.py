"""Documented JSON fields read from the shapes READMEs give them in.

* schema blocks whose values are type names with notes: ``"username": "string (required,
  3-20 characters)"``, ``"token_type": "string (fixed value: 'Bearer')"``, ``"role":
  "USER|ADMIN"``, ``"status": "string", // "ONLINE", "OFFLINE"``;
* JSON Schema (``properties``, ``required``, ``enum``, ``const``, ``minLength``...);
* examples and literals (``{"status": "ok"}``, ``"status": "QUEUED"``);
* field lines: ``- `firstname: string` ``, ``page: integer (optional, default: 1)``;
* field tables (a name column and a type column).

Fields are :class:`~.contract_types.FieldSpec` without an endpoint; the contract assigns them.
"""

from __future__ import annotations

import re

from inspector.model.readme.contract_types import (
    DEFAULT,
    ENUM,
    ERROR,
    EXAMPLE,
    FIXED,
    LITERAL,
    QUERY,
    REQUEST,
    RESPONSE,
    FieldSpec,
)
from inspector.model.readme.lenient_json import Node

TYPE_WORDS = {
    "string": "string", "str": "string", "text": "string", "char": "string",
    "integer": "integer", "int": "integer", "long": "integer", "int32": "integer",
    "int64": "integer", "number": "number", "float": "number", "double": "number",
    "decimal": "number", "numeric": "number", "boolean": "boolean", "bool": "boolean",
    "object": "object", "dict": "object", "map": "object", "array": "array", "list": "array",
    "null": "null", "any": "any", "file": "file", "file[]": "array", "uuid": "string",
    "date": "string", "datetime": "string", "timestamp": "integer", "binary": "file",
}
_TYPE_PART = r"<?[A-Za-z][\w\[\]]*>?(?:\[\])?"
_TYPE_LEAD = re.compile(rf"^\s*(?P<type>{_TYPE_PART}(?:\s*\|\s*{_TYPE_PART})*)"
                        r"(?P<rest>(?:\s*[(\-–—,;:/]|\s*$).*)$", re.S)
_DATA_LIKE = re.compile(
    r"^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\d{4}-\d\d-\d\d.*|https?://\S*|\S+@\S+\.\w+|"
    r"[\w.-]*\d[\w.-]*)$")
_PLACEHOLDER = re.compile(r"^<.*>$|\bdescription\b|^[a-z]+_(name|id|code|value|text)$|^\.\.\.|xxx|"
                          r"^(value|text|message|string)\d*$", re.I)
_QUOTED = re.compile(r"\"([^\"]*)\"|'([^']*)'|`([^`]*)`")
_NOTE_START = r"^(required|optional|default|fixed|const|values?\b|one of|enum|e\.g\.|max|min)"
_CONSTRAINTISH = (r"\d|format|characters?\b|chars\b|length|valid|unique|must|between|range|"
                  r"uuid|iso|email|positive|negative|empty|\bmin|\bmax|at least|at most|"
                  r"pattern|alphanumeric|lower|upper")
_SCHEMA_KEYS = ("minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
                "exclusiveMaximum", "minItems", "maxItems", "pattern", "format", "multipleOf")
_ROLE_WORDS = (
    (ERROR, re.compile(r"\berror|\bfail", re.I)),
    (QUERY, re.compile(r"\bquery\b|\bpath param|\burl param|\bparameters?\b", re.I)),
    (REQUEST, re.compile(r"\b(input|request|body|payload|send)\b", re.I)),
    (RESPONSE, re.compile(r"\b(output|response|returns?|returned|result|success|reply)\b", re.I)),
)


def role_of(label: str) -> str:
    """The role a label gives the schema it introduces ('' when it says nothing)."""
    for role, pattern in _ROLE_WORDS:
        if pattern.search(label):
            return role
    return ""


def type_word(text: str) -> str:
    """The normalised type of ``text`` when it is one type name or a '|' union ('' if not)."""
    parts = [p.strip().strip("<>").lower() for p in text.split("|")]
    if not parts or not all(p in TYPE_WORDS or p.rstrip("[]") in TYPE_WORDS for p in parts):
        return ""
    return "|".join(TYPE_WORDS.get(p, "array") for p in parts)


def _split_notes(notes: str) -> list[str]:
    """Comma-separated notes, keeping 'values: a, b, c' and quoted lists together."""
    out: list[str] = []
    for part in re.split(r",\s*(?=(?:[^'\"]*['\"][^'\"]*['\"])*[^'\"]*$)", notes):
        part = part.strip()
        if out and re.match(r"^(values?|one of|enum|e\.g\.?|eg|for example)\b", out[-1], re.I) \
                and not re.match(r"^(required|optional|default|max|min)\b", part, re.I):
            out[-1] += ", " + part
        elif part:
            out.append(part)
    return out


def _values(text: str) -> list[str]:
    quoted = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text)]
    if quoted:
        return quoted
    return [v.strip() for v in re.split(r"\s*(?:,|\||\bor\b)\s*", text) if v.strip()]


class Annotation:
    """What a value written as text says: type, required, notes, values."""

    def __init__(self) -> None:
        self.type = ""
        self.required: bool | None = None
        self.constraints: list[str] = []
        self.values: list[str] = []
        self.value_kind = ""

    def set_values(self, values: list[str], kind: str) -> None:
        rank = (FIXED, ENUM, LITERAL, DEFAULT, EXAMPLE)
        if values and (not self.values or rank.index(kind) < rank.index(self.value_kind)):
            self.values, self.value_kind = values, kind

    def read_notes(self, notes: str) -> None:
        """Notes in parentheses, after ' - ' or in a comment."""
        for group in re.findall(r"\(([^()]*)\)", notes):
            for part in _split_notes(group):
                self._note(part)
        rest = re.sub(r"\([^()]*\)", " ", notes).strip(" -–:;,")
        if not rest:
            return
        if re.match(_NOTE_START, rest, re.I):
            for part in _split_notes(rest):
                self._note(part)
        else:
            self._prose(rest)

    def _note(self, part: str) -> None:
        low = part.lower().strip()
        m = re.match(r"^(fixed(?: value)?|const(?:ant)?|always|must be|equals?)\s*[:=]?\s*(.+)$",
                     part, re.I)
        if low in ("required", "mandatory"):
            self.required = True
        elif low == "optional":
            self.required = False
        elif m:
            self.set_values(_values(m.group(2)), FIXED)
        elif re.match(r"^(values?|one of|enum|allowed|possible values?)\b", low):
            values = re.sub(r"^[^:]*?(?::|\bof\b\s*:?)\s*", "", part, count=1)
            self.set_values(_values(values), ENUM)
        elif re.match(r"^(e\.g\.?|eg|for example|example|such as)\b", low):
            self.set_values(_values(re.sub(r"^[^,:]*[,:]?\s*", "", part, count=1)), EXAMPLE)
        elif re.match(r"^default\b", low):
            self.set_values(_values(re.sub(r"^default\s*[:=]?\s*", "", part, flags=re.I)),
                            DEFAULT)
            self.constraints.append(part)
        elif low.startswith(("required", "optional")):
            self.required = low.startswith("required")
            if rest := part.split(None, 1)[1:]:
                self.constraints.append(rest[0].strip(" ,:"))
        elif low:
            self.constraints.append(part.strip())

    def _prose(self, text: str) -> None:
        if re.search(r"\boptional\b", text, re.I):
            self.required = False
        elif re.search(r"\brequired\b", text, re.I):
            self.required = True
        quoted = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text)]
        default = re.search(r"\bdefaults?(?: to| is)?\s*[:=]?\s*([^\s,;]+)", text, re.I)
        if default:
            self.set_values([quoted[0] if quoted else default.group(1).strip("'\"`")], DEFAULT)
        elif quoted and re.search(r"\be\.g\.|\bexample|\bsuch as", text, re.I):
            self.set_values(quoted, EXAMPLE)
        elif quoted:
            self.set_values(quoted, ENUM)
        if re.search(_CONSTRAINTISH, text, re.I):
            self.constraints.append(text.strip())


def annotate(node: Node, schema_like: bool) -> Annotation:
    """Read a scalar written in a schema block. ``schema_like``: the block gives types for
    other fields, so a bare literal there states the value (LITERAL), not an example."""
    ann = Annotation()
    text = node.text.strip()
    m = _TYPE_LEAD.match(text)
    kind = type_word(m.group("type")) if m else ""
    if kind and m:
        ann.type = kind
        rest = m.group("rest").strip()
        if rest:
            ann.read_notes(rest)
    elif not node.quoted and text.lower() in ("true", "false", "null"):
        ann.type = "boolean" if text.lower() != "null" else "null"
        ann.set_values([text.lower()], LITERAL if schema_like else EXAMPLE)
    elif not node.quoted and re.fullmatch(r"-?\d+(\.\d+)?", text):
        ann.type = "integer" if "." not in text else "number"
        ann.set_values([text], EXAMPLE)
    elif "|" in text and re.fullmatch(r"[\w.-]+(\s*\|\s*[\w.-]+)+", text):
        ann.type = "string"
        ann.set_values([v.strip() for v in text.split("|")], ENUM)
    elif text and text not in ("...", "…"):
        ann.type = "string" if node.quoted else ""
        data = _DATA_LIKE.match(text) or _PLACEHOLDER.search(text)
        ann.set_values([text], EXAMPLE if data or not schema_like else LITERAL)
    if node.comment:
        ann.read_notes(node.comment)
    return ann


def _schema_like(node: Node) -> bool:
    """True when some scalar of the tree is a type name (a schema, not an example)."""
    if node.kind == "scalar":
        m = _TYPE_LEAD.match(node.text)
        return bool(m and type_word(m.group("type")))
    kids = [v for _, _, v in node.entries] if node.kind == "object" else node.items
    return any(_schema_like(k) for k in kids)


def _is_json_schema(node: Node) -> bool:
    props = node.get("properties")
    return node.kind == "object" and (
        (props is not None and props.kind == "object")
        or (node.get("$schema") is not None)
        or (node.get("type") is not None and node.get("items") is not None))


class FieldReader:
    """Collects fields from parsed blocks, lines and tables (``lines`` are the README's)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.fields: list[FieldSpec] = []

    def _text(self, line: int) -> str:
        return self.lines[line - 1].strip()[:200] if 1 <= line <= len(self.lines) else ""

    def add(self, path: str, line: int, role: str, ann: Annotation | None = None,
            type_: str = "") -> None:
        ann = ann or Annotation()
        self.fields.append(FieldSpec(
            path, ann.type or type_, ann.required, "; ".join(c for c in ann.constraints if c),
            tuple(ann.values), ann.value_kind if ann.values else "", role, line,
            self._text(line)))

    # -- JSON blocks ------------------------------------------------------------------------

    def read_tree(self, node: Node, role: str, example: bool = False,
                  schema: bool = False) -> None:
        """Fields of a parsed block. ``example``: its literals are examples; ``schema``: the
        block is labelled as a schema, so its literals state values."""
        schema_like = not example and (schema or _schema_like(node))
        if _is_json_schema(node):
            self._json_schema(node, "", role)
        else:
            self._walk(node, "", role, schema_like)

    def _walk(self, node: Node, prefix: str, role: str, schema_like: bool) -> None:
        if node.kind == "array":
            for item in node.items:
                if item.kind != "scalar":
                    self._walk(item, prefix, role, schema_like)
            return
        if node.kind != "object":
            return
        for key, kline, val in node.entries:
            if key in ("...", "…") or not key.strip():
                continue
            path = f"{prefix}.{key}" if prefix else key
            if val.kind == "scalar":
                self.add(path, kline, role, annotate(val, schema_like))
                continue
            ann = Annotation()
            if val.comment:
                ann.read_notes(val.comment)
            if val.kind == "object":
                ann.type = "object"
            else:
                scalars = [i for i in val.items if i.kind == "scalar"]
                inner = type_word(scalars[0].text) if scalars else ""
                ann.type = f"array<{inner}>" if inner else "array"
                if scalars and not inner:
                    ann.set_values([s.text for s in scalars], EXAMPLE)
            self.add(path, kline, role, ann)
            self._walk(val, path, role, schema_like)

    def _json_schema(self, node: Node, prefix: str, role: str) -> None:
        props = node.get("properties")
        if props is None or props.kind != "object":
            items = node.get("items")
            if items is not None and items.kind == "object":
                self._json_schema(items, prefix, role)
            return
        req = node.get("required")
        required = {i.text for i in req.items} if req is not None and req.kind == "array" else None
        for key, kline, prop in props.entries:
            path = f"{prefix}.{key}" if prefix else key
            ann = Annotation()
            ann.required = (key in required) if required is not None else None
            if prop.kind == "object":
                typ = prop.get("type")
                if typ is not None:
                    words = [typ.text] if typ.kind == "scalar" else [i.text for i in typ.items]
                    ann.type = "|".join(TYPE_WORDS.get(w.lower(), w.lower()) for w in words)
                const, enum = prop.get("const"), prop.get("enum")
                if const is not None and const.kind == "scalar":
                    ann.set_values([const.text], FIXED)
                if enum is not None and enum.kind == "array":
                    ann.set_values([i.text for i in enum.items if i.kind == "scalar"], ENUM)
                default = prop.get("default")
                if default is not None and default.kind == "scalar":
                    ann.set_values([default.text], DEFAULT)
                for k in _SCHEMA_KEYS:
                    v = prop.get(k)
                    if v is not None and v.kind == "scalar":
                        ann.constraints.append(f"{k} {v.text}")
            self.add(path, kline, role, ann)
            if prop.kind == "object":
                self._json_schema(prop, path, role)

    # -- lines and tables -------------------------------------------------------------------

    _FIELD_LINE = re.compile(
        r"^\s*(?:[-*+]\s+)?`?(?P<name>[A-Za-z_$][\w$.\[\]-]*)`?\s*:\s*`?(?P<rest>.+)$")

    def read_field_line(self, line: int, raw: str, role: str) -> bool:
        """``name: type (notes)`` as a list item or a line of a plain code block."""
        m = self._FIELD_LINE.match(raw)
        if not m:
            return False
        rest = m.group("rest").replace("`", "").strip()
        tm = _TYPE_LEAD.match(rest)
        if not tm or not type_word(tm.group("type")):
            return False
        ann = Annotation()
        ann.type = type_word(tm.group("type"))
        if tm.group("rest").strip():
            ann.read_notes(tm.group("rest").strip())
        notes = rest.lower()
        if role == REQUEST and re.search(r"\b(path|query|url) param", notes):
            role = QUERY
        self.add(m.group("name").strip("."), line, role, ann)
        return True

    def read_table(self, rows: list[tuple[int, list[str]]], role: str) -> None:
        """A table whose header has a name column and a type column."""
        if len(rows) < 2:
            return
        head = [c.lower() for c in rows[0][1]]
        name_col = next((i for i, c in enumerate(head) if re.search(
            r"\b(field|name|parameter|param|key|property|attribute)\b", c)), None)
        type_col = next((i for i, c in enumerate(head) if "type" in c), None)
        if name_col is None or type_col is None or name_col == type_col:
            return
        req_col = next((i for i, c in enumerate(head) if "required" in c or "mandatory" in c),
                       None)
        notes_cols = [i for i in range(len(head)) if i not in (name_col, type_col, req_col)]
        for line, cells in rows[1:]:
            if len(cells) <= max(name_col, type_col):
                continue
            name = cells[name_col].strip("`*_ ")
            if not re.fullmatch(r"[A-Za-z_$][\w$.\[\]-]*", name):
                continue
            ann = Annotation()
            ann.type = type_word(cells[type_col].strip("`*_ ")) or cells[type_col].strip("`*_ ")
            if req_col is not None and req_col < len(cells):
                flag = cells[req_col].strip("`*_ ").lower()
                if flag in ("yes", "true", "required", "y", "✓", "✔", "x", "mandatory"):
                    ann.required = True
                elif flag in ("no", "false", "optional", "n", "-", ""):
                    ann.required = False
            for i in notes_cols:
                if i < len(cells) and cells[i]:
                    ann.read_notes(cells[i])
            self.add(name, line, role, ann)
