"""A light reading of a JUnit suite's Java sources: classes, methods, assignments, string values.

No compiler: comments are blanked (``code``) and, in a second copy of the same length, string
literals too (``struct``), so braces, parentheses, commas and ``+`` are found on ``struct`` and
strings read from ``code`` at the same positions. A class is the span of its braces; its methods
are the member-level ``name(params) [throws ...] {`` declarations; an assignment is
``[Type] name = expr;`` anywhere in it. String expressions are read as URL templates: literals,
``+``, ``static final`` constants and fields (their initialisers and assignments, e.g. in
``@BeforeAll``), local variables assigned before the use, parameters bound at a helper's call
site, ``String.format``/``formatted`` (a format specifier is a dynamic part), ``URI.create``,
``new URL``, and the suite's own methods that return a string; anything else is dynamic
(:data:`~inspector.services.suite.source.DYN`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.suite.java_tests import MAX_FILE_BYTES, strip_comments_and_strings
from inspector.services.suite.source import DYN

MAX_VALUES = 6  # templates kept per expression
MAX_DEPTH = 8

_COMMENTS = re.compile(
    r'//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
_CLASS = re.compile(r"(?<![.\w$])(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
_EXTENDS = re.compile(r"\bextends\s+([\w.$]+)")
_METHOD = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(")
_AFTER_PARAMS = re.compile(r"\s*(?:throws\s+[\w.$,\s]+?)?\s*\{")
_ASSIGN = re.compile(r"(?<![\w$.])(?:(this|[A-Za-z_$][\w$]*)\s*\.\s*)?([A-Za-z_$][\w$]*)\s*=(?!=)")
_TYPE_BEFORE = re.compile(r"[\w$>\]]\s+$")
_NOT_TYPES = {"return", "else", "case", "new", "throw", "yield", "assert"}
KEYWORDS = {"if", "for", "while", "switch", "catch", "synchronized", "return", "new", "throw",
            "super", "this", "try", "else", "do", "assert", "yield", "case"}
_FORMAT = re.compile(r"%(?:\d+\$)?[-#+ 0,(]*\d*(?:\.\d+)?[a-zA-Z]")
_VERBS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"}


def blank_comments(text: str) -> str:
    """``text`` with comments blanked (same length, newlines kept), string literals kept."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        return re.sub(r"[^\n]", " ", s) if s.startswith(("//", "/*")) else s
    return _COMMENTS.sub(blank, text)


def close_of(struct: str, i: int) -> int:
    """Index of the bracket closing the one at ``i`` in ``struct`` (strings blanked)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    open_ch, close_ch = struct[i], pairs[struct[i]]
    depth = 0
    for j in range(i, len(struct)):
        c = struct[j]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j
    return len(struct)


def split_top(struct: str, start: int, end: int, sep: str) -> list[tuple[int, int]]:
    """Spans of ``struct[start:end]`` split on ``sep`` outside brackets (stripped)."""
    out: list[tuple[int, int]] = []
    depth, cur = 0, start
    for j in range(start, end):
        c = struct[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            out.append((cur, j))
            cur = j + 1
    out.append((cur, end))
    stripped = []
    for a, b in out:
        while a < b and struct[a].isspace():
            a += 1
        while b > a and struct[b - 1].isspace():
            b -= 1
        if b > a:
            stripped.append((a, b))
    return stripped


@dataclass(eq=False)
class JFile:
    rel: str
    code: str
    struct: str
    starts: list[int]
    classes: list[JClass] = field(default_factory=list)

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)


@dataclass(eq=False)
class JMethod:
    name: str
    params: list[str]
    pos: int  # of the name
    body: tuple[int, int]  # inside the braces
    cls: JClass


@dataclass(eq=False)
class Assign:
    name: str
    qual: str  # "" or "this" or a class/receiver name
    pos: int
    expr: tuple[int, int]
    decl: bool  # a declaration (``Type name = ...``)
    member: bool  # at the class's member level (a field initialiser)
    method: JMethod | None


@dataclass(eq=False)
class JClass:
    name: str
    file: JFile
    body: tuple[int, int]
    base: str
    outer: JClass | None
    methods: list[JMethod] = field(default_factory=list)
    assigns: list[Assign] = field(default_factory=list)


@dataclass(frozen=True)
class Ctx:
    """Where an expression is read: its file, class, method and the helper's bound params."""

    file: JFile
    cls: JClass | None
    method: JMethod | None
    bindings: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def bound(self, name: str) -> tuple[str, ...] | None:
        return next((v for k, v in self.bindings if k == name), None)


def _params(struct: str, code: str, a: int, b: int) -> list[str]:
    names = []
    for s, e in _split_params(struct, a, b):
        m = re.search(r"([A-Za-z_$][\w$]*)\s*$", code[s:e])
        if m:
            names.append(m.group(1))
    return names


def _split_params(struct: str, a: int, b: int) -> list[tuple[int, int]]:
    """Parameter spans: commas outside ``()`` and ``<>`` (generic types)."""
    masked = list(struct[a:b])
    depth = 0
    for i, c in enumerate(masked):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth > 0 and c == ",":
            masked[i] = " "
    text = struct[:a] + "".join(masked) + struct[b:]
    return split_top(text, a, b, ",")


def parse_file(rel: str, text: str) -> JFile:
    """Classes, their methods and assignments of one Java source."""
    code = blank_comments(text)
    struct = strip_comments_and_strings(text)
    starts, pos = [0], 0
    for ln in text.splitlines(keepends=True):
        pos += len(ln)
        starts.append(pos)
    f = JFile(rel, code, struct, starts)
    spans: list[JClass] = []
    for m in _CLASS.finditer(struct):
        brace = struct.find("{", m.end())
        if brace < 0 or ";" in struct[m.end():brace]:
            continue
        header = struct[m.end():brace]
        ext = _EXTENDS.search(header)
        end = close_of(struct, brace)
        outer = next((c for c in reversed(spans) if c.body[0] < m.start() < c.body[1]), None)
        cls = JClass(m.group(1), f, (brace + 1, end), ext.group(1).rsplit(".", 1)[-1]
                     if ext else "", outer)
        spans.append(cls)
    f.classes = spans
    for cls in spans:
        _members(f, cls)
    return f


def _inner_spans(f: JFile, cls: JClass) -> list[tuple[int, int]]:
    return [c.body for c in f.classes if c.outer is cls]


def _members(f: JFile, cls: JClass) -> None:
    """Methods declared at ``cls``'s member level and the assignments in its own code."""
    s = f.struct
    a, b = cls.body
    nested = _inner_spans(f, cls)
    depth, i = 0, a
    while i < b:
        c = s[i]
        if c == "{":
            if depth == 0 and any(n[0] == i + 1 for n in nested):
                i = close_of(s, i) + 1
                continue
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and (m := _METHOD.match(s, i)) and (i == 0 or not (
                s[i - 1].isalnum() or s[i - 1] in "_$.")):
            name = m.group(1)
            open_at = m.end() - 1
            close = close_of(s, open_at)
            after = _AFTER_PARAMS.match(s, close + 1)
            before = s[max(a, i - 8):i]
            if name not in KEYWORDS and after and not re.search(r"\bnew\s+$", before) and \
                    "=" not in s[_stmt_start(s, i, a):i]:
                brace = after.end() - 1
                end = close_of(s, brace)
                cls.methods.append(JMethod(name, _params(s, f.code, open_at + 1, close), i,
                                           (brace + 1, end), cls))
                i = end + 1
                continue
            i = m.end() - 1
        i += 1
    for m in _ASSIGN.finditer(s, a, b):
        p = m.start(2)
        if any(n[0] <= p < n[1] for n in nested):
            continue
        method = next((md for md in cls.methods if md.body[0] <= p < md.body[1]), None)
        end = _expr_end(s, m.end(), b)
        prefix = s[max(a, m.start() - 60):m.start()]
        decl = bool(_TYPE_BEFORE.search(prefix)) and not m.group(1) and \
            (prefix.split() or [""])[-1] not in _NOT_TYPES
        cls.assigns.append(Assign(m.group(2), m.group(1) or "", p, (m.end(), end), decl,
                                  method is None, method))


def _stmt_start(s: str, i: int, lo: int) -> int:
    j = i
    while j > lo and s[j - 1] not in ";{}":
        j -= 1
    return j


def _expr_end(s: str, i: int, hi: int) -> int:
    depth = 0
    for j in range(i, hi):
        c = s[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return j
            depth -= 1
        elif c in ";," and depth == 0:
            return j
    return hi


def unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


class JavaSuite:
    """Every ``.java`` file under a test folder, read once; values of expressions in them."""

    def __init__(self, root: Path, rel_base: Path) -> None:
        self.files: list[JFile] = []
        self.skipped: list[tuple[str, str]] = []
        for path in sorted(root.rglob("*.java")):
            try:
                rel = path.relative_to(rel_base).as_posix()
            except ValueError:
                rel = path.name
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    self.skipped.append((rel, "larger than 2 MB"))
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                self.skipped.append((rel, exc.strerror or str(exc)))
                continue
            self.files.append(parse_file(rel, text))
        self.by_name: dict[str, list[JClass]] = {}
        for f in self.files:
            for c in f.classes:
                self.by_name.setdefault(c.name, []).append(c)

    # ------------------------------------------------------------------ classes

    def chain(self, cls: JClass | None) -> list[JClass]:
        """``cls``, its base classes (in the suite), then its outer classes and theirs."""
        out: list[JClass] = []
        outer: JClass | None = cls
        while outer is not None:
            c: JClass | None = outer
            while c is not None and c not in out:
                out.append(c)
                c = next(iter(self.by_name.get(c.base, ())), None) if c.base else None
            outer = outer.outer
        return out

    def methods(self, name: str, nargs: int, ctx: Ctx, qual: str) -> list[JMethod]:
        """The suite's methods a call ``[qual.]name(...)`` made in ``ctx`` may run."""
        if qual in ("", "this", "super"):
            classes = self.chain(ctx.cls)
        elif qual in self.by_name:
            classes = [c for k in self.by_name[qual] for c in self.chain(k)]
        else:
            return []
        found = [m for c in classes for m in c.methods if m.name == name]
        if not found and not qual:  # a statically imported method of another suite class
            found = [m for k in self._static_imports(ctx.file, name)
                     for c in self.by_name.get(k, []) for m in c.methods
                     if m.name == name]
        same = [m for m in found if len(m.params) == nargs]
        return (same or found)[:1] if found else []

    @staticmethod
    def _static_imports(f: JFile, name: str) -> list[str]:
        """Simple names of the classes ``import static pkg.Cls.name;`` / ``.*;`` names."""
        return re.findall(r"\bimport\s+static\s+(?:[\w$]+\s*\.\s*)*?([\w$]+)\s*\.\s*(?:"
                          + re.escape(name) + r"|\*)\s*;", f.code)

    def class_at(self, f: JFile, pos: int) -> JClass | None:
        return max((c for c in f.classes if c.body[0] <= pos < c.body[1]), default=None,
                   key=lambda c: c.body[0])

    # ------------------------------------------------------------------ values

    def value(self, span: tuple[int, int], ctx: Ctx, depth: int = 0) -> list[str]:
        """URL templates of the expression at ``span`` of ``ctx.file`` (DYN: unknown)."""
        f = ctx.file
        s, e = span
        if depth > MAX_DEPTH or s >= e:
            return [DYN]
        cond = split_top(f.struct, s, e, "?")
        if len(cond) == 2:  # ``c ? a : b``: either branch's values
            alts = split_top(f.struct, cond[1][0], cond[1][1], ":")
            if len(alts) == 2:
                both = self.value(alts[0], ctx, depth + 1) + self.value(alts[1], ctx, depth + 1)
                return list(dict.fromkeys(both))[:MAX_VALUES]
        pieces = split_top(f.struct, s, e, "+")
        options = [self._piece(p, ctx, depth) for p in pieces]
        out: list[str] = []
        for combo in itertools.product(*options):
            out.append(re.sub(f"{DYN}+", DYN, "".join(combo)))
            if len(out) >= MAX_VALUES:
                break
        return list(dict.fromkeys(out)) or [DYN]

    def _piece(self, span: tuple[int, int], ctx: Ctx, depth: int) -> list[str]:
        f = ctx.file
        s, e = span
        st, code = f.struct[s:e], f.code[s:e]
        if st.startswith("(") and close_of(f.struct, s) == e - 1:
            return self.value((s + 1, e - 1), ctx, depth + 1)
        cast = re.match(r"\(\s*[\w.$<>\[\]]+\s*\)\s*", st)
        if cast and st[cast.end():cast.end() + 1] not in ("", "+", "-"):
            return self._piece((s + cast.end(), e), ctx, depth)
        if re.fullmatch(r'"\s*"', st, re.S):
            return [_literal(code)]
        if re.fullmatch(r"\d+", st):
            return [st]
        m = re.fullmatch(r'("\s*")\s*\.\s*formatted\s*\(.*\)', st, re.S)
        if m:
            return [_format(_literal(code[:m.end(1)]))]
        call = re.match(r"(?:new\s+)?([\w$.]+)\s*\(", st)
        if call and close_of(f.struct, s + call.end() - 1) == e - 1:
            return self._call(call.group(1), (s + call.end(), e - 1), ctx, depth)
        m = re.fullmatch(r"(.+?)\s*\.\s*(toString|toURL|toURI|trim|strip)\s*\(\s*\)", st, re.S)
        if m:
            return self.value((s, s + m.end(1)), ctx, depth + 1)
        if re.fullmatch(r"[\w$]+(?:\s*\.\s*[\w$]+)*", st):
            return self.lookup(re.sub(r"\s+", "", st), s, ctx, depth)
        return [DYN]

    def _call(self, name: str, args: tuple[int, int], ctx: Ctx, depth: int) -> list[str]:
        f = ctx.file
        parts = split_top(f.struct, args[0], args[1], ",")
        short = name.rsplit(".", 1)[-1]
        if name in ("URI.create", "URI", "URL", "java.net.URI", "java.net.URL",
                    "String.valueOf") and parts:
            return self.value(parts[0], ctx, depth + 1)
        if short == "format" and name in ("String.format", "format") and parts:
            first = parts[1] if len(parts) > 1 and "Locale" in f.code[slice(*parts[0])] \
                else parts[0]
            return [_format(v) for v in self.value(first, ctx, depth + 1)]
        qual = name.rsplit(".", 1)[0] if "." in name else ""
        for m in self.methods(short, len(parts), ctx, qual):
            inner = self.bind(m, parts, ctx, depth)
            out: list[str] = []
            body = m.cls.file.struct
            for r in re.finditer(r"\breturn\b", body[:m.body[1]]):
                if r.start() >= m.body[0]:
                    out += self.value((r.end(), _expr_end(body, r.end(), m.body[1])), inner,
                                      depth + 1)
            return list(dict.fromkeys(out))[:MAX_VALUES] or [DYN]
        return [DYN]

    def bind(self, m: JMethod, args: list[tuple[int, int]], ctx: Ctx, depth: int) -> Ctx:
        """The context of helper ``m`` called with ``args`` (read in ``ctx``)."""
        vals = tuple((p, tuple(self.value(a, ctx, depth + 1)))
                     for p, a in zip(m.params, args, strict=False))
        return Ctx(m.cls.file, m.cls, m, vals)

    def lookup(self, name: str, pos: int, ctx: Ctx, depth: int) -> list[str]:
        """Values of a (possibly qualified) name used at ``pos``."""
        qual, _, short = name.rpartition(".")
        if qual and short.upper() in _VERBS and qual.split(".")[-1].endswith("Method"):
            return [short.upper()]
        if not qual:
            bound = ctx.bound(short)
            if bound is not None:
                return list(bound)
            if ctx.method is not None:
                local = [a for a in ctx.method.cls.assigns if a.method is ctx.method and
                         a.name == short and not a.qual and a.pos < pos]
                if local:
                    a = local[-1]
                    return self.value(a.expr, ctx, depth + 1)
                if short in ctx.method.params:
                    return [DYN]
        if qual in ("", "this"):
            classes = self.chain(ctx.cls)
        elif qual.split(".")[-1] in self.by_name:
            classes = [c for k in self.by_name[qual.split(".")[-1]] for c in self.chain(k)]
        else:
            return [DYN]
        out = self.field_values(short, classes, depth)
        if out is None and not qual:  # a statically imported constant
            out = self.field_values(short, [c for f in self.files for c in f.classes], depth,
                                    members_only=True)
        return out or [DYN]

    def field_values(self, name: str, classes: list[JClass], depth: int,
                     members_only: bool = False) -> list[str] | None:
        """Values a field gets in ``classes``: its initialiser and assignments in methods."""
        out: list[str] = []
        found = False
        for c in classes:
            for a in c.assigns:
                if a.name != name or (a.qual not in ("", "this", c.name)) or \
                        (a.decl and not a.member) or (members_only and not a.member):
                    continue
                found = True
                out += self.value(a.expr, Ctx(c.file, c, a.method), depth + 1)
            if found:
                break
        return list(dict.fromkeys(out))[:MAX_VALUES] if found else None

    def setting(self, ctx: Ctx, quals: tuple[str, ...], names: tuple[str, ...],
                calls: tuple[str, ...] = ()) -> list[str]:
        """Values given to a global client setting: an assignment ``Q.name = x`` (``quals``
        with "" for a static import) or a call ``.call(x)``, in the class chain, else anywhere
        in the suite."""
        def scan(classes: list[JClass]) -> list[str]:
            out: list[str] = []
            for c in classes:
                for a in c.assigns:
                    if a.name in names and a.qual in quals and not a.decl:
                        out += self.value(a.expr, Ctx(c.file, c, a.method), 1)
                if not calls:
                    continue
                pat = re.compile(r"\.\s*(?:" + "|".join(calls) + r")\s*\(")
                for m in pat.finditer(c.file.struct, *c.body):
                    if self.class_at(c.file, m.start()) is not c:
                        continue
                    close = close_of(c.file.struct, m.end() - 1)
                    method = next((md for md in c.methods
                                   if md.body[0] <= m.start() < md.body[1]), None)
                    out += self.value((m.end(), close), Ctx(c.file, c, method), 1)
            return list(dict.fromkeys(out))
        return scan(self.chain(ctx.cls)) or scan(
            [c for f in self.files for c in f.classes])

    def type_text(self, name: str, pos: int, ctx: Ctx) -> str:
        """Declared types and initialisers of variable ``name`` seen from ``pos``: enough to
        tell a ``RestTemplate`` from a ``Map``."""
        out = []
        pat = re.compile(r"([\w$.]+(?:\s*<[^;=(){}]*>)?)\s+" + re.escape(name) +
                         r"\s*[;=,)]")
        spans = [(ctx.file, ctx.method.body)] if ctx.method else []
        spans += [(c.file, c.body) for c in self.chain(ctx.cls)]
        for jf, span in spans:
            out += [m.group(1) for m in pat.finditer(jf.struct, *span)]
        for c in self.chain(ctx.cls):
            for a in c.assigns:
                if a.name == name:
                    out.append(c.file.code[slice(*a.expr)])
        return " ".join(out)


def _literal(code: str) -> str:
    code = code.strip()
    if code.startswith('"""'):
        body = code[3:-3]
        return unescape(body.split("\n", 1)[1] if "\n" in body else body).strip()
    return unescape(code[1:-1])


def _format(template: str) -> str:
    return _FORMAT.sub(DYN, template).replace("%%", "%")
