"""What a failing test expected and what came back: :func:`expectation_of`.

The failing frame is located in pytest's traceback (short, long or native ``--tb`` style; the
deepest frame in a suite file), the statement there is parsed with :mod:`ast` and matched with
pytest's rewritten assertion (``assert 409 == 201``) to tell the observed value from the
expected one, and :mod:`.suite_flow` finds the request the checked value came from.
Pure: reads only the texts it is given and never raises on odd input.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from inspector.model.failures.facts import (
    COMPARISON,
    CONNECTION,
    CONTAINS,
    EXCEPTION,
    HEADER,
    IN_FIXTURE,
    IN_HELPER,
    IN_LIBRARY,
    IN_REPO,
    IN_TEST,
    KEY,
    LENGTH,
    STATUS,
    TRUTH,
    TYPE,
    UNKNOWN,
    VALUE,
    Expectation,
    RequestFact,
)
from inspector.model.failures.text import (
    CONNECTION_REASONS,
    LIBRARY_OR_TOOL_PATH,
    PY_FRAME_INDENTED,
    PYTEST_FRAME_FULL,
    is_connection_error,
)
from inspector.model.suite import flow as sf
from inspector.model.suite.testids import split_node_id

MAX_MESSAGE = 50_000  # characters of the message read (from its start)
MAX_TRACEBACK = 200_000  # characters of the traceback read (from its end)
MAX_LITERAL = 20_000  # longer reprs are kept as text, not evaluated
MAX_FRAMES = 60  # innermost frames kept (deeper ones are recursion)

_MISSING = object()
_CHAIN = re.compile(r"^(?:The above exception was the direct cause of the following exception:"
                    r"|During handling of the above exception, another exception occurred:)\s*$")
_FRAME = PYTEST_FRAME_FULL
_NATIVE = PY_FRAME_INDENTED
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\(")
_FIXTURE_AT = re.compile(r"^file (?P<path>.+?\.py), line (?P<line>\d+)\s*$")
_EXC_HEAD = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<text>.*))?$")
_EXC_NAME = re.compile(r"(?:Error|Exception|Exit|Failed|Warning|Interrupt|Timeout|Iteration)$")
_CLIP_NOTE = re.compile(r"^\[\+\d+ more lines?;")
_WHERE = re.compile(r"^\s*\+\s+where (?P<value>.+?) = (?P<expr>.+)$")
_RESPONSE_REPR = re.compile(r"<Response \[(\d{3})\]>")
_CLASS_REPR = re.compile(r"^<class '([\w.]+)'>$")
_EXPECTED_GOT = re.compile(
    r"(?i)\bexpected\b(?:\s+status(?:\s+code)?)?[\s:=]*(?P<exp>'[^']*'|\"[^\"]*\"|[^\s,;]+)"
    r"[\s,;.]*(?:but\s+)?(?:got|received|was|actual(?:ly)?|found|returned)\b[\s:=]*"
    r"(?P<got>'[^']*'|\"[^\"]*\"|[^\s,;)]+)")
_STATUS_NAME = re.compile(r"^<[\w.]+: (\d{3})>$|(?:^|[._])HTTP_(\d{3})_\w+$")
_URL_IN_MESSAGE = re.compile(r"with url: (?P<url>\S+)")
_LIBRARY_PATH = LIBRARY_OR_TOOL_PATH
_OPS: dict[type, str] = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in",
                         ast.Is: "is", ast.IsNot: "is not", ast.Lt: "<", ast.LtE: "<=",
                         ast.Gt: ">", ast.GtE: ">="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATIVE = frozenset({"!=", "not in", "is not"})
_UNITTEST = {"assertEqual": "==", "assertEquals": "==", "assertNotEqual": "!=",
             "assertIn": "in", "assertNotIn": "not in", "assertIs": "is", "assertIsNot": "is not",
             "assertGreater": ">", "assertGreaterEqual": ">=", "assertLess": "<",
             "assertLessEqual": "<=", "assertTrue": "truth", "assertFalse": "not",
             "assertIsNone": "none", "assertIsNotNone": "notnone",
             "assertIsInstance": "isinstance"}


@dataclass(slots=True)
class _Frame:
    path: str
    line: int
    func: str | None = None
    exc: str | None = None
    code: list[str] = field(default_factory=list)  # the source lines pytest showed


@dataclass(slots=True)
class _Check:
    """What an analysed check says (mutable while it is being built)."""

    kind: str = UNKNOWN
    expected: Any = _MISSING
    actual: Any = _MISSING
    json_path: str | None = None
    op: str | None = None
    header: str | None = None
    negated: bool = False
    observed: ast.AST | None = None
    trace: sf.Trace = field(default_factory=sf.Trace)


def expectation_of(test_id: str, message: str, traceback: str, test_source: str | None,
                   test_file: str | None = None, line: int | None = None,
                   sources: Mapping[str, str] | None = None) -> Expectation:
    """The failing check of one test, read from its pytest ``message`` and ``traceback`` and
    the golden ``test_source`` (suite-relative ``test_file``; ``sources`` maps other suite
    files, such as ``tests/conftest.py``, to their text). ``line`` is the test's own line,
    used when the traceback names no frame. Kind UNKNOWN when nothing could be read."""
    try:
        return _Reader(test_id, message, traceback, test_source, test_file, line,
                       sources).read()
    except Exception:  # noqa: BLE001 - odd input must never break triage
        return Expectation(kind=UNKNOWN, test_file=test_file, line=None,
                           message=sf.one_line(str(message or "")[:2000], 300))


class _Reader:
    def __init__(self, test_id: str, message: str, traceback: str, test_source: str | None,
                 test_file: str | None, line: int | None,
                 sources: Mapping[str, str] | None) -> None:
        self.test_id = str(test_id or "")
        id_file, self.names, _ = split_node_id(self.test_id)
        self.test_file = test_file or (id_file if id_file.endswith(".py") else None)
        self.message = str(message or "")[:MAX_MESSAGE]
        self.traceback = str(traceback or "")[-MAX_TRACEBACK:]
        self.def_line = line
        files = {k: v for k, v in (sources or {}).items() if isinstance(v, str)}
        if test_source is not None and self.test_file:
            files[self.test_file] = test_source
        self.suite = sf.Suite(files)

    # ------------------------------------------------------------------ reading

    def read(self) -> Expectation:
        section = _last_section(self.traceback.splitlines())
        frames = _frames(section)
        text = _e_text(section) or "\n".join(
            t for t in self.message.splitlines() if not _CLIP_NOTE.match(t.strip())).strip()
        etype, etext = _exception(text, frames)

        where, frame, sfile = self._locate(frames)
        self._link_frames(frames)
        scope: sf.Scope | None = None
        stmt: ast.AST | None = None
        fline = frame.line if frame else None
        if sfile is not None and fline is not None:
            stmt = _statement_at(sfile.tree, fline)
            if stmt is not None and frame is not None and not _same_code(sfile, stmt, frame):
                stmt = None
            if stmt is not None:
                scope = self.suite.scope_at(sfile, fline)
        if stmt is None and frame is not None and frame.code:
            stmt = _parse_snippet(frame.code)
        if frame is None:
            found = self._search(etype, etext)
            if found is not None:
                scope, stmt = found
                sfile, fline, where = scope.file, stmt.lineno, IN_TEST
        if scope is not None:
            fname = scope.func.name if scope.func else None
        elif frame is not None:
            fname = frame.func if frame.func != "<module>" else None
        else:
            fname = self.names[-1] if self.names else None
        if scope is not None and where == IN_TEST:
            where = _role(scope, self.names, self.test_file)
        elif frame is not None and where == IN_TEST and frame.path.endswith("conftest.py"):
            where = IN_FIXTURE

        check, custom = self._classify(etype, etext, text, stmt, scope)
        request = self._request(check, stmt, scope, frames, text)
        return Expectation(
            kind=check.kind,
            expected=None if check.expected is _MISSING else check.expected,
            actual=None if check.actual is _MISSING else check.actual,
            json_path=check.json_path,
            request=request,
            test_file=sfile.path if sfile else (self._relative(frame.path) if frame
                                                else self.test_file),
            line=fline,
            statement=_statement_text(stmt, sfile if scope else None),
            where=where,
            exception=etype if check.kind in (EXCEPTION, CONNECTION) or (
                check.kind == KEY and etype != "AssertionError") else None,
            function=fname,
            negated=check.negated,
            op=check.op,
            header=check.header,
            message=sf.one_line(custom, 300),
        )

    def _locate(self, frames: list[_Frame]) -> tuple[str, _Frame | None, sf.SuiteFile | None]:
        """``(where, deepest suite frame, its parsed file)``."""
        if not frames:
            return IN_TEST, None, None
        suite_frames = [f for f in frames if self._is_suite(f.path)]
        inner = frames[-1]
        where = IN_TEST
        if not self._is_suite(inner.path):
            where = IN_LIBRARY if _LIBRARY_PATH.search(inner.path) else IN_REPO
        if not suite_frames:
            return where, None, None
        deepest = suite_frames[-1]
        return where, deepest, self.suite.file(deepest.path)

    def _root(self) -> str | None:
        """The suite's top folder (``tests``), None for a suite at the repo root."""
        tf = self.test_file or ""
        return tf.split("/")[0] if "/" in tf else None

    def _relative(self, path: str) -> str:
        """A printed suite path made suite-relative (``/x/repo/tests/a.py`` → ``tests/a.py``)."""
        root = self._root()
        path = path.replace("\\", "/")
        if root and f"/{root}/" in path:
            return root + "/" + path.rsplit(f"/{root}/", 1)[1]
        return path.lstrip("./") if not path.startswith("/") else path.rsplit("/", 1)[-1]

    def _link_frames(self, frames: list[_Frame]) -> None:
        """Tell the suite which call each suite frame made into the next one."""
        located = []
        for f in frames:
            sfile = self.suite.file(f.path) if self._is_suite(f.path) else None
            located.append(self.suite.scope_at(sfile, f.line) if sfile else None)
        for outer, inner in zip(located, located[1:], strict=False):
            if outer is None or inner is None:
                continue
            stmt = _statement_at(outer.file.tree, outer.line)
            if stmt is not None:
                self.suite.link_call(outer, inner, stmt)

    def _is_suite(self, path: str) -> bool:
        if self.suite.file(path) is not None:
            return True
        if _LIBRARY_PATH.search(path):
            return False
        root = self._root()
        if root is None:
            return bool(self.test_file) and path.rsplit("/", 1)[-1] == self.test_file
        return path.lstrip("./").startswith(root + "/") or f"/{root}/" in path

    def _search(self, etype: str | None, etext: str) -> tuple[sf.Scope, ast.stmt] | None:
        """Without a frame: the statement of the test function that matches the failure."""
        f = self.suite.file(self.test_file)
        if f is None:
            return None
        scope = self.suite.function_named(f, self.names)
        if scope is None and self.def_line:
            scope = self.suite.scope_at(f, self.def_line)
        if scope is None or scope.func is None:
            return None
        stmts = sorted((n for n in sf.walk_local(scope.func) if isinstance(n, ast.stmt)),
                       key=lambda n: n.lineno)
        short = (etype or "").rsplit(".", 1)[-1]
        expl = _Explanation.of(_split_assertion(etext)[1])
        for st in stmts:
            if short == "KeyError":
                key = _literal(etext.strip())
                if any(isinstance(n, ast.Subscript) and sf.const_key(n.slice) == key
                       for n in ast.walk(st)) and not _is_compound(st):
                    return _at_line(scope, st), st
            elif is_connection_error(etype, etext):
                if not _is_compound(st) and any(
                        isinstance(n, ast.Call) and self.suite.request_method(n, scope)
                        for n in ast.walk(st)):
                    return _at_line(scope, st), st
            elif isinstance(st, ast.Assert) and expl.node is not None \
                    and _matches(st.test, expl, self.suite, _at_line(scope, st)):
                return _at_line(scope, st), st
        return None

    # ------------------------------------------------------------------ classifying

    def _classify(self, etype: str | None, etext: str, text: str, stmt: ast.AST | None,
                  scope: sf.Scope | None) -> tuple[_Check, str]:
        """The check that failed and the message to keep (the test's own words)."""
        short = (etype or "").rsplit(".", 1)[-1]
        if is_connection_error(etype, text):
            low = text[:4000].lower()
            reason = next((r for r in CONNECTION_REASONS if r in low), short)
            return _Check(CONNECTION, actual=reason), etext
        if short == "AssertionError" or (etype is None and text.startswith("assert")):
            custom, expl = _split_assertion(etext)
            ctx = _Ctx(self.suite, scope, _Explanation.of(expl))
            if isinstance(stmt, ast.Assert):
                check = ctx.check(stmt.test, ctx.expl.node)
            elif isinstance(stmt, ast.Expr) and _unittest_call(stmt.value):
                check = ctx.unittest(stmt.value, custom)  # type: ignore[arg-type]
            elif ctx.expl.node is not None:
                check = ctx.from_explanation_only()
            else:
                check = _Check()
            _apply_message(check, custom)
            if check.kind == STATUS:
                check.expected = _status_code(check.expected)
                check.actual = _status_code(check.actual)
            return check, custom
        if short == "KeyError" and stmt is not None:
            return self._key_error(etext, stmt, scope), etext
        if short == "FixtureLookupError" or (etype is None and "fixture '" in text):
            return _Check(EXCEPTION), etext
        if etype is not None:
            return _Check(EXCEPTION), etext
        return _Check(UNKNOWN), text.splitlines()[0] if text else ""

    def _key_error(self, etext: str, stmt: ast.AST, scope: sf.Scope | None) -> _Check:
        key = _literal(etext.strip())
        for expr in _header_exprs(stmt):
            for node in sf.preorder(expr):
                if not (isinstance(node, ast.Subscript) and sf.const_key(node.slice) == key
                        and key is not None):
                    continue
                if (sf.dotted(node.value) or "").endswith("environ"):
                    return _Check(EXCEPTION)
                trace = self.suite.trace(node.value, scope) if scope else sf.Trace()
                if trace.state == sf.JSON:
                    path = trace.path
                elif scope is not None and self.suite.static_value(node.value, scope)[0]:
                    return _Check(EXCEPTION)  # the test's own data
                else:
                    path = _chain(node.value)
                return _Check(KEY, expected=key, json_path=sf.json_path((*path, key)),
                              observed=node.value, trace=trace)
        return _Check(EXCEPTION)

    # ------------------------------------------------------------------ the request

    def _request(self, check: _Check, stmt: ast.AST | None, scope: sf.Scope | None,
                 frames: list[_Frame], text: str) -> RequestFact | None:
        trace = sf.Trace()
        if scope is not None:
            if check.trace.call is not None:
                trace = check.trace
            elif check.observed is not None:
                trace = self.suite.find_request(check.observed, scope)
            if trace.call is None and stmt is not None and check.kind in (CONNECTION, EXCEPTION):
                for expr in _header_exprs(stmt):
                    trace = self.suite.find_request(expr, scope)
                    if trace.call is not None:
                        break
            if trace.call is None and (check.trace.state is not None or check.kind == STATUS
                                       or text.startswith("Failed")):
                trace = self.suite.last_request_before(scope)
        if trace.call is not None and trace.call_scope is not None:
            return self.suite.request_fact(trace.call, trace.call_scope)
        if check.kind == CONNECTION:
            return _request_from_message(text, frames)
        return None


def _at_line(scope: sf.Scope, stmt: ast.stmt) -> sf.Scope:
    """``scope`` seen from ``stmt`` (only assignments before it count)."""
    return sf.Scope(scope.file, scope.func, scope.cls, stmt.lineno)


# ---------------------------------------------------------------------- checks


class _Explanation:
    """pytest's rewritten assertion (``assert 409 == 201``), parsed where possible."""

    def __init__(self, text: str | None, node: ast.expr | None, where: list[str]) -> None:
        self.text = text or ""
        self.node = node
        self.where = where

    @classmethod
    def of(cls, text: str | None) -> _Explanation:
        if not text:
            return cls(None, None, [])
        lines = text.splitlines()
        head = lines[0].strip()
        if head.startswith("AssertionError:"):
            head = head[len("AssertionError:"):].strip()
        body = head[len("assert"):].strip() if head.startswith("assert") else head
        node: ast.expr | None = None
        if body and len(body) <= MAX_LITERAL * 4:
            try:
                node = ast.parse(body, mode="eval").body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                node = None
        return cls(body, node, [w for w in lines[1:] if _WHERE.match(w)])

    def value(self, node: ast.AST | None) -> Any:
        if node is None:
            return _MISSING
        seg = ast.get_source_segment(self.text, node)
        return _literal(seg) if seg is not None else _MISSING

    def split(self, op: str) -> tuple[Any, Any]:
        """Both sides of ``op`` when the explanation did not parse (object reprs): the first
        split where both sides are literals, else the first split."""
        token = f" {op} "
        first: tuple[Any, Any] = (_MISSING, _MISSING)
        for n, m in enumerate(re.finditer(re.escape(token), self.text)):
            if n > 50:
                break
            left, right = self.text[:m.start()], self.text[m.end():]
            lv, rv = _literal(left), _literal(right)
            if n == 0:
                first = (lv, rv)
            if not _is_raw(lv, left) and not _is_raw(rv, right):
                return lv, rv
        return first

    def where_of(self, pattern: str) -> re.Match[str] | None:
        for line in self.where:
            m = _WHERE.match(line)
            if m and re.search(pattern, m.group("expr")):
                return m
        return None


@dataclass(slots=True)
class _Ctx:
    suite: sf.Suite
    scope: sf.Scope | None
    expl: _Explanation

    def trace(self, node: ast.AST) -> sf.Trace:
        if self.scope is not None:
            return self.suite.trace(node, self.scope)
        return _syntactic_trace(node)

    def static(self, node: ast.AST) -> tuple[bool, Any]:
        if self.scope is not None:
            return self.suite.static_value(node, self.scope)
        try:
            return True, ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False, None

    # -------------------------------------------------------------- assert statements

    def check(self, test: ast.expr, ev: ast.AST | None) -> _Check:
        """The check an ``assert`` test states; ``ev`` is its part of the explanation."""
        if isinstance(test, ast.Compare):
            return self.compare(test, ev)
        if isinstance(test, ast.BoolOp):
            return self.boolop(test, ev)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner_ev = ev.operand if isinstance(ev, ast.UnaryOp) else None
            if isinstance(test.operand, ast.Compare) or _isinstance_call(test.operand):
                c = self.check(test.operand, inner_ev)
                c.negated = not c.negated
                return c
            c = self.truth(test.operand, inner_ev)
            c.expected = False
            return c
        if _isinstance_call(test):
            return self.isinstance_check(test)  # type: ignore[arg-type]
        return self.truth(test, ev)

    def compare(self, node: ast.Compare, ev: ast.AST | None) -> _Check:
        op = _OPS.get(type(node.ops[0]), "?")
        left, right = node.left, node.comparators[0]
        lv, rv = self._pair(node, ev, op)
        lok, ls = self.static(left)
        rok, rs = self.static(right)
        lt, rt = self.trace(left), self.trace(right)
        c = _Check(op=op, negated=op in _NEGATIVE)
        if op in ("in", "not in"):
            if rok and not lok:  # the observed item must be one of a static collection
                c.observed, c.trace = left, lt
                c.expected = tuple(rs) if isinstance(rs, list | tuple | set | frozenset) else rs
                c.actual = lv
                c.kind = _value_kind(lt, op)
            else:
                c.observed, c.trace = right, rt
                c.expected, c.actual = (ls if lok else lv), rv
                c.kind = _membership_kind(rt, c.expected, c.actual)
                if c.kind == HEADER:
                    c.header = rt.header if rt.state == sf.HEADER else (
                        c.expected if isinstance(c.expected, str) else None)
                if c.kind == KEY and rt.state == sf.JSON and isinstance(c.expected, str | int):
                    c.json_path = sf.json_path((*rt.path, c.expected))
                    return c
        else:
            flip = (lok and not rok) or (not lok and not rok and rt.state is not None
                                         and lt.state is None)
            obs, other, ov, xv, ok, sv, t = (
                (right, left, rv, lv, lok, ls, rt) if flip else (left, right, lv, rv, rok, rs, lt))
            c.op = _FLIP.get(op, op) if flip else op
            c.observed, c.trace, c.actual = obs, t, ov
            c.expected = sv if ok else xv
            c.kind = _value_kind(t, c.op)
            if c.kind == STATUS and c.expected is _MISSING:  # status.HTTP_201_CREATED
                c.expected = sf.dotted(other) or _MISSING
            if c.kind == TYPE:
                c.expected = sf.dotted(other) or _class_name(c.expected)
                c.actual = _class_name(c.actual)
            elif c.kind == VALUE and c.op in ("is", "is not") and t.state is None \
                    and (c.expected is None or isinstance(c.expected, bool)):
                c.kind = TRUTH
        if c.kind == HEADER and c.header is None:
            c.header = c.trace.header
        if c.trace.state == sf.JSON and c.kind != KEY:
            c.json_path = sf.json_path(c.trace.path)
        return c

    def _pair(self, node: ast.Compare, ev: ast.AST | None, op: str) -> tuple[Any, Any]:
        if isinstance(ev, ast.Compare) and ev.ops and _OPS.get(type(ev.ops[0])) == op:
            return self.expl.value(ev.left), self.expl.value(ev.comparators[0])
        if ev is None and self.expl.text and self.expl.node is None:
            return self.expl.split(op)
        return _MISSING, _MISSING

    def boolop(self, node: ast.BoolOp, ev: ast.AST | None) -> _Check:
        evs: list[ast.AST | None] = list(ev.values) if isinstance(ev, ast.BoolOp) and len(
            ev.values) == len(node.values) else [None] * len(node.values)
        checks = [self.check(v, e) for v, e in zip(node.values, evs, strict=True)]
        if isinstance(node.op, ast.And):
            for v, e, c in zip(node.values, evs, checks, strict=True):
                if isinstance(v, ast.Compare) and isinstance(e, ast.Compare) \
                        and _holds(c) is False:
                    return c
            return checks[0]
        first = checks[0]
        same = all(c.kind == first.kind and c.op == first.op and c.observed is not None
                   and _source(c.observed) == _source(first.observed) for c in checks)
        if same and first.kind != UNKNOWN:
            alts: list[Any] = []
            for c in checks:
                e = c.expected
                alts += list(e) if isinstance(e, tuple) else [e]
            first.expected = tuple(alts)
            if first.op == "==":
                first.op = "in"
        return first

    def truth(self, node: ast.expr, ev: ast.AST | None) -> _Check:
        t = self.trace(node)
        c = _Check(TRUTH, expected=True, actual=self.expl.value(ev), observed=node, trace=t)
        if t.state == sf.OK:
            c.kind, c.op, c.expected = STATUS, "<", 400
            m = self.expl.where_of(r"\.ok$")
            status = _RESPONSE_REPR.search(m.group("expr")) if m else None
            c.actual = int(status.group(1)) if status else _MISSING
        elif t.state == sf.JSON:
            c.json_path = sf.json_path(t.path)
        return c

    def isinstance_check(self, node: ast.Call) -> _Check:
        target, types = node.args[0], node.args[1]
        names = [sf.dotted(e) or _source(e) for e in types.elts] \
            if isinstance(types, ast.Tuple) else [sf.dotted(types) or _source(types)]
        t = self.trace(target)
        c = _Check(TYPE, expected=names[0] if len(names) == 1 else tuple(names),
                   observed=target, trace=t, op="isinstance")
        m = self.expl.where_of(r"^isinstance\(")
        if m:
            inner = m.group("expr")[len("isinstance("):-1]
            cut = inner.rfind(", ")
            value = _literal(inner[:cut]) if cut > 0 else _MISSING
            if value is not _MISSING and not (isinstance(value, str) and value == inner[:cut]):
                c.actual = type(value).__name__
        if t.state == sf.JSON:
            c.json_path = sf.json_path(t.path)
        return c

    # -------------------------------------------------------------- other shapes

    def unittest(self, call: ast.Call, custom: str) -> _Check:
        """``self.assertEqual(a, b)`` and friends, read like the ``assert`` they stand for."""
        kind = _UNITTEST[cast(ast.Attribute, call.func).attr]
        args = call.args
        head = custom.splitlines()[0] if custom else ""
        if kind in ("truth", "not", "none", "notnone", "isinstance") and args:
            if kind == "isinstance" and len(args) >= 2:
                return self.isinstance_check(ast.Call(func=ast.Name("isinstance"),
                                                      args=args[:2], keywords=[]))
            c = self.truth(args[0], None)
            c.expected = {"truth": True, "not": False, "none": None}.get(kind, _MISSING)
            if kind == "notnone":
                c.negated, c.expected, c.op = True, None, "is not"
            return c
        if len(args) < 2:
            return _Check()
        op_node = {v: k for k, v in _OPS.items()}[kind]()
        node = ast.Compare(left=args[0], ops=[op_node], comparators=[args[1]])
        ast.copy_location(node, call)
        texts = _unittest_values(kind, head)
        saved = self.expl
        self.expl = _Explanation(None, None, [])
        c = self.compare(node, None)
        self.expl = saved
        if texts is not None:
            lv, rv = (_literal(t) for t in texts)
            flipped = c.observed is args[1]
            c.actual = rv if flipped else lv
            if c.expected is _MISSING:
                c.expected = lv if flipped else rv
        return c

    def from_explanation_only(self) -> _Check:
        """No statement to read: pytest's explanation alone (``left`` taken as observed)."""
        ev = self.expl.node
        if isinstance(ev, ast.Compare):
            op = _OPS.get(type(ev.ops[0]), "?")
            lv, rv = self.expl.value(ev.left), self.expl.value(ev.comparators[0])
            c = _Check(VALUE, expected=rv, actual=lv, op=op, negated=op in _NEGATIVE)
            if op in ("in", "not in"):
                c.expected, c.actual = lv, rv
                c.kind = KEY if isinstance(rv, dict) else CONTAINS
            elif self.expl.where_of(r"\.status_code$"):
                c.kind = STATUS
            elif self.expl.where_of(r"^len\("):
                c.kind = LENGTH
            elif op in _FLIP:
                c.kind = COMPARISON
            return c
        if self.expl.where_of(r"^isinstance\("):
            return _Check(TYPE)
        return _Check(TRUTH, expected=True, actual=self.expl.value(ev))


# ---------------------------------------------------------------------- helpers


def _value_kind(t: sf.Trace, op: str | None) -> str:
    if t.wrap == "len":
        return LENGTH
    if t.wrap == "type":
        return TYPE
    if t.state == sf.STATUS:
        return STATUS
    if t.state in (sf.HEADER, sf.HEADERS):
        return HEADER
    if op in _FLIP:
        return COMPARISON
    return VALUE


def _membership_kind(t: sf.Trace, expected: Any, actual: Any) -> str:
    if t.state in (sf.HEADERS, sf.HEADER):
        return HEADER
    if isinstance(actual, dict):
        return KEY
    if actual is not _MISSING and isinstance(actual, str | list | tuple | set | bytes):
        return CONTAINS
    if t.state == sf.JSON and t.wrap is None and isinstance(expected, str):
        return KEY
    return CONTAINS


def _holds(c: _Check) -> bool | None:
    """Whether a check's explained values satisfy its operator (None: cannot tell)."""
    a, e = c.actual, c.expected
    if a is _MISSING or e is _MISSING:
        return None
    ops: dict[str, Callable[[], bool | None]] = {
        "==": lambda: a == e, "!=": lambda: a != e, "<": lambda: a < e,
        "<=": lambda: a <= e, ">": lambda: a > e, ">=": lambda: a >= e,
        "in": lambda: (a in e) if c.observed is not None and c.kind in (
            STATUS, VALUE) else (e in a),
        "not in": lambda: e not in a}
    try:
        return ops.get(c.op or "", lambda: None)()
    except TypeError:
        return None


def _apply_message(check: _Check, custom: str) -> None:
    """Fill what the explanation left open from "Expected 200, got 500"-style messages."""
    m = _EXPECTED_GOT.search(custom or "")
    if not m:
        return
    exp, got = _message_value(m.group("exp")), _message_value(m.group("got"))
    if check.kind == UNKNOWN:
        codes = all(isinstance(v, int) and 100 <= v <= 599 for v in (exp, got))
        check.kind = STATUS if codes or "status" in custom.lower() else VALUE
    if check.actual is _MISSING:
        check.actual = got
    if check.expected is _MISSING:
        check.expected = exp


def _status_code(value: Any) -> Any:
    """``<HTTPStatus.CREATED: 201>`` / ``"HTTP_201_CREATED"`` → 201 (tuples item by item)."""
    if isinstance(value, tuple):
        return tuple(_status_code(v) for v in value)
    if isinstance(value, str):
        m = _STATUS_NAME.search(value)
        if m:
            return int(m.group(1) or m.group(2))
    return value


def _message_value(text: str) -> Any:
    text = text.strip().rstrip(".")
    if text[:1] in "'\"" and text[-1:] == text[:1] and len(text) >= 2:
        return text[1:-1]
    try:
        return int(text)
    except ValueError:
        return text


def _literal(text: str | None) -> Any:
    """A repr turned back into its value; the text itself when it is not a literal (object
    reprs) or was truncated by pytest (``...``)."""
    if text is None:
        return _MISSING
    text = text.strip()
    if len(text) > MAX_LITERAL:
        return text
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text
    return text if _has_ellipsis(value) else value


def _is_raw(value: Any, text: str) -> bool:
    """Whether :func:`_literal` gave ``text`` back unparsed."""
    return isinstance(value, str) and value == text.strip()


def _has_ellipsis(value: Any, depth: int = 0) -> bool:
    if value is Ellipsis:
        return True
    if depth > 20:
        return False
    if isinstance(value, dict):
        return any(_has_ellipsis(v, depth + 1) for v in [*value.keys(), *value.values()])
    if isinstance(value, list | tuple | set | frozenset):
        return any(_has_ellipsis(v, depth + 1) for v in value)
    return False


def _class_name(value: Any) -> Any:
    if isinstance(value, str):
        m = _CLASS_REPR.match(value)
        if m:
            return m.group(1).rsplit(".", 1)[-1] if m.group(1).startswith("builtins.") \
                else m.group(1)
    return value


def _isinstance_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id == "isinstance" and len(node.args) == 2


def _unittest_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in _UNITTEST


def _unittest_values(kind: str, head: str) -> tuple[str, str] | None:
    """The two values unittest printed: ``409 != 201``, ``'x' not found in 'y'``, …"""
    head = re.sub(r"\s:\s.*$", "", head)  # a msg= argument after " : "
    patterns = {"==": r"^(.*) != (.*)$", "!=": r"^(.*) == (.*)$",
                "in": r"^(.*) not found in (.*)$", "not in": r"^(.*) unexpectedly found in (.*)$",
                ">": r"^(.*) not greater than (.*)$", ">=": r"^(.*) not greater than or equal "
                r"to (.*)$", "<": r"^(.*) not less than (.*)$",
                "<=": r"^(.*) not less than or equal to (.*)$"}
    m = re.match(patterns.get(kind, r"^$"), head)
    return (m.group(1), m.group(2)) if m else None


def _syntactic_trace(node: ast.AST) -> sf.Trace:
    """A guess from the expression's shape alone (no suite source to follow)."""
    suite = sf.Suite({})
    return suite.trace(node, sf.Scope(sf.SuiteFile("", ast.Module(body=[], type_ignores=[]),
                                                   "")))


def _chain(node: ast.AST) -> tuple[str | int, ...]:
    """Constant subscripts down to the root: ``body["data"]["id"]`` → ``("data", "id")``."""
    keys: list[str | int] = []
    while isinstance(node, ast.Subscript) and sf.const_key(node.slice) is not None:
        keys.append(sf.const_key(node.slice))
        node = node.value
    return tuple(reversed(keys))


def _source(node: ast.AST | None) -> str:
    try:
        return ast.unparse(node) if node is not None else ""
    except (ValueError, TypeError, AttributeError, RecursionError):
        return ""


def _matches(test: ast.expr, expl: _Explanation, suite: sf.Suite, scope: sf.Scope) -> bool:
    """Whether an ``assert`` agrees with pytest's explanation (used when no frame is known)."""
    ev = expl.node
    if isinstance(test, ast.Compare) and isinstance(ev, ast.Compare):
        if [type(o) for o in test.ops] != [type(o) for o in ev.ops]:
            return False
        pairs = zip([test.left, *test.comparators], [ev.left, *ev.comparators], strict=False)
        for src, val in pairs:
            ok, value = suite.static_value(src, scope)
            if ok and value != expl.value(val):
                return False
        return True
    if isinstance(ev, ast.Compare) or isinstance(test, ast.Compare):
        return False
    return type(test) is type(ev) or not isinstance(ev, ast.BoolOp | ast.UnaryOp)


def _request_from_message(text: str, frames: list[_Frame]) -> RequestFact | None:
    """``Max retries exceeded with url: /api/x`` plus the ``requests/api.py … in post`` frame."""
    m = _URL_IN_MESSAGE.search(text)
    method = next((f.func.upper() for f in frames if f.func and f.func in sf.HTTP_METHODS
                   and f.path.replace("\\", "/").endswith("requests/api.py")), None)
    if not m or method is None:
        return None
    path = sf.url_path([m.group("url")])
    return RequestFact(method=method, path=path, line=0, source="") if path else None


def _exception(text: str, frames: list[_Frame]) -> tuple[str | None, str]:
    """``(type, text)`` of the failure: ``("KeyError", "'data'")``."""
    lines = [t for t in text.splitlines() if t.strip()]
    if lines:
        head = lines[0].strip()
        if head.startswith("assert ") or head == "assert":
            return "AssertionError", text.strip()
        m = _EXC_HEAD.match(head)
        if m and _looks_like_exception(m.group("type")):
            rest = "\n".join([m.group("text") or "", *lines[1:]]).strip()
            return m.group("type"), rest
        m2 = re.search(r"fixture '(\w+)' not found", text)
        if m2:
            return "FixtureLookupError", m2.group(0)
    for f in reversed(frames):
        if f.exc and _looks_like_exception(f.exc):
            return f.exc, text.strip()
    return None, text.strip()


def _looks_like_exception(name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    return bool(short[:1].isupper() and (_EXC_NAME.search(short) or short in (
        "KeyboardInterrupt", "SystemExit", "Exception", "StopIteration")))


def _split_assertion(text: str) -> tuple[str, str | None]:
    """``(the test's own message, pytest's "assert …" line with its "where" lines)``."""
    lines = text.splitlines()
    if lines and lines[0].startswith("AssertionError"):
        lines[0] = lines[0][len("AssertionError"):].lstrip(":").strip()
    for i, ln in enumerate(lines):
        if ln.startswith("assert ") or ln.strip() == "assert":
            custom = "\n".join(lines[:i]).strip()
            return custom, "\n".join(lines[i:])
    return "\n".join(lines).strip(), None


# ---------------------------------------------------------------------- tracebacks


def _last_section(lines: list[str]) -> list[str]:
    """The lines after the last chained-exception separator."""
    cut = 0
    for i, ln in enumerate(lines):
        if _CHAIN.match(ln.strip()):
            cut = i + 1
    return lines[cut:]


def _frames(lines: list[str]) -> list[_Frame]:
    """Frames, outermost first, with the source lines pytest showed for each."""
    frames: list[_Frame] = []
    block_start = 0
    for i, ln in enumerate(lines):
        m = _FRAME.match(ln) or _NATIVE.match(ln) or _FIXTURE_AT.match(ln)
        if not m:
            if ln.startswith("_ _ ") or re.match(r"^_{3,} ", ln):
                block_start = i + 1
            continue
        groups = m.groupdict()
        frame = _Frame(groups["path"].strip(), int(groups["line"]), groups.get("func"),
                       groups.get("exc"))
        after: list[str] = []
        for nxt in lines[i + 1:]:
            if _FRAME.match(nxt) or _NATIVE.match(nxt) or not nxt.startswith((" ", "\t")) \
                    or not nxt.strip():
                break
            if set(nxt.strip()) <= {"^", "~"}:
                continue
            after.append(nxt)
        if after and not _FIXTURE_AT.match(ln):
            frame.code = after
        else:
            marked = [j for j in range(block_start, i) if lines[j].startswith(">")]
            if marked:
                j = marked[-1]
                defs = [d.group(1) for d in map(_DEF.match, lines[block_start:j]) if d]
                frame.func = frame.func or (defs[-1] if defs else None)
                code = [" " + lines[j][1:]]
                for k in range(j + 1, i):
                    if lines[k].startswith(("E", ">")) or not lines[k].strip():
                        break
                    code.append(lines[k])
                frame.code = code
        frames.append(frame)
        block_start = i + 1
    return frames[-MAX_FRAMES:]


def _e_text(lines: list[str]) -> str:
    """The ``E   …`` lines of a traceback section, dedented."""
    e_lines = [ln[1:] for ln in lines if ln == "E" or ln.startswith("E ")]
    return textwrap.dedent("\n".join(e_lines)).strip() if e_lines else ""


def _statement_at(tree: ast.Module, line: int) -> ast.stmt | None:
    """The innermost statement spanning ``line``."""
    around = sf.statements_around(tree, line)
    return around[-1] if around else None


def _is_compound(node: ast.AST) -> bool:
    return isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith
                      | ast.Try | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _header_exprs(stmt: ast.AST) -> list[ast.AST]:
    """The expressions a statement evaluates itself (a compound statement's header only)."""
    if isinstance(stmt, ast.If | ast.While):
        return [stmt.test]
    if isinstance(stmt, ast.For | ast.AsyncFor):
        return [stmt.iter]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [i.context_expr for i in stmt.items]
    if _is_compound(stmt):
        return []
    return [stmt]


def _same_code(f: sf.SuiteFile, stmt: ast.stmt, frame: _Frame) -> bool:
    """Whether the source line pytest showed is the one in our copy of the file."""
    shown = next((c.strip() for c in frame.code if c.strip()), "")
    if not shown:
        return True
    lines = f.text.splitlines()
    mine = lines[frame.line - 1].strip() if 0 < frame.line <= len(lines) else ""
    return " ".join(shown.split()) == " ".join(mine.split())


def _parse_snippet(code: list[str]) -> ast.stmt | None:
    """The statement in the source lines pytest showed (no file to read it from)."""
    for n in range(len(code), 0, -1):
        text = textwrap.dedent("\n".join(code[:n]))
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if tree.body:
            return tree.body[0]
    return None


def _statement_text(stmt: ast.AST | None, f: sf.SuiteFile | None) -> str:
    if stmt is None:
        return ""
    if isinstance(stmt, ast.If | ast.While | ast.For | ast.With) and f is not None:
        lines = f.text.splitlines()
        return sf.one_line(lines[stmt.lineno - 1]) if stmt.lineno <= len(lines) else ""
    text = ast.get_source_segment(f.text, stmt) if f is not None else None
    return sf.one_line(text or _source(stmt))


def _role(scope: sf.Scope, names: tuple[str, ...], test_file: str | None) -> str:
    """Test, fixture or helper: the role of the function the failing line is in."""
    func = scope.func
    if func is None:
        return IN_FIXTURE if scope.file.path.endswith("conftest.py") else IN_TEST
    if sf.is_setup(func):
        return IN_FIXTURE
    if (names and func.name == names[-1]) or (not names and func.name.startswith("test")):
        return IN_TEST
    return IN_HELPER
