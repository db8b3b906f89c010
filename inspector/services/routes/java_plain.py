"""Java routes without a routing framework: the JDK's ``HttpServer`` and plain servlets (Jetty).

What "declared" means here:

* A **mount** is ``createContext("/x", h)`` (a path prefix: ``h`` gets every sub-path),
  ``addServlet(holder or X.class, "/x" | "/x/*")`` (under ``setContextPath``) or
  ``@WebServlet("/x")``; ``h`` is followed to its code (a lambda, ``this::m``, a class
  implementing ``handle(HttpExchange)``, a servlet's ``doGet``... or ``service``).
* **Methods**: a servlet serves the ``doX`` it overrides; a handler serves the HTTP method
  literals it tests (``"GET".equals(m)``, ``case "GET"``, ``requireMethod(m, "GET")``), read
  per path branch, following calls into methods of the same class.
* **Sub-paths**: literal paths the handler tests (``equals``, ``case``, ``startsWith("/x/")``
  as ``/x/{p}``, ``matches``/``Pattern.compile`` regexes); each keeps the methods tested in its
  branch (or around it). The JDK (and ``getRequestURI``) sees the full path, so a literal
  outside the mount's prefix is dropped; ``getPathInfo`` is relative to a servlet mapping.
* **Route tables** over such a mount (``router.get("/x", h)``, ``add("GET", "/x", h)``) are
  read as declared under the root mount, or under a mount whose prefix the path starts with.

Unreadable parts stay unknown, as elsewhere: a path parsed in code (``substring``, ``split``,
a call taking the path) adds the mount prefix + an unknown part; a branch whose methods cannot be
read gets an unknown part too (so its endpoints are unresolved, never implemented). A branch
that never looks at the method serves every method.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.services.routes.java import _STRING as _STR
from inspector.services.routes.java import JavaRoutes, _close, _File, _split_args
from inspector.services.routes.model import METHODS, Part, Route, Unknown

_MLIT = "|".join(METHODS)
_METHOD_LIT = re.compile(rf'"({_MLIT})"|\bcase\s+(?:\w+\.)?({_MLIT})\b')
_PATH_TEST = re.compile(
    r'\.\s*(equals|equalsIgnoreCase|contentEquals|startsWith|matches)\s*\(\s*("(?:[^"\\]|\\.)*")'
    r'|("(?:[^"\\]|\\.)*")\s*\.\s*(equals|equalsIgnoreCase)\s*\('
    r'|\bcase\s+("(?:[^"\\]|\\.)*")')
_PATTERN_DEF = re.compile(r'\b(\w+)\s*=\s*Pattern\s*\.\s*compile\s*\(\s*("(?:[^"\\]|\\.)*")')
_OPAQUE = re.compile(r"\b(substring|split|replace\w*|indexOf|lastIndexOf|matcher|"
                     r"getPathParameter|subpath)\s*\(")
_COMPARE = {"equals", "equalsIgnoreCase", "contentEquals", "startsWith", "endsWith",
            "contains", "isEmpty", "isBlank", "if", "while", "switch", "println", "log", "info",
            "debug", "warn", "format"}
_DO = {f"do{m.capitalize()}": m for m in METHODS}
_CTX = re.compile(r"\bcreateContext\s*\(")
_ADD = re.compile(r"\baddServlet(?:WithMapping)?\s*\(")
_TABLE_VERB = re.compile(r"\.\s*(get|post|put|delete|patch)\s*\(", re.I)
_TABLE_ADD = re.compile(r"\.\s*(?:add|route|register|map|handle|on|addRoute)\s*\(")
_READ_PATH = re.compile(r"\bget(?:PathInfo|RequestURI|ServletPath|Path)\s*\(")
_READ_METHOD = re.compile(r"\bget(?:Request)?Method\s*\(")


@dataclass
class _Mount:
    prefix: str          # '/x' ('' for the root)
    exact: bool          # a servlet mapping without '/*'
    relative: bool       # handler paths are relative to the prefix (servlet getPathInfo)
    where: str


@dataclass
class _Branch:
    path: tuple[Part, ...]
    methods: list[str] | None   # None: cannot be read
    line: int


def _lit(s: str) -> str:
    return s[1:-1].encode().decode("unicode_escape") if "\\" in s else s[1:-1]


def regex_path(rx: str) -> tuple[Part, ...] | None:
    """A path regex (``^/b/(\\d+)$``) as a path; None when it is not a plain path."""
    s = rx.strip().lstrip("^").rstrip("$")
    s = re.sub(r"\(\?<\w+>[^)]*\)|\([^)]*\)|\[[^\]]*\][+*]|\\[dwDW][+*]|\.[+*]", "{p}", s)
    s = s.replace("\\/", "/").replace("/?", "").replace("\\.", ".").replace("\\-", "-")
    if re.search(r"[\\^$|?*+()\[\]]", s) or not s.startswith("/"):
        return None
    return (s,)


class PlainJava:
    """Routes of JDK ``HttpServer`` / servlet repos (see the module docstring)."""

    def __init__(self, jr: JavaRoutes) -> None:
        self.jr = jr
        self.classes: dict[str, tuple[_File, int, int, str]] = {}  # name -> file, body, header
        for f in jr.files:
            for m in re.finditer(r"\b(?:class|enum|record)\s+(\w+)([^{;]*)\{", f.text):
                end = _close(f.text, m.end() - 1, "{", "}")
                self.classes.setdefault(m.group(1), (f, m.end() - 1, end, m.group(2)))

    # ------------------------------------------------------------------ mounts

    def routes(self) -> list[Route]:
        out: list[Route] = []
        mounts: list[_Mount] = []
        for f in self.jr.files:
            ctx = self._context_path(f)
            for m in _CTX.finditer(f.text):
                args = self._args(f, m.end() - 1)
                if len(args) < 2 or not args[0].startswith('"'):
                    continue
                where = f"{f.rel}:{f.line(m.start())}"
                mount = _Mount(_lit(args[0]).rstrip("/"), False, False, f"createContext {where}")
                mounts.append(mount)
                out += self._mount(f, m.start(), args[1], mount, servlet=False)
            for m in _ADD.finditer(f.text):
                args = self._args(f, m.end() - 1)
                if len(args) < 2 or not args[1].startswith('"'):
                    continue
                where = f"{f.rel}:{f.line(m.start())}"
                for mount in self._mapping(ctx, _lit(args[1]), f"addServlet {where}"):
                    mounts.append(mount)
                    out += self._mount(f, m.start(), args[0], mount, servlet=True)
        for name, (f, body, _end, _head) in self.classes.items():
            for m in re.finditer(r"@(?:\w+\.)*WebServlet\s*\(", f.text[:body]):
                if self.classes.get(name, (None,))[0] is not f:
                    continue
                decl = re.search(rf"\bclass\s+{name}\b", f.text[m.end():body])
                if decl is None or re.search(r"\bclass\s", f.text[m.end():m.end() + decl.start()]):
                    continue
                args = _split_args(f.text[m.end():_close(f.text, m.end() - 1)])
                pats = [re.sub(r"^\s*(value|urlPatterns)\s*=\s*", "", a) for a in args
                        if not re.match(r"\s*\w+\s*=", a)
                        or re.match(r"\s*(value|urlPatterns)\b", a)]
                where = f"@WebServlet {f.rel}:{f.line(m.start())}"
                for lit in re.findall(r'"(?:[^"\\]|\\.)*"', " ".join(pats)):
                    for mount in self._mapping("", _lit(lit), where):
                        mounts.append(mount)
                        out += self._class_routes(name, mount, servlet=True)
        if mounts:
            out += self._tables(mounts)
        return out

    def _context_path(self, f: _File) -> str:
        m = re.search(r'setContextPath\s*\(\s*("(?:[^"\\]|\\.)*")', f.text)
        return _lit(m.group(1)).rstrip("/") if m else ""

    def _mapping(self, ctx: str, pat: str, where: str) -> list[_Mount]:
        if pat in ("/", "/*", ""):
            return [_Mount(ctx, False, True, where)]
        if pat.endswith("/*"):
            return [_Mount(ctx + pat[:-2].rstrip("/"), False, True, where)]
        if pat.startswith("/") and "*" not in pat:
            return [_Mount(ctx + pat.rstrip("/"), True, True, where)]
        return []

    def _args(self, f: _File, open_at: int) -> list[str]:
        return _split_args(f.text[open_at + 1:_close(f.text, open_at)])

    def _mount(self, f: _File, at: int, handler: str, mount: _Mount, servlet: bool
               ) -> list[Route]:
        """Routes of the handler expression ``handler`` mounted at ``mount``."""
        h = handler.strip()
        inner = re.search(r"new\s+ServletHolder\s*\((.*)\)\s*$", h, re.S)
        if inner:
            parts = _split_args(inner.group(1))
            h = parts[-1] if parts else ""
        lam = re.match(r"\(?\s*\w*\s*\)?\s*->", h)
        if lam:
            start = f.text.find(h, max(0, at))
            arrow = f.text.find("->", start) + 2
            body_open = f.text.find("{", arrow)
            if start < 0 or body_open < 0:
                return []
            return self._region(f, [(body_open, _close(f.text, body_open, "{", "}"))],
                                None, mount, f.line(at))
        ref = re.fullmatch(r"(.*?)\s*::\s*(\w+)", h, re.S)
        if ref:
            recv = ref.group(1).strip()
            made = re.match(r"new\s+(\w+)", recv)
            cls = made.group(1) if made else recv if recv in self.classes else (
                self._var_type(f, recv) if recv != "this" else None) or self._owner(f, at)
            span = self._method(cls, ref.group(2)) if cls else None
            return self._region(span[0], [span[1]], None, mount, span[0].line(span[1][0])) \
                if span else []
        name = None
        new = re.match(r"new\s+(\w+)\s*[(<]", h)
        cls_lit = re.fullmatch(r"(\w+)\s*\.\s*class", h)
        if new:
            name = new.group(1)
        elif cls_lit:
            name = cls_lit.group(1)
        elif re.fullmatch(r"[\w.]+", h):
            name = self._var_type(f, h)
        if name is None or name not in self.classes:
            return []
        return self._class_routes(name, mount, servlet)

    def _var_type(self, f: _File, expr: str) -> str | None:
        """The in-repo class of variable ``expr`` (declared type, else what it is made from)."""
        var = expr.rsplit(".", 1)[-1]
        if not re.fullmatch(r"\w+", var):
            return None
        decl = re.search(rf"\b([A-Z]\w*)(?:<[^>]*>)?\s+{var}\s*[=;,)]", f.text)
        if decl and decl.group(1) in self.classes:
            return decl.group(1)
        assign = re.search(rf"\b{var}\s*=\s*new\s+(\w+)", f.text)
        return assign.group(1) if assign else None

    def _owner(self, f: _File, at: int) -> str | None:
        best = None
        for name, (cf, body, end, _h) in self.classes.items():
            if cf is f and body < at < end and (best is None or body > self.classes[best][1]):
                best = name
        return best

    def _method(self, cls: str, name: str, depth: int = 0
                ) -> tuple[_File, tuple[int, int]] | None:
        """The body span of method ``name`` of ``cls`` (or an in-repo superclass)."""
        if cls not in self.classes or depth > 4:
            return None
        f, body, end, head = self.classes[cls]
        for m in re.finditer(rf"\b{name}\s*\(", f.text[body:end]):
            p = body + m.start()
            close = _close(f.text, p + len(name) + m.group(0)[len(name):].index("("))
            nxt = re.match(r"\s*(?:throws\s+[\w.,\s]+)?\{", f.text[close + 1:])
            before = f.text[max(body, p - 80):p]
            if nxt and not re.search(r"(\bnew|\.|return|=)\s*$", before):
                open_at = close + nxt.end()
                return f, (open_at, _close(f.text, open_at, "{", "}"))
        sup = re.search(r"\bextends\s+(\w+)", head)
        return self._method(sup.group(1), name, depth + 1) if sup else None

    def _class_routes(self, cls: str, mount: _Mount, servlet: bool) -> list[Route]:
        out: list[Route] = []
        svc = self._method(cls, "service") if servlet else self._method(cls, "handle")
        if svc and servlet and re.search(r"super\s*\.\s*service\s*\(",
                                         svc[0].text[svc[1][0]:svc[1][1]]):
            svc = None  # delegates to doGet...: read those
        if svc:
            return self._region(svc[0], [svc[1]], None, mount, svc[0].line(svc[1][0]))
        if not servlet:
            return out
        for do, meth in _DO.items():
            span = self._method(cls, do)
            if span:
                out += self._region(span[0], [span[1]], [meth], mount,
                                    span[0].line(span[1][0]))
        return out

    # ------------------------------------------------------------------ one handler

    def _region(self, f: _File, spans: list[tuple[int, int]], base: list[str] | None,
                mount: _Mount, line: int) -> list[Route]:
        rel_paths = mount.relative and bool(
            any(re.search(r"getPathInfo\s*\(", f.text[a:b]) for a, b in spans)
            or not any(_READ_PATH.search(f.text[a:b]) for a, b in spans))
        branches, opaque, methods = self._walk(f, spans, base, 0)
        out: list[Route] = []
        origin = mount.where
        prefix = mount.prefix or ""
        if mount.exact:
            meths = methods if methods else None
            return self._emit(f, [_Branch((prefix or "/",), meths, line)], origin, base)
        for br in branches:
            lit = "".join(p for p in br.path if isinstance(p, str))
            if rel_paths:
                path: tuple[Part, ...] = ((prefix,) if prefix else ()) + (
                    br.path if lit != "/" else ())
                path = path or ("/",)
            else:
                if prefix and not (lit == prefix or lit.startswith(prefix + "/")):
                    continue  # the full path: another mount's endpoint
                path = br.path
            out += self._emit(f, [_Branch(path, br.methods, br.line)], origin, base)
        if not branches or opaque:
            where = f"{f.rel}:{line}"
            tail: tuple[Part, ...] = ("/", Unknown(f"sub-path parsed in code ({where})")) \
                if opaque else ()
            meths = methods if methods else (None if self._reads_method(f, spans)
                                              else list(METHODS))
            out += self._emit(f, [_Branch(((prefix or "/"),) + tail, meths, line)], origin, base)
        return out

    def _emit(self, f: _File, branches: list[_Branch], origin: str, base: list[str] | None
              ) -> list[Route]:
        out = []
        for br in branches:
            methods = br.methods if br.methods is not None else (base or list(METHODS))
            path = br.path
            if br.methods is None and base is None:
                path = path + ("/", Unknown(f"methods tested in code not readable "
                                       f"({f.rel}:{br.line})"),)
            for meth in methods:
                out.append(Route(meth, path, f.rel, br.line, f.src(br.line), origin))
        return out

    def _reads_method(self, f: _File, spans: list[tuple[int, int]]) -> bool:
        return any(_READ_METHOD.search(f.text[a:b]) or re.search(r"\bmethod\b", f.text[a:b])
                   for a, b in spans)

    def _walk(self, f: _File, spans: list[tuple[int, int]], base: list[str] | None, depth: int
              ) -> tuple[list[_Branch], bool, list[str]]:
        """Path branches, whether the path is parsed opaquely, and every method tested."""
        branches: list[_Branch] = []
        opaque = False
        methods: list[str] = list(base or [])
        patterns = {m.group(1): m.group(2) for m in _PATTERN_DEF.finditer(f.text)}
        for a, b in spans:
            text = f.text
            tests = []  # (pos, path parts, scope)
            for m in _PATH_TEST.finditer(text, a, b):
                op = m.group(1) or m.group(4) or "case"
                raw = m.group(2) or m.group(3) or m.group(5)
                s = _lit(raw)
                if not s.startswith("/") and not (op == "matches" and s.startswith("^/")):
                    continue
                if op == "matches":
                    parts = regex_path(s)
                    if parts is None:
                        opaque = True
                        continue
                elif op == "startsWith":
                    parts = (s + "{p}",) if s.endswith("/") else \
                        (s, "/", Unknown(f"sub-path after {s} parsed in code "
                                    f"({f.rel}:{f.line(m.start())})"))
                else:
                    parts = (s,)
                tests.append((m.start(), parts, _scope(text, m.start(), a, b)))
            for name, rx in patterns.items():
                for m in re.finditer(rf"\b{name}\s*\.\s*matcher\s*\(", text[a:b]):
                    parts = regex_path(_lit(rx))
                    pos = a + m.start()
                    if parts is None:
                        opaque = True
                        continue
                    tests.append((pos, parts, _matcher_scope(text, pos, a, b)))
            mtests = [(m.start(), m.group(1) or m.group(2), _scope(text, m.start(), a, b))
                      for m in _METHOD_LIT.finditer(text, a, b)]
            methods += [x for _, x, _ in mtests if x not in methods]
            for pos, parts, scope in tests:
                inner = [t for t in tests if t[2] != scope and scope[0] <= t[2][0]
                         and t[2][1] <= scope[1]]
                if inner:
                    continue  # a group: its inner tests carry the routes
                nested = [t[2] for t in tests if t[0] != pos and t[2][0] < t[2][1]
                          and scope[0] < t[2][0] and t[2][1] <= scope[1]]
                own = [x for p, x, _ in mtests if scope[0] <= p < scope[1]
                       and not any(n[0] <= p < n[1] for n in nested)]
                around = [x for p, x, sc in mtests if sc[0] <= pos < sc[1] and
                          not (scope[0] <= p < scope[1])]
                found = list(dict.fromkeys(own + around + list(base or [])))
                if not found and depth < 3:
                    for sub in self._callees(f, scope):
                        found += self._walk(f, [sub], None, depth + 1)[2]
                    found = list(dict.fromkeys(found))
                if not found:
                    found_or_none = None if self._reads_method(f, [scope]) else list(METHODS)
                else:
                    found_or_none = found
                branches.append(_Branch(parts, found_or_none, f.line(pos)))
            opaque = opaque or self._opaque(text[a:b])
            leaves = [sc for _, _, sc in tests]
            if depth < 3:
                for sub in self._callees(f, (a, b), leaves):
                    sb, so, sm = self._walk(f, [sub], base, depth + 1)
                    branches += sb
                    opaque = opaque or so
                    methods += [x for x in sm if x not in methods]
        return branches, opaque, methods

    @staticmethod
    def _opaque(seg: str) -> bool:
        """Whether the request path is parsed here beyond literal tests: an operation such as
        ``substring``/``split`` on it, or it is passed to a call."""
        names = {"path"} | set(re.findall(
            r"\b(\w+)\s*=\s*[\w.]*(?:getPathInfo|getRequestURI|getServletPath)\s*\(", seg))
        names |= set(re.findall(r"\b(\w+)\s*=\s*[\w.]*getRequestURI\s*\(\s*\)\s*\.\s*"
                                r"(?:getPath|getRawPath)\s*\(", seg))
        ref = r"(?:\b(?:" + "|".join(sorted(names)) + r")\b|\w+\s*\.\s*" \
              r"(?:getPathInfo|getRequestURI|getServletPath)\s*\(\s*\))"
        if re.search(ref + r"\s*\.\s*" + _OPAQUE.pattern, seg):
            return True
        return any(m.group(1) not in _COMPARE for m in re.finditer(
            r"(\w+)\s*\((?:[^()]*,)?\s*" + ref + r"\s*[,)]", seg))

    def _callees(self, f: _File, span: tuple[int, int],
                 skip: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        """Bodies of same-class methods called in ``span`` (not within ``skip``)."""
        cls = self._owner(f, span[0])
        out: list[tuple[int, int]] = []
        if cls is None:
            return out
        for m in re.finditer(r"(?<![\w.])(?:this\s*\.\s*)?(\w+)\s*\(", f.text[span[0]:span[1]]):
            at = span[0] + m.start()
            if any(x[0] <= at < x[1] for x in skip or ()):
                continue
            if m.group(1) in ("if", "for", "while", "switch", "catch", "synchronized",
                              "return", "new", "super", "this"):
                continue
            got = self._method(cls, m.group(1))
            if got and got[0] is f and got[1] != span and got[1] not in out:
                out.append(got[1])
        return out

    # ------------------------------------------------------------------ route tables

    def _router(self, f: _File, dot: int) -> bool:
        """Whether the receiver of the call at ``dot`` can be a route table: a chained call,
        or a variable of an in-repo (or router-named) type; never a map or a request."""
        before = f.text[max(0, dot - 120):dot].rstrip()
        if before.endswith(")"):
            return True
        recv = re.search(r"(\w+)$", before)
        if recv is None:
            return False
        name = recv.group(1)
        decl = re.search(rf"\b([A-Z][\w.]*)(?:<[^;=]*>)?\s+{name}\s*[=;,)]", f.text)
        if decl:
            typ = decl.group(1).rsplit(".", 1)[-1]
            if _NOT_ROUTER.search(typ):
                return False
            return typ in self.classes or bool(re.search(r"Rout|Dispatch|Registry|Api|App",
                                                         typ))
        return bool(re.search(r"rout|dispatch|registry|api|app", name, re.I))

    def _tables(self, mounts: list[_Mount]) -> list[Route]:
        root = any(not m.prefix and not m.exact for m in mounts)
        out: list[Route] = []
        for f in self.jr.files:
            for rx, verb_first in ((_TABLE_VERB, False), (_TABLE_ADD, True)):
                for m in rx.finditer(f.text):
                    args = self._args(f, m.end() - 1)
                    if verb_first:
                        if len(args) < 3:
                            continue
                        vm = re.fullmatch(rf'"({_MLIT})"|(?:\w+\.)?({_MLIT})', args[0])
                        if not vm:
                            continue
                        meth, path_arg, handler = vm.group(1) or vm.group(2), args[1], args[2]
                    else:
                        if len(args) < 2:
                            continue
                        meth, path_arg, handler = m.group(1).upper(), args[0], args[1]
                    if not path_arg.startswith('"') or not _is_handler(handler) or \
                            not self._router(f, m.start()):
                        continue
                    path = _lit(path_arg)
                    if not path.startswith("/"):
                        continue
                    line = f.line(m.start())
                    under = [mt for mt in mounts if mt.prefix and (
                        path == mt.prefix or path.startswith(mt.prefix + "/"))]
                    parts: tuple[Part, ...] = (path,)
                    if not root and not under:
                        parts = (Unknown(f"route table at {f.rel}:{line}: its mount is not "
                                         "read"), path)
                    out.append(Route(meth, parts, f.rel, line, f.src(line), "route table"))
        return out


_NOT_ROUTER = re.compile(r"(?:Map|Set|List|Cache|Properties|Headers|Collection|Optional|"
                         r"Builder|Request|Response|Exchange|Node)\b")


def _is_handler(arg: str) -> bool:
    a = arg.strip()
    return "->" in a or "::" in a or a.startswith("new ") or bool(
        re.fullmatch(r"[A-Za-z_][\w.]*", a))


def _scope(text: str, pos: int, a: int, b: int) -> tuple[int, int]:
    """Where a test at ``pos`` decides: its ``if`` (condition + branch), its ``case`` up to the
    next label, or, for a negated test whose branch exits, the rest of the block."""
    case = re.match(r"case\b", text[pos:pos + 4])
    if case:
        depth, i = 0, pos + 4
        while i < b:
            c = text[i]
            if c == '"':
                m = _STR.match(text, i)
                i = m.end() if m else i + 1
                continue
            if c in "{(":
                depth += 1
            elif c in "})":
                if depth == 0:
                    return pos, i
                depth -= 1
            elif depth == 0 and re.match(r"(case|default)\b", text[i:i + 7]) and \
                    not re.match(r"\w", text[i - 1]):
                return pos, i
            i += 1
        return pos, b
    # the innermost unclosed '(' before pos that belongs to an `if`
    depth, i = 0, pos - 1
    while i >= a:
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                if re.search(r"\bif\s*$", text[max(a, i - 8):i]):
                    close = _close(text, i)
                    end = _stmt_end(text, close + 1, b)
                    negated = bool(re.search(r"!\s*(?:\w+\s*\.\s*)*$|!\s*\"[^\"]*\"\s*\.\s*$",
                                             text[i:pos])) and \
                        bool(re.search(r"\b(return|throw)\b", text[close:end]))
                    if negated:
                        return end, _block_end(text, i, b)
                    return i, end
            else:
                depth -= 1
        elif c in "{};" and depth == 0:
            break
        i -= 1
    # not in an `if`: a bare call such as requireMethod(m, "GET") decides for its block
    return pos, pos


def _matcher_scope(text: str, pos: int, a: int, b: int) -> tuple[int, int]:
    sc = _scope(text, pos, a, b)
    if sc[1] > sc[0]:
        return sc
    var = re.search(r"(\w+)\s*=\s*$", text[max(a, pos - 60):pos])
    if var:
        m = re.search(rf"\bif\s*\(\s*{var.group(1)}\s*\.\s*(?:matches|find|lookingAt)\s*\(",
                      text[pos:b])
        if m:
            return _scope(text, pos + m.end() - 1, a, b)
    return pos, pos


def _stmt_end(text: str, i: int, b: int) -> int:
    while i < b and text[i] in " \t\r\n":
        i += 1
    if i < b and text[i] == "{":
        return _close(text, i, "{", "}") + 1
    depth = 0
    while i < b:
        c = text[i]
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1
    return b


def _block_end(text: str, i: int, b: int) -> int:
    depth = 0
    while i < b:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return b

