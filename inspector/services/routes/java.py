"""Java routes: Spring MVC, JAX-RS (Quarkus), Micronaut, Javalin and Spark.

No compiler here, so a small scanner: comments are blanked (strings kept), annotations are
grouped per declaration, and a class's body is the span of its braces.

* Spring: class ``@RequestMapping`` prefixes + ``@GetMapping``... or ``@RequestMapping(method=)``
  on methods (``value``/``path``, arrays; no ``method`` means every method); the
  ``server.servlet.context-path`` / ``spring.mvc.servlet.path`` properties go first.
* JAX-RS: class ``@Path`` + method ``@Path`` and ``@GET``...; ``@ApplicationPath`` and
  ``quarkus.http.root-path`` / ``quarkus.rest(easy).path`` go first.
* Micronaut: ``@Controller("/x")`` + ``@Get("/y")``...; ``micronaut.server.context-path``.
* Javalin / Spark: ``app.get("/x", handler)``, static ``get(...)`` (``ApiBuilder``,
  ``Spark``), nested ``path("/x", () -> {...})`` groups (``app.routes``/``apiBuilder`` too) and
  Javalin ``crud()``; a file counts only when it mentions Javalin or Spark.

Paths may use ``static final String`` constants (``Api.BASE + "/users"``) and ``${...}``
property placeholders; what cannot be found becomes an unknown part with its reason.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from inspector.services.routes.model import METHODS, Part, Route, Unknown

_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
_CONST = re.compile(r"\bstatic\s+final\s+String\s+(\w+)\s*=\s*([^;]+);")
_ANNOT = re.compile(r"@(\w+(?:\.\w+)*)")
_CLASS = re.compile(r"\b(?:class|interface|record|enum)\s+(\w+)")
_DECL = re.compile(r"(?:\s|public|protected|private|static|final|abstract|default|sealed)*"
                   r"(?:class|interface|record|enum)\b")
_VERB_MAP = {f"{m.capitalize()}Mapping": m for m in METHODS}
_JAXRS = {m: m for m in METHODS}
_MICRONAUT = {m.capitalize(): m for m in METHODS}
_CALL = re.compile(r"(?<![@\w])(?:(?:\w+(?:\(\))?\s*\.\s*)+)?(get|post|put|delete|patch|path|"
                   r"crud)\s*\(", re.I)
_PROPS = ("server.servlet.context-path", "spring.mvc.servlet.path", "quarkus.http.root-path",
          "quarkus.resteasy.path", "quarkus.rest.path", "micronaut.server.context-path")


def _blank_comments(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        s = m.group(0)
        if s[0] in "\"'":
            return s
        return re.sub(r"[^\n]", " ", s)
    return _COMMENT.sub(repl, text)


def _close(text: str, i: int, open_ch: str = "(", close_ch: str = ")") -> int:
    """Index of the bracket closing the one at ``i`` (strings skipped); len(text) if none."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            m = _STRING.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def _split_args(s: str) -> list[str]:
    out, depth, cur, i = [], 0, [], 0
    while i < len(s):
        c = s[i]
        if c == '"':
            m = _STRING.match(s, i)
            end = m.end() if m else i + 1
            cur.append(s[i:end])
            i = end
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


@dataclass
class _File:
    rel: str
    text: str
    lines: list[str]
    line_starts: list[int] = field(default_factory=list)

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.line_starts, pos)

    def src(self, line: int) -> str:
        return self.lines[line - 1].strip()[:200] if 0 < line <= len(self.lines) else ""


class JavaRoutes:
    def __init__(self, texts: list[tuple[str, str]]) -> None:
        self.files: list[_File] = []
        self.consts: dict[str, str] = {}
        self.props: dict[str, str] = {}
        for rel, text in texts:
            if rel.endswith(".java"):
                clean = _blank_comments(text)
                f = _File(rel, clean, text.splitlines())
                starts, pos = [0], 0
                for ln in text.splitlines(keepends=True):
                    pos += len(ln)
                    starts.append(pos)
                f.line_starts = starts
                self.files.append(f)
                cls = rel.rsplit("/", 1)[-1][:-5]
                for m in _CONST.finditer(clean):
                    self.consts.setdefault(m.group(1), m.group(2).strip())
                    self.consts[f"{cls}.{m.group(1)}"] = m.group(2).strip()
            elif rel.rsplit("/", 1)[-1].startswith(("application", "bootstrap")) and \
                    rel.endswith((".properties", ".yml", ".yaml")):
                self._read_props(text, rel.endswith(".properties"))

    def _read_props(self, text: str, flat: bool) -> None:
        if flat:
            for ln in text.splitlines():
                m = re.match(r"\s*([\w.\-]+)\s*[=:]\s*(.*?)\s*$", ln)
                if m and not ln.lstrip().startswith(("#", "!")):
                    self.props.setdefault(m.group(1), m.group(2))
            return
        stack: list[tuple[int, str]] = []
        for ln in text.splitlines():
            m = re.match(r"^(\s*)([\w.\-]+)\s*:\s*(.*?)\s*$", ln)
            if not m or ln.lstrip().startswith("#"):
                continue
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key = ".".join([k for _, k in stack] + [m.group(2)])
            if m.group(3):
                self.props.setdefault(key, m.group(3).strip("'\""))
            else:
                stack.append((indent, m.group(2)))

    # ------------------------------------------------------------------ values

    def value(self, expr: str, where: str, depth: int = 0) -> tuple[Part, ...]:
        """A Java string expression: literals, constants, ``+``, ``${property}``."""
        out: list[Part] = []
        for piece in _split_plus(expr.strip()):
            piece = piece.strip().strip("()").strip()
            if piece.startswith('"'):
                out.extend(self._placeholders(piece[1:-1], where))
            elif re.fullmatch(r"[\w.]+", piece) and depth < 8 and (
                    piece in self.consts or piece.rsplit(".", 1)[-1] in self.consts):
                key = piece if piece in self.consts else piece.rsplit(".", 1)[-1]
                out.extend(self.value(self.consts[key], where, depth + 1))
            else:
                out.append(Unknown(f"runtime value {piece[:60]} ({where})"))
        return tuple(out)

    def _placeholders(self, s: str, where: str) -> list[Part]:
        out: list[Part] = []
        pos = 0
        for m in re.finditer(r"\$\{([^}:]+)(?::([^}]*))?\}", s):
            out.append(s[pos:m.start()])
            if m.group(1) in self.props:
                out.append(self.props[m.group(1)])
            elif m.group(2) is not None:
                out.append(m.group(2))
            else:
                out.append(Unknown(f"property {m.group(1)} not set in application "
                                   f"properties ({where})"))
            pos = m.end()
        out.append(s[pos:])
        return [p for p in out if p != ""]

    def _values(self, expr: str | None, where: str) -> list[tuple[Part, ...]]:
        """Every path of an annotation attribute (an array gives several)."""
        if expr is None:
            return [()]
        expr = expr.strip()
        if expr.startswith("{") and expr.endswith("}"):
            items = _split_args(expr[1:-1])
            return [self.value(i, where) for i in items] or [()]
        return [self.value(expr, where)]

    def _prop_prefix(self, *keys: str) -> tuple[Part, ...]:
        out: tuple[Part, ...] = ()
        for k in keys:
            if self.props.get(k):
                out += ("/", self.props[k])
        return out

    # ------------------------------------------------------------------ annotations

    def routes(self) -> list[Route]:
        out: list[Route] = []
        app_path: tuple[Part, ...] = ()
        for f in self.files:
            for m in re.finditer(r"@(?:\w+\.)*ApplicationPath\s*\(\s*([^)]*)\)", f.text):
                app_path = self.value(m.group(1), f"{f.rel}:{f.line(m.start())}")
        spring = self._prop_prefix("server.servlet.context-path", "spring.mvc.servlet.path")
        jaxrs = self._prop_prefix("quarkus.http.root-path", "quarkus.resteasy.path",
                                  "quarkus.rest.path") + (("/",) + app_path if app_path else ())
        micronaut = self._prop_prefix("micronaut.server.context-path")
        for f in self.files:
            out += self._annotated(f, spring, jaxrs, micronaut)
            low = f.text.lower()
            if "javalin" in low or "spark" in low:
                out += self._calls(f)
        return out

    def _groups(self, f: _File) -> list[tuple[list[tuple[str, str | None, int]], int]]:
        """Annotation groups ``[(name, args, pos)]`` with the position after the last one."""
        groups: list[tuple[list[tuple[str, str | None, int]], int]] = []
        cur: list[tuple[str, str | None, int]] = []
        end = -1
        for m in _ANNOT.finditer(f.text):
            if m.start() < end:
                continue
            if cur and f.text[end:m.start()].strip() not in ("", "public", "private",
                                                             "protected", "static", "final",
                                                             "abstract"):
                groups.append((cur, end))
                cur = []
            name = m.group(1).rsplit(".", 1)[-1]
            j = m.end()
            while j < len(f.text) and f.text[j] in " \t\r\n":
                j += 1
            args = None
            end = m.end()
            if j < len(f.text) and f.text[j] == "(":
                close = _close(f.text, j)
                args = f.text[j + 1:close]
                end = close + 1
            cur.append((name, args, m.start()))
        if cur:
            groups.append((cur, end))
        return groups

    def _classes(self, f: _File) -> list[tuple[int, int, int]]:
        """(declaration start, body start, body end) of every class."""
        out = []
        for m in _CLASS.finditer(f.text):
            brace = f.text.find("{", m.end())
            if brace < 0:
                continue
            out.append((m.start(), brace, _close(f.text, brace, "{", "}")))
        return out

    def _annotated(self, f: _File, spring: tuple[Part, ...], jaxrs: tuple[Part, ...],
                   micronaut: tuple[Part, ...]) -> list[Route]:
        classes = self._classes(f)
        class_prefix: dict[int, tuple[str, list[tuple[Part, ...]], int]] = {}
        members: list[tuple[list[tuple[str, str | None, int]], int]] = []
        for annots, end in self._groups(f):
            if _DECL.match(f.text, end):
                decl = next((c for c in classes if c[0] >= end), None)
                if decl is None:
                    continue
                for name, args, pos in annots:
                    where = f"{f.rel}:{f.line(pos)}"
                    if name == "RequestMapping":
                        class_prefix[decl[1]] = ("spring", self._values(_attr(args), where),
                                                 f.line(pos))
                    elif name == "Path":
                        class_prefix[decl[1]] = ("jaxrs", self._values(_attr(args), where),
                                                 f.line(pos))
                    elif name == "Controller":
                        class_prefix[decl[1]] = ("micronaut", self._values(
                            _attr(args, ("value", "uri")), where), f.line(pos))
            else:
                members.append((annots, end))
        out: list[Route] = []
        for annots, _end in members:
            pos0 = annots[0][2]
            owner = max((c for c in classes if c[1] < pos0 < c[2]), default=None,
                        key=lambda c: c[1])
            kind, prefixes, pline = class_prefix.get(owner[1], ("", [()], 0)) if owner \
                else ("", [()], 0)
            for name, args, pos in annots:
                where = f"{f.rel}:{f.line(pos)}"
                line = f.line(pos)
                methods: list[str] = []
                paths: list[tuple[Part, ...]] = []
                base: tuple[Part, ...] = ()
                if name in _VERB_MAP or name == "RequestMapping":
                    base = spring
                    paths = self._values(_attr(args), where)
                    if name == "RequestMapping":
                        mm = re.findall(r"RequestMethod\.(\w+)", args or "")
                        methods = [x for x in mm if x in METHODS] if mm else list(METHODS)
                    else:
                        methods = [_VERB_MAP[name]]
                elif name in _JAXRS:
                    base = jaxrs
                    methods = [name]
                    sub = next((a for n, a, _ in annots if n == "Path"), None)
                    paths = self._values(_attr(sub), where)
                elif name in _MICRONAUT and kind == "micronaut":
                    base = micronaut
                    methods = [_MICRONAUT[name]]
                    paths = self._values(_attr(args, ("value", "uri")), where)
                else:
                    continue
                origin = f"class prefix {f.rel}:{pline}" if pline else ""
                for pre in prefixes:
                    for p in paths:
                        full = base + ("/",) + pre + ("/",) + p
                        for meth in methods:
                            out.append(Route(meth, full, f.rel, line, f.src(line), origin))
        return out

    # ------------------------------------------------------------------ Javalin / Spark

    def _calls(self, f: _File) -> list[Route]:
        text = f.text
        calls = []
        for m in _CALL.finditer(text):
            open_at = m.end() - 1
            close = _close(text, open_at)
            calls.append((m.group(1).lower(), m.start(), open_at, close,
                          _split_args(text[open_at + 1:close])))
        groups = []  # (open, close, path parts, line)
        ctx = self._prop_prefix()
        cm = re.search(r"contextPath\s*=\s*(\"[^\"]*\")", text)
        if cm:
            ctx = self.value(cm.group(1), f.rel)
        for verb, start, open_at, close, args in calls:
            if verb == "path" and len(args) >= 2 and "->" in args[1]:
                where = f"{f.rel}:{f.line(start)}"
                groups.append((open_at, close, self.value(args[0], where), f.line(start)))
        out: list[Route] = []
        for verb, start, open_at, _close_at, args in calls:
            if verb == "path" or not args:
                continue
            outer = [g for g in groups if g[0] < open_at < g[1]]
            where = f"{f.rel}:{f.line(start)}"
            first = args[0]
            pathish = first.startswith('"') or bool(re.fullmatch(r"[\w.]+(\s*\+.+)?", first))
            if pathish and len(args) >= 2 and _handler(args[1]):
                own = self.value(first, where)
                if any(isinstance(p, Unknown) for p in own):
                    continue  # `map.put(key, value)`, not a route
                # outside a group a path starts with '/': a "key" string is a map's put/get
                if not outer and not "".join(p if isinstance(p, str) else "/"
                                             for p in own).startswith("/"):
                    continue
            elif outer and len(args) == 1 and _handler(first):
                own = ()
            else:
                continue
            prefix: tuple[Part, ...] = ctx
            for g in outer:
                prefix += ("/",) + g[2]
            full = prefix + ("/",) + own
            line = f.line(start)
            origin = "path group " + ", ".join(f"{f.rel}:{g[3]}" for g in outer) if outer \
                else ""
            if verb == "crud":
                coll = full
                segs = "".join(p for p in own if isinstance(p, str)).rstrip("/").split("/")
                if segs and segs[-1].startswith(("{", "<", ":")):
                    coll = prefix + ("/",) + ("/".join(segs[:-1]),)
                for meth, p in (("GET", coll), ("POST", coll), ("GET", full),
                                ("PATCH", full), ("DELETE", full)):
                    out.append(Route(meth, p, f.rel, line, f.src(line), origin))
                continue
            out.append(Route(verb.upper(), full, f.rel, line, f.src(line), origin))
        return out


def _handler(arg: str) -> bool:
    a = arg.strip()
    return "->" in a or "::" in a or a.startswith("new ") or bool(
        re.fullmatch(r"[A-Za-z_][\w.]*", a))


def _split_plus(expr: str) -> list[str]:
    out, cur, i = [], [], 0
    while i < len(expr):
        c = expr[i]
        if c == '"':
            m = _STRING.match(expr, i)
            end = m.end() if m else i + 1
            cur.append(expr[i:end])
            i = end
            continue
        if c == "+":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return [p for p in out if p.strip()]


def _attr(args: str | None, names: tuple[str, ...] = ("value", "path")) -> str | None:
    """The path attribute of an annotation: the bare value or ``value=``/``path=``."""
    if args is None or not args.strip():
        return None
    parts = _split_args(args)
    for p in parts:
        m = re.match(r"(\w+)\s*=\s*(.*)$", p, re.S)
        if m and m.group(1) in names:
            return m.group(2)
    first = parts[0] if parts else ""
    if first and not re.match(r"\w+\s*=", first):
        return first
    return None
