"""The endpoints a task README really requires ("spec endpoints"), for strict API coverage.

The stock extraction (:mod:`.readme`) finds only ``METHOD /path`` text and table rows, cuts paths
at ``-`` and ``:``, takes concrete examples in code blocks for endpoints, and ignores base paths,
so on many real READMEs it finds nothing. This module reads the layouts real READMEs use:

* **declared**: ``METHOD /path`` at the start of a line, a heading, a list item or after a label
  (``### POST /api/users``, ``- `GET /x`: ...``, ``**POST** `/login```, ``**Endpoint**: `PUT
  /x```, ``- Method and Path: GET /x``), and table rows (method and path cells in any order);
* **labelled sections**: a path label (``Endpoint``, ``Path``, ``URL``, ``Route``...) and a method
  label (``Method``, ``HTTP Method``; ``GET, POST`` gives one endpoint per method) in the same
  heading section, in any order;
* **mentions**: ``METHOD /path`` inside a prose sentence, kept (a README that names an endpoint
  requires it) but never preferred over a declaration of the same endpoint;
* **examples** (code blocks: ``curl`` commands, raw HTTP requests): corroboration only; they
  become endpoints only when the README declares none at all;
* **base path**: declared once (``API Base Path: /api/v1``, ``Base URL: http://host:8000/api``,
  ``Namespace prefix``, "all APIs are prefixed with ``/api``") and applied to endpoint paths
  written relative to it, unless the README already writes full paths or an example shows the
  endpoint without it. With no declaration, examples that all put the same prefix in front of
  the declared paths declare it.

Every endpoint keeps the README line it was read from and a note saying how it was built
(base applied, corroborating example, what the stock extraction made of it). ``source`` is
``"stock"`` when the stock extraction sees the endpoint (maybe with a cut path) and ``"spec"``
when only this extraction does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from inspector.model.benchmark.task import Endpoint
from inspector.model.readme.reader import extract_endpoints

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")  # as the stock harness and route analysis
_M = "|".join(METHODS)
_DECO = r"[\s`*_]*"  # markdown decoration between tokens
_PATH = r"/[^\s`*|\"'<>,;()\[\]]*"
_METHOD_LIST = rf"(?:{_M})(?:\s*(?:,|/|\||\band\b|\bor\b)\s*`?(?:{_M})\b`?)*"
# Line prefixes that make a method+path a declaration: heading marks, list bullets, numbering.
_LEAD = r"^\s*(?:#{1,6}\s+)?(?:>\s*)?(?:[-*+]\s+|\d+[.)]\s+)?"
_LABEL = re.compile(
    rf"{_LEAD}(?:\*\*|__)?\s*(?P<label>[A-Za-z][A-Za-z /&-]{{0,40}}?)\s*(?:\*\*|__)?\s*:"
    r"\s*(?:\*\*|__)?\s*(?P<value>.*)$")
_EXPLICIT_LEAD = re.compile(
    rf"{_LEAD}(?:[A-Za-z][A-Za-z /&-]{{0,40}}?\s*(?:\*\*|__)?\s*:\s*)?{_DECO}"
    rf"(?P<methods>{_METHOD_LIST})\b{_DECO}[:\-–]?{_DECO}(?P<path>{_PATH})(?P<rest>.*)$", re.I)
_MENTION = re.compile(rf"(?<![\w/.-])(?P<method>{_M})\b[`*_]*\s+[`*_]*(?P<path>{_PATH})")
_URL = re.compile(r"https?://[^\s/`'\"<>]+(?P<path>/[^\s`'\"<>\\)]*)?")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_PATH_LABELS = ("endpoint", "path", "url", "uri", "route", "api", "interface", "resource")
_BASE_LABELS = re.compile(r"\b(base[ _-]?(path|url|uri)|prefix|context[ _-]?path|root[ _-]?path|"
                          r"mount(ed)?[ _-]?(at|path))\b", re.I)
_BASE_PROSE = re.compile(
    r"\b(?:all|every)\s+(?:the\s+)?(?:apis?|endpoints?|routes?|paths?|interfaces?)\s+"
    r"(?:are\s+|is\s+)?(?:prefixed\s+(?:with|by)|(?:served\s+|mounted\s+|located\s+)?under|"
    r"start\s+with|begin\s+with)\s+[`*_\"']*(?P<path>/[^\s`*_\"',;)]*)", re.I)
_DESC_LABELS = ("description", "function", "summary", "purpose", "semantics")


@dataclass(slots=True)
class _Found:
    method: str
    path: str  # as written (query string and trailing punctuation removed)
    line: int  # 1-based README line
    rank: int  # 0 declared (line start, label, table row), 2 mention, 3 example
    description: str = ""
    section: int = -1  # index of the heading section
    table: bool = False


def _clean(path: str) -> str:
    path = path.split("?", 1)[0].split("#", 1)[0]
    path = path.rstrip(".,;:)]`*'\"")
    return path if path.startswith("/") else ""


def _methods(text: str) -> list[str]:
    return [m.upper() for m in re.findall(rf"\b({_M})\b", text, re.I)]


def _norm(path: str) -> str:
    """Comparison form: parameters of any style are one segment, no trailing slash."""
    segs = []
    for seg in path.strip("/").split("/"):
        if re.fullmatch(r"\{[^}]*\}|:\w+|<[^>]*>", seg):
            seg = "{}"
        segs.append(seg)
    return "/" + "/".join(segs)


def _instance_of(example: str, template: str) -> bool:
    """True when ``example`` (a concrete path) fits ``template`` (with parameters)."""
    a, b = example.strip("/").split("/"), _norm(template).strip("/").split("/")
    return len(a) == len(b) and all(t == "{}" or t == s for s, t in zip(a, b, strict=True))


def _tail(rest: str) -> str:
    rest = re.sub(r"^[`*_\s]*", "", rest)
    rest = re.sub(r"^[:\-–—]\s*", "", rest)
    return rest.strip().strip("`*_ ").strip()


class _Reader:
    """One pass over the README lines, collecting candidates, examples and base paths."""

    def __init__(self, readme: str) -> None:
        self.lines = readme.splitlines()
        self.found: list[_Found] = []
        self.examples: list[tuple[str, str, int]] = []  # (method, url path, line)
        self.bases: list[tuple[str, int]] = []  # (base path, line); '' = explicitly none
        self.headings: list[str] = []
        self.labels: dict[int, dict[str, list[tuple[str, int]]]] = {}  # per heading section
        self._read()

    def section_description(self, section: int) -> str:
        """The section's Description/Function label, else its heading title."""
        desc = self.labels.get(section, {}).get("desc", [("", 0)])[0][0]
        return desc or (self.headings[section] if 0 <= section < len(self.headings) else "")

    def _read(self) -> None:
        fence: str | None = None
        section = -1
        pending: list[tuple[str, int]] = []  # continuation of a curl command
        labels = self.labels
        for no, raw in enumerate(self.lines, 1):
            fm = _FENCE.match(raw)
            if fm:
                fence = None if fence and raw.strip().startswith(fence) else (fence or fm.group(1))
                pending = []
                continue
            if fence:
                pending = self._example(raw, no, pending)
                continue
            hm = _HEADING.match(raw)
            if hm:
                section += 1
                self.headings.append(re.sub(r"^\d+[.)]?\s*", "", hm.group(2)).strip("*_ "))
            if raw.lstrip().startswith("|"):
                self._table(raw, no, section)
                continue
            if not self._explicit(raw, no, section):
                lm = _LABEL.match(raw)
                if lm:
                    self._label(lm.group("label"), lm.group("value"), no, section, labels)
            self._mentions(raw, no, section)
            self._base_prose(raw, no)
        self._sections(labels)

    # -- layouts ---------------------------------------------------------------------------

    def _explicit(self, raw: str, no: int, section: int) -> bool:
        m = _EXPLICIT_LEAD.match(raw)
        if not m:
            return False
        label = raw[:m.start("methods")]
        if _BASE_LABELS.search(label):
            return False
        path = _clean(m.group("path"))
        if not path:
            return False
        tail = _tail(m.group("rest"))
        tail = "" if tail.endswith(":") else tail  # "`GET /x` returns:" introduces a schema
        for method in _methods(m.group("methods")):
            self.found.append(_Found(method, path, no, 0, tail, section))
        return True

    def _table(self, raw: str, no: int, section: int) -> None:
        cells = [c.strip().strip("`*_ ").strip() for c in raw.strip().strip("|").split("|")]
        methods: list[str] = []
        path = ""
        used: set[int] = set()
        for i, cell in enumerate(cells):
            m = re.fullmatch(rf"({_METHOD_LIST})\s*`?\s*({_PATH})?", cell, re.I)
            if m and not methods:
                methods, used = _methods(m.group(1)), used | {i}
                if m.group(2):
                    path = _clean(m.group(2))
            elif cell.startswith("/") and not path and re.fullmatch(_PATH, cell.split()[0]):
                path, used = _clean(cell.split()[0]), used | {i}
        if methods and path:
            desc = next((c for i, c in enumerate(cells) if i not in used and c), "")
            for method in methods:
                self.found.append(_Found(method, path, no, 0, desc, section, table=True))

    def _label(self, label: str, value: str, no: int, section: int,
               labels: dict[int, dict[str, list[tuple[str, int]]]]) -> None:
        low = label.strip().lower()
        if _BASE_LABELS.search(low):
            url = _URL.search(value)
            pm = re.search(_PATH, value) if not url else None
            base = url.group("path") or "" if url else (pm.group(0) if pm else "")
            self.bases.append((_clean(base).rstrip("/") if base else "", no))
            return
        slot = labels.setdefault(section, {})
        if "method" in low or "verb" in low:
            if _methods(value):
                slot.setdefault("method", []).append((value, no))
        elif any(w in low.split() or low.startswith(w) for w in _PATH_LABELS):
            pm = re.search(_PATH, value)
            if pm and _clean(pm.group(0)):
                slot.setdefault("path", []).append((_clean(pm.group(0)), no))
        elif low in _DESC_LABELS:
            slot.setdefault("desc", []).append((value.strip("`*_ "), no))

    def _sections(self, labels: dict[int, dict[str, list[tuple[str, int]]]]) -> None:
        for section, slot in labels.items():
            paths, methods = slot.get("path", []), slot.get("method", [])
            if not paths or not methods:
                continue
            desc = self.section_description(section)
            if len(paths) == len(methods):
                pairs = list(zip(paths, methods, strict=True))
            elif len(methods) == 1:
                pairs = [(p, methods[0]) for p in paths]
            elif len(paths) == 1:
                pairs = [(paths[0], m) for m in methods]
            else:
                continue  # cannot tell which method goes with which path
            for (path, line), (mtext, _) in pairs:
                for method in _methods(mtext):
                    self.found.append(_Found(method, path, line, 0, desc, section))

    def _mentions(self, raw: str, no: int, section: int) -> None:
        for m in _MENTION.finditer(raw):
            path = _clean(m.group("path"))
            if path and not re.match(r"\S*HTTP/\d", raw[m.end():].strip()):
                self.found.append(_Found(m.group("method").upper(), path, no, 2, "", section))

    def _base_prose(self, raw: str, no: int) -> None:
        m = _BASE_PROSE.search(raw)
        if m and _clean(m.group("path")):
            self.bases.append((_clean(m.group("path")).rstrip("/"), no))

    def _example(self, raw: str, no: int, pending: list[tuple[str, int]]
                 ) -> list[tuple[str, int]]:
        """Record requests shown in a code block: raw HTTP lines and curl commands."""
        m = re.match(rf"^\s*({_M})\s+(/\S*)\s+HTTP/\d", raw)
        if m:
            self.examples.append((m.group(1), m.group(2), no))
            return []
        text = raw.strip()
        if pending or re.match(r"^(\$\s*)?curl\b", text):
            pending = [*pending, (text.rstrip("\\").strip(), no)]
            if text.endswith("\\"):
                return pending
            cmd = " ".join(t for t, _ in pending)
            url = _URL.search(cmd)
            if url:
                xm = re.search(rf"(?:-X|--request)\s*['\"]?({_M})\b", cmd, re.I)
                has_body = re.search(r"\s(-d|--data\S*|-F|--form|--json)\s", cmd + " ")
                method = xm.group(1).upper() if xm else ("POST" if has_body else "GET")
                self.examples.append((method, url.group("path") or "/", pending[0][1]))
            return []
        m = re.match(rf"^\s*({_M})\s+(/\S*)\s*$", raw)
        if m:
            self.examples.append((m.group(1), m.group(2), no))
        return []


def _base(reader: _Reader, declared: list[_Found]) -> tuple[str, int]:
    """(base path, README line; 0 when read from examples); ('', 0) when there is none."""
    for base, line in reader.bases:
        return base, line  # the first declaration; '' = explicitly none ("prefix: none", "/")
    # Examples that put the same prefix in front of declared paths declare it.
    prefixes = set()
    for method, path, _ in reader.examples:
        for f in declared:
            full, tmpl = _clean(path), _norm(f.path)
            if method != f.method or not full:
                continue
            segs = full.strip("/").split("/")
            n = len(tmpl.strip("/").split("/"))
            if len(segs) > n and _instance_of("/" + "/".join(segs[-n:]), f.path):
                prefixes.add("/" + "/".join(segs[:-n]))
    return (prefixes.pop(), 0) if len(prefixes) == 1 else ("", 0)


def _starts_with(path: str, base: str) -> bool:
    return path == base or path.startswith(base + "/")


def _same(s: Endpoint, paths: tuple[str, ...]) -> bool:
    """True when stock endpoint ``s`` is one of ``paths`` as the stock extraction reads it:
    equal (parameter style and query aside), cut at a '-' or ':', or missing a final '}'."""
    got = s.path.split("?", 1)[0]
    for full in paths:
        if s.spec_path == full or got in (full, full[:-1]) or _norm(got) == _norm(full):
            return True
        if len(got) > 1 and full.startswith(got) and full[len(got)] in "-:":
            return True
    return False


def _stock_view(method: str, paths: tuple[str, ...],
                stock: list[Endpoint] | tuple[Endpoint, ...]) -> Endpoint | None:
    """The stock endpoint that is this one, if the stock extraction sees it at all."""
    same = [s for s in stock if s.method == method and _same(s, paths)]
    return next((s for s in same if s.path in paths), same[0] if same else None)


def extract_spec_endpoints(readme: str, stock: list[Endpoint] | None = None) -> list[Endpoint]:
    """The endpoints ``readme`` requires, in README order, each with ``readme_line``,
    ``source`` (``stock``/``spec``) and a ``note``. ``stock`` is the stock extraction's list
    (computed when not given). When nothing is found the stock list is returned as is (so
    strict AC never covers less than the stock figure), marked ``source='stock'``."""
    stock = extract_endpoints(readme) if stock is None else stock
    reader = _Reader(readme)
    best: dict[tuple[str, str], _Found] = {}
    for f in reader.found:
        key = (f.method, _norm(f.path))
        old = best.get(key)
        if old is None:
            best[key] = f
            continue
        first, other = (f, old) if (f.rank, f.line) < (old.rank, old.line) else (old, f)
        if other.description and (not first.description or (other.table and not first.table)):
            first.description, first.table = other.description, other.table
        best[key] = first
    if not best:  # nothing declared: examples are all there is
        for method, path, line in reader.examples:
            p = _clean(path)
            if p and (method, _norm(p)) not in best:
                best[(method, _norm(p))] = _Found(method, p, line, 3)
    if not best:
        return [replace(s, source="stock", stock_key=s.key) for s in stock]
    found = sorted(best.values(), key=lambda f: (f.line, f.rank))
    per_section: dict[int, int] = {}
    for f in found:
        per_section[f.section] = per_section.get(f.section, 0) + 1
    starts = sorted({f.line for f in found} | {len(reader.lines) + 1})
    for f in found:
        if f.description:
            continue
        # a Description/Function label between this endpoint and the next one describes it
        end = next(n for n in starts if n > f.line)
        f.description = next((d for d, n in reader.labels.get(f.section, {}).get("desc", [])
                              if f.line < n < end and d), "")
        if not f.description and per_section[f.section] == 1:
            f.description = reader.section_description(f.section)
    declared = [f for f in found if f.rank < 3]
    base, base_line = _base(reader, declared)
    relative = base and not any(_starts_with(f.path, base) for f in declared)
    out: list[Endpoint] = []
    seen: set[tuple[str, str]] = set()
    for f in found:
        notes: list[str] = []
        path = f.path
        ex = [(m, p, n) for m, p, n in reader.examples if m == f.method]
        shown_full = [n for m, p, n in ex if base and _instance_of(_clean(p), base + f.path)]
        shown_bare = [n for m, p, n in ex if _instance_of(_clean(p), f.path)]
        if relative and not _starts_with(path, base) and not (shown_bare and not shown_full):
            path = base + path if path != "/" else base
            where = f"README line {base_line}" if base_line else "the README's examples"
            notes.append(f"base path '{base}' from {where}")
        if f.rank == 3:
            notes.append("only in an example (the README declares no endpoint)")
        else:
            lines = shown_full or shown_bare or [n for m, p, n in ex
                                                 if _instance_of(_clean(p), path)]
            if lines:
                notes.append(f"example at README line {lines[0]}")
        key = (f.method, _norm(path))
        if key in seen:
            continue
        seen.add(key)
        s = _stock_view(f.method, (path, f.path), stock)
        if s is not None and (s.spec_path or s.path) != path:
            notes.append(f"stock extraction reads '{s.path}'")
        out.append(Endpoint(f.method, path, f.description, readme_line=f.line,
                            source="stock" if s else "spec", note="; ".join(notes),
                            stock_key=s.key if s else ""))
    return out


def stock_only(spec: list[Endpoint] | tuple[Endpoint, ...],
               stock: list[Endpoint] | tuple[Endpoint, ...]) -> list[Endpoint]:
    """Stock endpoints no spec endpoint stands for (examples in code blocks, FEATURE items)."""
    seen = {e.stock_key for e in spec}
    return [s for s in stock if s.key not in seen and not any(
        e.source == "stock" and e.method == s.method and _same(s, (e.path,)) for e in spec)]


def declared_base(readme: str) -> tuple[str, int]:
    """The base path ``readme`` declares ("Base Path: /api/v1", "all APIs are prefixed with
    /api") and its line; ``('', 0)`` when none (``''`` with a line: declared as none or '/')."""
    return next(iter(_Reader(readme).bases), ("", 0))
