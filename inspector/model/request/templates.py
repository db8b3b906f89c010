"""Request templates pre-filled from a task README: body, query and path-parameter examples.

The README's ``## Schemas`` section (the whole README when it has none) is read as a sequence
of prose paragraphs and fenced blocks. A paragraph that says "`POST /todos` request ..." or
"`PATCH /todos/{id}` accepts ..." owns the fenced JSON block right after it; "accepts any
subset of `a`, `b`" with no block borrows those fields' example values from the README's other
JSON examples. Query hints come from inline code such as "`?completed=true|false`" in the
endpoint's table description and in paragraphs about it.
"""

from __future__ import annotations

import contextlib
import json
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

from inspector.model.benchmark.task import Endpoint, Task
from inspector.model.request.http_request import RequestSpec
from inspector.model.request.schema_body import schema_body

_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS"
_MENTION = rf"`({_METHODS})\s+(/[^`\s]*)`"
_MENTION_RE = re.compile(_MENTION, re.I)
# One or more mentions ("`POST /a` and `POST /b`") followed by a word that introduces a body.
_REQUEST_GROUP = re.compile(
    rf"(?P<mentions>(?:{_MENTION}(?:\s*(?:,|,?\s*and|,?\s*or|&)\s*)?)+)\s*"
    r"(?:(?P<nobody>\(no body\)|takes no body|has no body)|(?P<word>request|accepts?|expects?"
    r"|takes)\b)",
    re.I,
)
_FENCE_OPEN = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_INLINE_QUERY = re.compile(r"`\?([^`]+)`")
_QUERY_KEY = re.compile(r"[\w.\-\[\]]+")
_PLACEHOLDER = re.compile(r"^(\.\.\.|…|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|)$")
_BODY_METHODS = ("POST", "PUT", "PATCH")
_ID_LIKE = re.compile(r"(?i)^(id|pk|n|num|number|idx|index)$|(_id|Id|ID)$")


@dataclass(slots=True)
class _Block:
    kind: str  # "text" | "code"
    text: str
    lang: str = ""


@dataclass(slots=True)
class _Hints:
    """What the README says about the requests of one endpoint."""

    body: str | None = None  # JSON text from the README, verbatim
    no_body: bool = False
    accepted_fields: list[str] = field(default_factory=list)
    query_sources: list[str] = field(default_factory=list)  # "a=1&b=x|y" strings, in order


def _blocks(text: str) -> list[_Block]:
    """Paragraphs, headings and fenced blocks in document order."""
    blocks: list[_Block] = []
    para: list[str] = []
    lines = text.splitlines()

    def flush() -> None:
        if para:
            blocks.append(_Block("text", "\n".join(para)))
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE_OPEN.match(line)
        if fence:
            flush()
            marker = fence.group(1)
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            blocks.append(_Block("code", textwrap.dedent("\n".join(body)).strip(),
                                 fence.group(2).lower()))
        elif not line.strip():
            flush()
        elif _HEADING.match(line):
            flush()
            blocks.append(_Block("text", line))
        else:
            para.append(line)
        i += 1
    flush()
    return blocks


def _schemas_section(readme: str) -> str:
    """The text of the ``Schemas`` section, or the whole README when there is none."""
    lines = readme.splitlines()
    in_fence = False
    start: int | None = None
    level = 0
    for i, line in enumerate(lines):
        if _FENCE_OPEN.match(line):
            in_fence = not in_fence
            continue
        m = _HEADING.match(line)
        if in_fence or not m:
            continue
        if start is None:
            if re.match(r"(?i)(request\s+|data\s+|json\s+)?schemas?\b", m.group(2).strip()):
                start, level = i + 1, len(m.group(1))
        elif len(m.group(1)) <= level:
            return "\n".join(lines[start:i])
    return readme if start is None else "\n".join(lines[start:])


def _norm(path: str) -> str:
    path = path.split("?", 1)[0].rstrip("`.,;:)")
    return path.rstrip("/") or "/"


def _is_json_block(block: _Block) -> bool:
    if block.kind != "code":
        return False
    if block.lang in ("json", "jsonc", "json5"):
        return True
    if block.lang:
        return False
    try:
        json.loads(block.text)
    except ValueError:
        return False
    return True


def _readme_hints(readme: str) -> dict[str, _Hints]:
    """Hints keyed by ``METHOD:path`` (paths normalised without query or trailing slash)."""
    hints: dict[str, _Hints] = {}
    blocks = _blocks(_schemas_section(readme))
    for i, block in enumerate(blocks):
        if block.kind != "text":
            continue
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        flat = " ".join(block.text.split())
        inline_queries = [m.group(1) for m in _INLINE_QUERY.finditer(flat)]
        for m in _MENTION_RE.finditer(flat):
            h = hints.setdefault(f"{m.group(1).upper()}:{_norm(m.group(2))}", _Hints())
            if "?" in m.group(2):
                h.query_sources.append(m.group(2).split("?", 1)[1])
            h.query_sources.extend(inline_queries)
        for group in _REQUEST_GROUP.finditer(flat):
            keys = [f"{m.group(1).upper()}:{_norm(m.group(2))}"
                    for m in _MENTION_RE.finditer(group.group("mentions"))]
            if group.group("nobody"):
                for key in keys:
                    hints[key].no_body = True
                continue
            fields: list[str] = []
            if group.group("word").lower().startswith("accept"):
                sentence = re.split(r"[.;](?:\s|$)", flat[group.end():], maxsplit=1)[0]
                fields = re.findall(r"`([A-Za-z_][\w-]*)`", sentence)
            for key in keys:
                h = hints[key]
                if nxt is not None and _is_json_block(nxt) and h.body is None:
                    h.body = nxt.text
                if fields and not h.accepted_fields:
                    h.accepted_fields = fields
    return hints


def _json_examples(readme: str) -> list[Any]:
    """Every fenced block of the README that parses as JSON, in order."""
    out: list[Any] = []
    for block in _blocks(readme):
        if block.kind == "code" and _is_json_block(block):
            try:
                out.append(json.loads(block.text))
            except ValueError:
                continue
    return out


def _find_key(value: Any, key: str) -> tuple[bool, Any]:
    """Depth-first search for ``key`` in objects; (found, value)."""
    if isinstance(value, dict):
        if key in value:
            return True, value[key]
        for v in value.values():
            found, got = _find_key(v, key)
            if found:
                return found, got
    elif isinstance(value, list):
        for v in value:
            found, got = _find_key(v, key)
            if found:
                return found, got
    return False, None


def _dump(value: Any) -> str:
    one_line = json.dumps(value, ensure_ascii=False)
    return one_line if len(one_line) <= 80 else json.dumps(value, indent=2, ensure_ascii=False)


def _body_from_fields(fields: list[str], endpoint: Endpoint, hints: dict[str, _Hints],
                      examples: list[Any]) -> str | None:
    """An object of the accepted fields, with example values from the README's request bodies
    (the collection's ``POST`` first), then from any other JSON example."""
    collection = re.sub(r"/\{[^}/]+\}$", "", _norm(endpoint.path)) or "/"
    sources: list[Any] = []
    preferred = hints.get(f"POST:{collection}")
    ordered = ([preferred] if preferred else []) + list(hints.values())
    for h in ordered:
        if h.body is not None:
            with contextlib.suppress(ValueError):
                sources.append(json.loads(h.body))
    sources += examples
    body: dict[str, Any] = {}
    for name in fields:
        for source in sources:
            if isinstance(source, dict) and name in source:
                body[name] = source[name]
                break
    return _dump(body) if body else None


def _table_rows(readme: str, endpoint: Endpoint) -> list[str]:
    """The README table rows of ``endpoint``, whole: ``Endpoint.description`` stops at the
    first ``|``, even an escaped one as in ``?completed=true\\|false``."""
    method, path = endpoint.method.upper(), _norm(endpoint.path)
    rows = []
    for line in readme.splitlines():
        cells = [c.strip().strip("`").strip() for c in line.strip().split("|")]
        if len(cells) > 3 and line.lstrip().startswith("|") and cells[1].upper() == method \
                and cells[2].startswith("/") and _norm(cells[2]) == path:
            rows.append(line)
    return rows


def _query(endpoint: Endpoint, hint: _Hints | None, readme: str) -> tuple[tuple[str, str], ...]:
    """Suggested query parameters: the first alternative of the first concrete example value."""
    sources = [endpoint.path.partition("?")[2]]
    for text in [endpoint.description, *_table_rows(readme, endpoint)]:
        sources += [m.group(1) for m in _INLINE_QUERY.finditer(text)]
    if hint:
        sources += hint.query_sources
    values: dict[str, str] = {}
    for source in sources:
        for part in source.replace("\\|", "|").split("&"):
            name, _, value = part.partition("=")
            name = name.strip()
            if not _QUERY_KEY.fullmatch(name):
                continue
            value = value.strip().split("|")[0].strip()
            if _PLACEHOLDER.match(value):
                value = ""
            if not values.get(name):
                values[name] = value
    return tuple(values.items())


def suggested_params(task: Task, endpoint: Endpoint) -> dict[str, str]:
    """A value for each ``{param}`` of the endpoint's path.

    The first scalar value of a same-named key in the README's JSON examples (``{code}`` ->
    ``"aB3xY9"``), else ``"1"`` for id-like names and ``"example"`` for the rest.
    """
    spec = RequestSpec(endpoint.method, re.sub(r"(?<=/):(\w+)", r"{\1}", endpoint.path))
    examples = _json_examples(task.readme)
    out: dict[str, str] = {}
    for name in spec.path_params():
        value: str | None = None
        for example in examples:
            found, got = _find_key(example, name)
            if found and isinstance(got, str | int | float) and not isinstance(got, bool) \
                    and str(got):
                value = str(got)
                break
        out[name] = value or ("1" if _ID_LIKE.search(name) else "example")
    return out


def template_for(task: Task, endpoint: Endpoint) -> RequestSpec:
    """A request for ``endpoint`` pre-filled from the task README (path params left as
    ``{name}``; see :func:`suggested_params`)."""
    if endpoint.method.upper() == "FEATURE":
        raise ValueError(f"{endpoint.path!r} is a README feature, not an HTTP endpoint")
    method = endpoint.method.upper()
    hints = _readme_hints(task.readme)
    hint = hints.get(f"{method}:{_norm(endpoint.path)}")
    body: str | None = None
    if hint and hint.body is not None:
        body = hint.body
    elif hint and hint.accepted_fields:
        body = _body_from_fields(hint.accepted_fields, endpoint, hints,
                                 _json_examples(task.readme))
    if body is None and method in _BODY_METHODS and not (hint and hint.no_body):
        schema = schema_body(task.readme, method, endpoint.path.partition("?")[0])
        body = _dump(schema.body) if schema is not None else None
    # the loader keeps a README example such as "GET /convert?value=1" as its own endpoint;
    # a Spark/Express-style ':id' segment is a parameter like '{id}'
    path = re.sub(r"(?<=/):(\w+)", r"{\1}", endpoint.path.partition("?")[0])
    query = _query(endpoint, hint, task.readme)
    headers: list[tuple[str, str]] = [("Accept", "application/json")]
    if body is None and (method not in _BODY_METHODS or (hint and hint.no_body)):
        return RequestSpec(method, path, query, tuple(headers))
    headers.append(("Content-Type", "application/json"))
    return RequestSpec(method, path, query, tuple(headers), "json",
                       body if body is not None else "{}")


def body_note(task: Task, endpoint: Endpoint) -> str:
    """What the pre-filled body of ``endpoint`` leaves out ('' when nothing or unknown)."""
    if endpoint.method.upper() not in _BODY_METHODS:
        return ""
    hint = _readme_hints(task.readme).get(f"{endpoint.method.upper()}:{_norm(endpoint.path)}")
    if hint and (hint.body is not None or hint.accepted_fields or hint.no_body):
        return ""
    schema = schema_body(task.readme, endpoint.method, endpoint.path.partition("?")[0])
    return schema.note if schema is not None else ""


def templates_for(task: Task) -> list[RequestSpec]:
    """A template for every HTTP endpoint of the task, in README order (features skipped)."""
    return [template_for(task, ep) for ep in task.required_endpoints
            if ep.method.upper() != "FEATURE"]
