"""Which JUnit tests hit which README endpoint, found statically (never compiled nor run).

Tests are the ``@Test``/``@ParameterizedTest``/``@RepeatedTest``... methods
:mod:`inspector.model.suite.java_tests` finds (nested ``@Nested`` classes included), with its ids
(``pkg.Outer$Inner::method``, Surefire's), so the map links to per-test results. The sources are
read by :mod:`inspector.services.suite.java_source`. In each test's body (lambdas included) and
in the suite's own methods it calls (same class, base classes, outer classes, or
``OtherClass.helper(...)``; arguments bound at the call site, up to 6 deep), these calls count:

* RestAssured: ``given()...when().get(url)``, ``RestAssured.post(url)``, a static-imported
  ``get(url)``, ``.request(Method.X, url)``; a relative path is joined to ``RestAssured.baseURI``
  + ``basePath`` (assigned anywhere in the class, its bases, or ``RequestSpecBuilder``
  ``setBaseUri``/``setBasePath``; ``.baseUri()``/``.basePath()`` in the chain first).
* ``java.net.http``: ``HttpRequest.newBuilder(uri)``/``.uri(uri)`` with ``.GET()``,
  ``.POST(..)``, ``.PUT(..)``, ``.DELETE()``, ``.method("PATCH", ..)`` (GET by default).
* Spring: MockMvc ``perform(get(url))``/``MockMvcRequestBuilders.post(url)``/``multipart``;
  ``RestTemplate``/``TestRestTemplate`` ``getForEntity``, ``postForObject``..., ``put``,
  ``delete``, ``exchange(url, HttpMethod.X, ..)``; ``WebTestClient``/``WebClient``
  ``.get().uri(url)``, ``.method(HttpMethod.X).uri(url)``. Micronaut ``HttpRequest.GET(url)``.
* OkHttp ``new Request.Builder().url(u).post(body)`` (GET by default); Unirest
  ``Unirest.get(url)`` (joined to ``Unirest.config().defaultBaseUrl(..)``),
  ``Unirest.request("PATCH", url)``; ``HttpURLConnection``: ``url.openConnection()`` with the
  connection's ``setRequestMethod(..)`` (GET by default).

``{name}`` templates and ``String.format`` specifiers are wildcard segments; a relative path on
a client with no known base may sit under leading literal segments of the endpoint. Matching is
:mod:`inspector.services.suite.endpoint_match`'s, the same as for Python suites.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from inspector.model import Endpoint
from inspector.model.suite.java_tests import scan_java_source
from inspector.services.suite.endpoint_match import (
    EndpointTests,
    Hit,
    credit,
    dynamic_base,
    endpoint_segments,
    path_segments,
    via,
)
from inspector.services.suite.java_source import (
    KEYWORDS,
    Ctx,
    JavaSuite,
    JFile,
    JMethod,
    close_of,
    split_top,
)
from inspector.services.suite.source import DYN

MAX_CALL_CHARS = 160
_MAX_DEPTH = 6
_VERBS = ("get", "post", "put", "delete", "patch", "head", "options")
_CALL = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
_TEMPLATE_CALLS = {"getForEntity": "GET", "getForObject": "GET", "postForEntity": "POST",
                   "postForObject": "POST", "postForLocation": "POST",
                   "patchForObject": "PATCH", "headForHeaders": "HEAD",
                   "optionsForAllow": "OPTIONS"}
_RA_CHAIN = re.compile(r"\b(?:given|when|with)\s*\(\s*\)|^\s*RestAssured\s*\.|\.\s*spec\s*\(")
_RA_AFTER = re.compile(r"\.\s*(?:then|extract|jsonPath|getBody|asString|path)\s*\(")
_URI_VERB = re.compile(r"\.\s*(get|post|put|delete|patch|head|options)\s*\(\s*\)\s*\.\s*$")
_URI_METHOD = re.compile(r"\.\s*method\s*\(([^()]*)\)\s*\.\s*$")
_TEMPLATE = re.compile(r"\{[^{}/]*\}")

_Span = tuple[int, int]


def _chain_start(s: str, pos: int, lo: int) -> int:
    """Start of the receiver chain of the call whose name is at ``pos`` (``a.b(..).c(`` ->
    ``a``), ``new`` included."""
    i = pos
    while True:
        j = i
        while j > lo and s[j - 1].isspace():
            j -= 1
        if not (j > lo and s[j - 1] == "."):
            break
        k = j - 1
        while k > lo and s[k - 1].isspace():
            k -= 1
        paren = -1
        if k > lo and s[k - 1] == ")":
            depth, o = 0, k - 1
            while o >= lo:
                depth += {")": 1, "(": -1}.get(s[o], 0)
                if depth == 0:
                    break
                o -= 1
            if o < lo:
                break
            paren = k = o
            while k > lo and s[k - 1].isspace():
                k -= 1
        n = k
        while n > lo and (s[n - 1].isalnum() or s[n - 1] in "_$"):
            n -= 1
        if n == k and paren < 0:
            break
        i = n if n < k else paren
    m = re.search(r"\bnew\s+$", s[max(lo, i - 12):i])
    return max(lo, i - 12) + m.start() if m else i


def _chain_after(s: str, end: int, hi: int) -> list[tuple[str, int, int, int]]:
    """``.name(args)`` elements following position ``end``: (name, name pos, open, close)."""
    out = []
    pat = re.compile(r"\s*\.\s*([A-Za-z_$][\w$]*)\s*\(")
    while (m := pat.match(s, end, hi)) is not None:
        close = close_of(s, m.end() - 1)
        out.append((m.group(1), m.start(1), m.end() - 1, close))
        end = close + 1
    return out


class _Scanner:
    def __init__(self, suite: JavaSuite) -> None:
        self.suite = suite

    def hits(self, method: JMethod, ctx: Ctx, stack: frozenset[int]) -> list[Hit]:
        """HTTP calls of ``method``'s body and of the suite's methods it calls."""
        f = method.cls.file
        s = f.struct
        lo, hi = method.body
        out: list[Hit] = []
        for m in _CALL.finditer(s, lo, hi):
            name = m.group(1)
            if name in KEYWORDS:
                continue
            open_at = m.end() - 1
            close = close_of(s, open_at)
            args = split_top(s, open_at + 1, close, ",")
            start = _chain_start(s, m.start(), lo)
            recv = re.sub(r"\s+", "", f.code[start:m.start()])
            qual = recv[:-1] if recv.endswith(".") else recv
            if re.fullmatch(r"[\w$]*", qual):
                targets = self.suite.methods(name, len(args), ctx, qual)
                if targets:
                    t = targets[0]
                    if id(t) not in stack and len(stack) <= _MAX_DEPTH:
                        inner = self.suite.bind(t, args, ctx, 0)
                        out += [via(h, t.name)
                                for h in self.hits(t, inner, stack | {id(t)})]
                    continue
            out += self.http(f, ctx, name, m.start(), (open_at, close), args, start, hi)
        return sorted(out, key=lambda h: (h.via != "", h.line))

    def http(self, f: JFile, ctx: Ctx, name: str, pos: int, paren: _Span, args: list[_Span],
             start: int, hi: int) -> list[Hit]:
        """The hits of one call when it is an HTTP call of a known client, else []."""
        s = f.struct
        recv = s[start:pos]
        lname = name.lower()
        methods: list[str] = []
        url: _Span | None = args[0] if args else None
        kind, end, at = "", paren[1] + 1, pos
        if name == "newBuilder" and recv.rstrip().endswith("HttpRequest."):
            methods, chained = ["GET"], False
            for el, el_pos, o, c in _chain_after(s, paren[1] + 1, hi):
                el_args = split_top(s, o + 1, c, ",")
                if el == "uri" and el_args:
                    url, at = el_args[0], el_pos
                elif el in ("GET", "POST", "PUT", "DELETE", "HEAD"):
                    methods, chained = [el], True
                elif el == "method" and el_args:
                    methods, chained = self.method_of(f, el_args[0], ctx), True
                elif el == "build":
                    break
                end = c + 1
            if not chained:  # a builder kept in a variable gets its method later
                methods = self.builder_methods(f, ctx, start, end, hi) or methods
        elif name == "Builder" and re.search(r"\bnew\s+(?:okhttp3\s*\.\s*)?Request\s*\.\s*$",
                                             recv):
            methods, url = ["GET"], None
            for el, el_pos, o, c in _chain_after(s, paren[1] + 1, hi):
                el_args = split_top(s, o + 1, c, ",")
                if el == "url" and el_args:
                    url, at = el_args[0], el_pos
                elif el in _VERBS:
                    methods = [el.upper()]
                elif el == "method" and el_args:
                    methods = self.method_of(f, el_args[0], ctx)
                elif el == "build":
                    break
                end = c + 1
        elif name.upper() == name and name.lower() in _VERBS and args and \
                recv.rstrip().endswith("HttpRequest."):
            methods = [name]  # Micronaut's HttpRequest.GET(uri)
        elif lname in _VERBS + ("request", "multipart") and args:
            kind = self.client(f, ctx, recv, start, pos)
            if kind == "template" and lname not in ("put", "delete"):
                kind = ""
            if kind and lname == "request":
                methods = self.method_of(f, args[0], ctx)
                url = args[1] if len(args) > 1 else None
            elif kind:
                methods = ["POST" if lname == "multipart" else lname.upper()]
        elif name in _TEMPLATE_CALLS and args:
            methods = [_TEMPLATE_CALLS[name]]
        elif name == "exchange" and len(args) >= 2:
            methods = self.method_of(f, args[1], ctx)
        elif name == "uri" and args and (mv := _URI_VERB.search(recv) or
                                         _URI_METHOD.search(recv)):
            methods = [mv.group(1).upper()] if mv.re is _URI_VERB else \
                self.method_of(f, (start + mv.start(1), start + mv.end(1)), ctx)
        elif name == "openConnection" and not args and recv.rstrip().endswith("."):
            url = (start, start + len(recv.rstrip()) - 1)
            methods = self.connection_method(f, ctx, start, paren[1], hi)
        if not methods or url is None:
            return []
        call = " ".join(f.code[start:end].split())
        if len(call) > MAX_CALL_CHARS:
            call = call[:MAX_CALL_CHARS - 1] + "…"
        out = []
        for full, is_open in self.urls(f, ctx, url, kind, start, pos):
            segs = path_segments(full)
            if segs is None:
                continue
            for meth in dict.fromkeys(methods):
                out.append(Hit(meth, segs, is_open, f.rel, f.line(at), call))
        return out

    def client(self, f: JFile, ctx: Ctx, recv: str, start: int, pos: int) -> str:
        """Which client a ``get/post/...(url)`` call is made on ("" when none known)."""
        bare = re.sub(r"\s+", "", recv)
        if bare.endswith("Unirest."):
            return "unirest"
        if bare.endswith("RequestBuilders."):
            return "mockmvc"
        if _RA_CHAIN.search(recv) and not _RA_AFTER.search(recv):
            return "restassured"
        code = f.code
        if not bare:
            if re.search(r"import\s+static\s+io\.restassured\.RestAssured\.", code):
                return "restassured"
            if "RequestBuilders" in code:
                return "mockmvc"
            return ""
        if re.fullmatch(r"(?:this\.)?[\w$]+\.", bare):
            types = self.suite.type_text(bare[:-1].removeprefix("this."), pos, ctx)
            if "RequestSpecification" in types or re.search(r"\bgiven\s*\(", types):
                return "restassured"
            if "RestTemplate" in types:
                return "template"
        return ""

    def method_of(self, f: JFile, span: _Span, ctx: Ctx) -> list[str]:
        """HTTP methods an expression names (``HttpMethod.PUT``, ``"PATCH"``, a parameter)."""
        text = f.code[span[0]:span[1]]
        m = re.search(r"\b(?:HttpMethod|Method)\s*\.\s*([A-Za-z]+)\b", text)
        if m:
            return [m.group(1).upper()] if m.group(1).lower() in _VERBS else []
        vals = [v.upper() for v in self.suite.value(span, ctx)]
        return [v for v in dict.fromkeys(vals) if v.lower() in _VERBS]

    def builder_methods(self, f: JFile, ctx: Ctx, start: int, after: int,
                        hi: int) -> list[str]:
        """The methods later statements set on the ``java.net.http`` builder assigned at
        ``start`` (``b.POST(..)``, ``b.method(m, ..)``; every branch counts), [] for none."""
        s = f.struct
        lhs = re.search(r"([\w$]+)\s*=\s*$", s[max(0, start - 120):start])
        if lhs is None:
            return []
        pat = re.compile(r"(?<![\w$.])" + re.escape(lhs.group(1)) +
                         r"\s*\.\s*(method|GET|POST|PUT|DELETE|HEAD)\s*\(")
        found: list[str] = []
        for m in pat.finditer(s, after, hi):
            if m.group(1) != "method":
                found.append(m.group(1))
                continue
            parts = split_top(s, m.end(), close_of(s, m.end() - 1), ",")
            found += self.method_of(f, parts[0], ctx) if parts else []
        return list(dict.fromkeys(found))

    def connection_method(self, f: JFile, ctx: Ctx, start: int, close: int,
                          hi: int) -> list[str]:
        """``setRequestMethod`` of the connection opened at ``start`` (GET without one)."""
        s = f.struct
        lhs = re.search(r"([\w$]+)\s*=\s*(?:\(\s*[\w.$]+\s*\)\s*)?$", s[max(0, start - 80):start])
        if lhs is None:
            return ["GET"]
        pat = re.compile(r"(?<![\w$])" + re.escape(lhs.group(1)) +
                         r"\s*\.\s*setRequestMethod\s*\(")
        m = pat.search(s, close, hi)
        if m is None:
            return ["GET"]
        parts = split_top(s, m.end(), close_of(s, m.end() - 1), ",")
        return self.method_of(f, parts[0], ctx) if parts else []

    def urls(self, f: JFile, ctx: Ctx, url: _Span, kind: str, start: int,
             pos: int) -> list[tuple[str, bool]]:
        """(full URL template, open base) for each value of the URL expression."""
        out = []
        for raw in self.suite.value(url, ctx):
            text = _TEMPLATE.sub(DYN, raw)
            bare = "://" not in text and not text.startswith(DYN)
            bases = self.bases(f, ctx, kind, start, pos) if bare else []
            if bases:
                out += [(full, dynamic_base(full)) for full in
                        (b.rstrip("/") + "/" + text.lstrip("/") for b in bases)]
            else:
                out.append((text, dynamic_base(text) or bare))
        return list(dict.fromkeys(out))

    def bases(self, f: JFile, ctx: Ctx, kind: str, start: int, pos: int) -> list[str]:
        """Base URLs a client joins a relative path to (none when unknown)."""
        suite = self.suite
        if kind == "unirest":
            return suite.setting(ctx, (), (), ("defaultBaseUrl",))
        if kind != "restassured":
            return []

        def in_chain(call: str) -> list[str]:
            vals: list[str] = []
            for m in re.finditer(r"\.\s*" + call + r"\s*\(", f.struct[:pos]):
                if m.start() >= start:
                    vals += suite.value((m.end(), close_of(f.struct, m.end() - 1)), ctx)
            return vals

        uris = in_chain("baseUri") or suite.setting(ctx, ("RestAssured", ""), ("baseURI",),
                                                    ("setBaseUri",))
        paths = in_chain("basePath") or suite.setting(ctx, ("RestAssured", ""), ("basePath",),
                                                      ("setBasePath",))
        if not uris and not paths:
            return []
        return [u.rstrip("/") + "/" + p.strip("/") for u in uris or [DYN]
                for p in paths or [""]]


def _task_root(tests_dir: Path) -> Path:
    """The task folder of a Java test tree (``<task>/src/test/java`` or ``<task>/tests``)."""
    parts = tests_dir.parts
    if parts[-3:] == ("src", "test", "java"):
        return tests_dir.parents[2]
    return tests_dir.parent


def java_tests_for_endpoints(tests_dir: Path, endpoints: Sequence[Endpoint],
                             task_root: Path | None = None) -> EndpointTests:
    """``Endpoint.key`` → the JUnit tests (``TestRef``, Surefire ids) whose HTTP calls hit it.

    Every endpoint gets a key (``FEATURE`` endpoints always map to ``[]``); files are named
    relative to ``task_root`` (default: the folder holding ``src/test/java`` or ``tests``).
    Unreadable files are listed in ``skipped``. Test code is never compiled nor executed.
    """
    result = EndpointTests()
    for ep in endpoints:
        result.setdefault(ep.key, [])
    if not tests_dir.is_dir():
        return result
    suite = JavaSuite(tests_dir, task_root or _task_root(tests_dir))
    targets = [(ep, endpoint_segments(ep.path)) for ep in endpoints if ep.method != "FEATURE"]
    scanner = _Scanner(suite)
    for f in suite.files:
        methods = [m for c in f.classes for m in c.methods]
        for test in scan_java_source(f.code, f.rel):
            fn = next((m for m in methods
                       if m.name == test.method and f.line(m.pos) == test.line), None)
            if fn is None:
                continue
            credit(result, test.test_id, scanner.hits(fn, Ctx(f, fn.cls, fn),
                                                      frozenset({id(fn)})), targets)
    result.skipped = suite.skipped
    return result
