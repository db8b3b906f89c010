"""What an ordinary repo module (not a conftest, not a plugin pytest loads) does to reach the
test process it may be imported into, read with :mod:`ast` (never run). Two families, each
reported as a forgery (deliberate):

* **reaching pytest's live objects**: walking the interpreter's objects or frames
  (``gc.get_objects``/``get_referrers``/``get_referents``, ``sys._getframe``, ``f_back``,
  ``inspect.stack``, ``sys.settrace``, ``sys._current_frames``) together with anything naming
  pytest's machinery (pytest, pluggy, a plugin manager, hooks, reports, a ``register`` call);
  importing ``_pytest`` (its private internals); registering hooks or plugins
  (``pluginmanager.register``, ``hookimpl``, a ``pytest_*`` hook defined or named); patching
  reports or outcomes (``TestReport.outcome = …``, ``setattr(_pytest.…)``);
* **running a hidden payload**: ``exec``/``eval``/``compile`` (also reached through
  ``builtins``, ``__builtins__``, ``getattr`` or an alias), ``marshal``/``pickle`` loads,
  ``types.FunctionType`` or an interpreter started with ``-c``, fed with something decoded
  (base64/base32/base85, hex, zlib/bz2/lzma/gzip, ``codecs``/rot13, ``bytes([...])``,
  ``chr`` joins, reversed or translated strings); builtins fetched by a computed name; a module
  imported by a computed or decoded name. A payload given as a literal is read as Python in
  turn (``exec("import gc; …")`` is judged by what it runs); decoding alone
  (``json.loads(base64.b64decode(x))``) is not a finding.
"""

from __future__ import annotations

import ast
import base64
import binascii
import codecs
import re
import zlib
from collections.abc import Iterator

from inspector.services.tamper.names import NameTable, dotted

_WALKERS = frozenset({"get_objects", "get_referrers", "get_referents", "_getframe",
                      "currentframe", "getouterframes", "getinnerframes", "stack", "trace",
                      "settrace", "setprofile", "_current_frames", "f_back", "f_locals",
                      "f_globals", "tb_frame", "gi_frame", "cr_frame", "_getframemodulename"})
_WALK_MODULES = frozenset({"gc", "sys", "inspect", "threading", "traceback"})
_MACHINERY_WORDS = re.compile(
    r"pytest|pluggy|plugin_?manager|pluginmanager|hookimpl|hookwrapper|hookspec|"
    r"_hookimpls|makereport|logreport|teststatus|testreport|collectreport|runtestprotocol|"
    r"sessionfinish|terminalreporter|junitxml|_hookexec|hook_?caller|call_?info", re.I)
_WALK_EVIDENCE = frozenset({"hook", "register", "config", "session", "_config", "_session",
                            "option", "_hookimpls", "get_plugins", "list_name_plugin"})
_HOOK_NAME = re.compile(
    r"pytest_(runtest|report|collect|session|terminal|configure|unconfigure|pyfunc|item|"
    r"ignore|pycollect|make|addoption|load_initial|plugin_registered|cmdline|deselected|"
    r"exception|internalerror|keyboard|warning|assert|fixture|enter_pdb|leave_pdb|markeval|"
    r"addhooks|logstart|logfinish|logreport|collection)\w*")
_HOOK_MARKERS = re.compile(r"hookimpl|hookwrapper|HookimplMarker|hookspec|HookspecMarker")
_REGISTERS = frozenset({"register", "unregister", "set_blocked", "add_hookcall_monitoring",
                        "add_hookspecs", "subset_hook_caller", "import_plugin",
                        "consider_module", "consider_pluginarg", "_register",
                        "load_setuptools_entrypoints"})
_NOT_PLUGIN_MANAGERS = frozenset({"atexit", "signal", "codecs", "copyreg", "faulthandler",
                                  "abc", "mimetypes", "webbrowser", "csv"})
_REPORT_ATTRS = frozenset({"outcome", "longrepr", "passed", "failed", "skipped", "wasxfail",
                           "exitstatus", "testsfailed"})
_SINKS = frozenset({"exec", "eval", "compile", "execfile", "FunctionType", "CodeType",
                    "run_code", "run_module", "run_path", "exec_module"})
_LOADERS = frozenset({"loads", "load"})  # marshal / pickle / dill: code from bytes
_CODE_MODULES = frozenset({"marshal", "pickle", "dill", "cloudpickle", "_pickle", "cPickle"})
_DECODERS = frozenset({
    "b64decode", "b32decode", "b32hexdecode", "b16decode", "b85decode", "a85decode",
    "urlsafe_b64decode", "standard_b64decode", "decodebytes", "decodestring", "unhexlify",
    "a2b_base64", "a2b_hex", "a2b_uu", "a2b_qp", "fromhex", "decompress", "decompressobj",
    "inflate", "maketrans", "translate", "rot13"})
_CODECS = re.compile(r"rot.?13|base64|hex|zlib|bz2|uu|quopri|punycode|unicode.?escape|"
                     r"raw.?unicode|idna|utf.?7", re.I)
_IMPORTERS = frozenset({"__import__", "import_module", "find_spec", "spec_from_file_location",
                        "load_module", "find_module"})
_BUILTINS = frozenset({"builtins", "__builtins__", "__builtin__"})
_DANGER = frozenset({"exec", "eval", "compile", "__import__", "open", "execfile", "getattr",
                     "setattr", "globals", "vars"})
_RUNNER_MODULES = re.compile(r"(_?pytest|pluggy)(\.|$)")
_MAX_DEPTH = 12
_MAX_PAYLOAD = 256 * 1024
_MAX_NESTING = 3


def _dotted(node: ast.AST) -> str:
    return dotted(node, through_calls=True)


def _callee(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def _text(node: ast.AST, limit: int = 70) -> str:
    try:
        text = " ".join(ast.unparse(node).split())
    except Exception:  # noqa: BLE001 - only for a message
        text = type(node).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _strings(node: ast.AST) -> Iterator[str]:
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            yield n.value


class _Reach:
    def __init__(self, tree: ast.Module, nesting: int, test_code: bool) -> None:
        self.tree = tree
        self.nesting = nesting
        self.test_code = test_code
        self.nodes = list(ast.walk(tree))
        self.found: list[tuple[int, str]] = []
        self.weak: list[tuple[int, str]] = []  # walk evidence that counts in its function only
        self._obfuscated: dict[str, str] = {}  # per name: how its value was disguised
        self._literals: dict[str, str | None] = {}  # per name: the constant it folds to
        self.functions = sorted(
            (n.lineno, getattr(n, "end_lineno", None) or n.lineno) for n in self.nodes
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
        table = NameTable(self.nodes)
        self.aliases = table.aliases  # local name -> what it stands for
        self.bindings = table.bindings

    def resolved(self, name: str) -> str:
        """What a bare name stands for: an import, or a name it was assigned from."""
        if name in self.aliases:
            return self.aliases[name]
        for value in self.bindings.get(name, ())[:2]:
            if isinstance(value, (ast.Name, ast.Attribute)):
                dotted = _dotted(value)
                head, _, rest = dotted.partition(".")
                base = self.aliases.get(head, head)
                return f"{base}.{rest}" if rest else base
        return name

    def full(self, node: ast.AST) -> str:
        dotted = _dotted(node)
        head, _, rest = dotted.partition(".")
        base = self.resolved(head) if head else ""
        return f"{base}.{rest}" if rest else base

    # ------------------------------------------------------------------ the payload family

    def obfuscated(self, node: ast.AST | None, depth: int = 0,
                   seen: frozenset[str] = frozenset()) -> str:
        """How ``node``'s value was decoded or disguised ("" when it was not)."""
        if node is None or depth > _MAX_DEPTH:
            return ""
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                name = _callee(n)
                full = self.full(n.func)
                if name in _DECODERS or full.split(".")[-1] in _DECODERS:
                    return f"decoded with {name or full}"
                if name in ("decode", "encode") and any(
                        _CODECS.search(s) for s in _strings(ast.Tuple(list(n.args)))) \
                        and n.args:
                    return f"decoded with .{name}({_text(n.args[0], 20)})"
                if name == "decode" and isinstance(n.func, ast.Attribute) and \
                        full.startswith("codecs"):
                    return "decoded with codecs.decode"
                if name in _LOADERS and full.split(".")[0] in _CODE_MODULES:
                    return f"loaded with {full}"
                if name in ("bytes", "bytearray") and n.args and not isinstance(
                        n.args[0], ast.Constant):
                    return f"built with {name}(…)"
                if name in ("chr", "ord"):
                    return "built character by character"
                if name == "reversed" and n.args and self.literal(n.args[0]) is not None:
                    return "reversed"
            elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice) and \
                    n.slice.step is not None and _negative(n.slice.step) and \
                    self.literal(n.value) is not None:
                return "reversed"
            elif isinstance(n, ast.Name) and n.id not in seen and \
                    len(self.bindings.get(n.id, ())) <= 2:
                if n.id not in self._obfuscated:
                    self._obfuscated[n.id] = ""  # a name bound to itself is not decoded
                    self._obfuscated[n.id] = next(
                        (how for value in self.bindings.get(n.id, ())
                         if (how := self.obfuscated(value, depth + 1, seen | {n.id}))), "")
                if self._obfuscated[n.id]:
                    return self._obfuscated[n.id]
        return ""

    def literal(self, node: ast.AST | None, depth: int = 0) -> str | None:
        """The constant text ``node`` folds to (literals, ``+``, names bound once), or None."""
        if node is None or depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            v = node.value
            return v if isinstance(v, str) else v.decode("utf-8", "replace")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.literal(node.left, depth + 1), self.literal(node.right, depth + 1)
            if left is None or right is None or len(left) + len(right) > _MAX_PAYLOAD:
                return None
            return left + right
        if isinstance(node, ast.Name):
            values = self.bindings.get(node.id, [])
            if len(values) != 1:
                return None
            if node.id not in self._literals:
                self._literals[node.id] = None  # a name bound to itself is unknown
                self._literals[node.id] = self.literal(values[0], depth + 1)
            return self._literals[node.id]
        if isinstance(node, ast.Call) and _callee(node) in _DECODERS | {"decode"} and node.args:
            return _decode_literal(_callee(node), self.literal(node.args[0], depth + 1),
                                   self.full(node.func))
        if isinstance(node, ast.Call) and _callee(node) == "join" and isinstance(
                node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant) and \
                isinstance(node.func.value.value, str) and len(node.args) == 1 and \
                isinstance(node.args[0], (ast.List, ast.Tuple)):
            parts = [self.literal(e, depth + 1) for e in node.args[0].elts]
            return None if any(p is None for p in parts) else \
                node.func.value.value.join(p for p in parts if p is not None)
        if isinstance(node, ast.JoinedStr):
            parts = [self.literal(v.value if isinstance(v, ast.FormattedValue) else v,
                                  depth + 1) for v in node.values]
            return None if any(p is None for p in parts) else "".join(
                p for p in parts if p is not None)
        return None

    def sink(self, call: ast.Call) -> str:
        """The code-running function ``call`` reaches ("" when none)."""
        f = call.func
        name = _callee(call)
        full = self.full(f)
        last = full.split(".")[-1] if full else name
        if isinstance(f, ast.Name) and last in _SINKS:
            return last
        if isinstance(f, ast.Name):  # run = getattr(builtins, "exec"); run(…)
            for value in self.bindings.get(f.id, ())[:4]:
                if isinstance(value, (ast.Call, ast.Subscript)):
                    inner = self.sink(ast.Call(func=value, args=[], keywords=[]))
                    if inner:
                        return f"{f.id} = {inner}"
        if isinstance(f, ast.Attribute) and name in _SINKS and (
                full.split(".")[0] in _BUILTINS | {"types", "runpy", "importlib"} or
                name in ("exec_module", "run_path", "run_module", "FunctionType", "CodeType")):
            return name
        if name in _LOADERS and full.split(".")[0] in _CODE_MODULES:
            return full
        if isinstance(f, ast.Call) and _callee(f) == "getattr" and len(f.args) >= 2:
            what = self.literal(f.args[1])
            if what in _SINKS or (what is None and self.builtins(f.args[0])):
                return f"getattr(…, {_text(f.args[1], 30)})"
        if isinstance(f, ast.Subscript) and self.builtins(f.value):
            return f"{_text(f, 40)}"
        return ""

    def builtins(self, node: ast.AST) -> bool:
        """True for an expression standing for the builtins module or its dict."""
        text = self.full(node)
        if text.split(".")[0] in _BUILTINS or re.search(r"\b(__builtins__|builtins|__builtin__)\b",
                                                        _text(node, 500)):
            return True
        return isinstance(node, ast.Call) and _callee(node) in ("vars", "globals", "locals",
                                                                "__import__", "import_module") \
            and any(s in _BUILTINS for s in _strings(node))

    def payload(self, line: int, sink: str, args: list[ast.expr]) -> None:
        for arg in args[:1]:
            how = self.obfuscated(arg)
            if how:
                self.found.append((line, f"runs a hidden payload: {sink}() of code {how} "
                                         f"({_text(arg, 50)})"))
                return
            text = self.literal(arg)
            if text and self.nesting < _MAX_NESTING:
                for inner_line, what in analyse_reach(text[:_MAX_PAYLOAD], self.test_code,
                                                      self.nesting + 1):
                    self.found.append((line, f"{sink}() of a literal that {what} "
                                             f"(its line {inner_line})"))

    # ------------------------------------------------------------------ the checks

    def run(self) -> list[tuple[int, str]]:
        walks: list[tuple[int, str]] = []
        machinery: list[tuple[int, str]] = []
        for node in self.nodes:
            line = getattr(node, "lineno", 0)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if not node.level else []
                for name in names:
                    if name.split(".")[0] == "_pytest":
                        self.found.append((line, f"imports pytest's internals ({name})"))
                    if _MACHINERY_WORDS.search(name):
                        machinery.append((line, name))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _HOOK_NAME.fullmatch(node.name) and not self.test_code:
                    self.found.append((line, f"defines the pytest hook {node.name} outside "
                                             "a conftest"))
                for dec in node.decorator_list:
                    if _HOOK_MARKERS.search(_text(dec, 200)):
                        self.found.append((line, f"marks {node.name} as a pytest hook "
                                                 f"({_text(dec, 40)})"))
            elif isinstance(node, (ast.Constant, ast.BinOp, ast.JoinedStr)) or (
                    isinstance(node, ast.Call) and _callee(node) == "join"):
                text = self.literal(node) if not isinstance(node, ast.Constant) else \
                    node.value if isinstance(node.value, str) else None
                if text is not None:
                    self.word(line, text[:200], walks, machinery)
            elif isinstance(node, (ast.Name, ast.Attribute)):
                word = node.id if isinstance(node, ast.Name) else node.attr
                origin = self.resolved(word) if isinstance(node, ast.Name) else ""
                if origin:  # from gc import get_objects as everything
                    word = origin.split(".")[-1] or word
                if word in _WALKERS and (isinstance(node, ast.Attribute) or
                                         origin.split(".")[0] in _WALK_MODULES) and (
                        word not in ("stack", "trace") or
                        self.full(node).split(".")[0] in ("inspect", "sys")):
                    walks.append((line, self.full(node) or word))
                if _MACHINERY_WORDS.search(word):
                    machinery.append((line, word))
                if _HOOK_MARKERS.fullmatch(word):
                    self.found.append((line, f"uses pytest's hook marker ({word})"))
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                        node.attr in _REPORT_ATTRS and _MACHINERY_WORDS.search(
                            self.full(node.value) + " " + _text(node.value, 200)):
                    self.found.append((line, f"patches {_text(node, 50)}"))
            if isinstance(node, ast.Call):
                self.call(node, line, machinery)
            if isinstance(node, ast.Subscript) and self.full(node.value) == "sys.modules":
                key = self.literal(node.slice) or ""
                if _RUNNER_MODULES.match(key):
                    self.found.append((line, f"reaches pytest's modules through sys.modules "
                                             f"({_text(node, 50)})"))
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
                    self.builtins(node.value):
                builtin = self.literal(node.slice)
                if builtin is None or builtin in _DANGER:
                    self.found.append((line, f"fetches a builtin by name ({_text(node, 50)})"))
        self.getattr_hidden()
        for wl, _ in walks:
            machinery += [(ln, w) for ln, w in self.weak if self.scope(ln) == self.scope(wl)]
        if walks and machinery:
            (wl, walk), (ml, word) = walks[0], machinery[0]
            self.found.append((wl, f"walks the interpreter's live objects ({walk}) to reach "
                                   f"pytest's machinery ({word!r} at line {ml})"))
        return sorted(set(self.found))

    def scope(self, line: int) -> tuple[int, int]:
        """The innermost function around ``line`` (``(0, 0)``: the module's top level)."""
        inside = [f for f in self.functions if f[0] <= line <= f[1]]
        return max(inside) if inside else (0, 0)

    def word(self, line: int, text: str, walks: list[tuple[int, str]],
             machinery: list[tuple[int, str]]) -> None:
        """A string the code builds or names: a hook name, a walker, pytest's machinery."""
        if _HOOK_NAME.fullmatch(text) and not self.test_code:
            self.found.append((line, f"names the pytest hook {text!r}"))
        elif _MACHINERY_WORDS.search(text):
            machinery.append((line, text[:40]))
        elif text in _WALK_EVIDENCE:
            self.weak.append((line, text))
        if text in _WALKERS:
            walks.append((line, text))

    def getattr_hidden(self) -> None:
        for node in self.nodes:
            if isinstance(node, ast.Call) and _callee(node) in ("getattr", "setattr",
                                                                "hasattr") \
                    and len(node.args) >= 2:
                how = self.obfuscated(node.args[1])
                if how:
                    self.found.append((node.lineno, f"reaches an attribute by a hidden name "
                                                    f"({how}: {_text(node, 50)})"))

    def call(self, node: ast.Call, line: int, machinery: list[tuple[int, str]]) -> None:
        name = _callee(node)
        if name == "register" and isinstance(node.func, ast.Attribute) and \
                self.full(node.func.value).split(".")[0] not in _NOT_PLUGIN_MANAGERS:
            self.weak.append((line, _text(node.func, 40)))
        sink = self.sink(node)
        if sink:
            args = list(node.args)
            if sink in ("FunctionType", "CodeType") or sink.endswith(("loads", "load")):
                how = self.obfuscated(args[0]) if args else ""
                if how.startswith("loaded") and sink.endswith(("loads", "load")):
                    how = ""  # a loader fed by another load: nothing decoded
                if how or (args and self.literal(args[0]) is not None):
                    self.found.append((line, f"runs code loaded from bytes: {sink}() "
                                             f"({_text(node, 50)})"))
                return
            self.payload(line, sink, args)
        elif name == "get" and node.args and isinstance(node.func, ast.Attribute) and \
                self.full(node.func.value) == "sys.modules" and \
                _RUNNER_MODULES.match(self.literal(node.args[0]) or ""):
            self.found.append((line, f"reaches pytest's modules through sys.modules "
                                     f"({_text(node, 50)})"))
        elif name in _IMPORTERS and node.args:
            arg = node.args[0]
            how = self.obfuscated(arg)
            text = self.literal(arg)
            if how:
                self.found.append((line, f"imports a module by a hidden name ({how}: "
                                         f"{_text(node, 50)})"))
            elif text is not None and text.split(".")[0] == "_pytest":
                self.found.append((line, f"imports pytest's internals ({text})"))
            elif text is not None and _RUNNER_MODULES.match(text) and not self.test_code:
                self.found.append((line, f"imports the test runner at run time ({text})"))
            elif text is not None and _MACHINERY_WORDS.search(text):
                machinery.append((line, text))
        elif name == "getattr" and len(node.args) >= 2 and self.builtins(node.args[0]):
            what = self.literal(node.args[1])
            if what is None or what in _DANGER:
                self.found.append((line, f"fetches a builtin by a computed name "
                                         f"({_text(node, 50)})"))
        elif name in _REGISTERS and isinstance(node.func, ast.Attribute) and (
                _MACHINERY_WORDS.search(self.full(node.func.value)) or
                re.search(r"(^|\.)pm$", self.full(node.func.value))):
            self.found.append((line, f"registers with pytest's plugin manager "
                                     f"({_text(node, 50)})"))
        elif name == "setattr" and len(node.args) >= 2:
            target = self.full(node.args[0]) + " " + _text(node.args[0], 200)
            attr = self.literal(node.args[1]) or ""
            if (attr in _REPORT_ATTRS or attr.startswith("pytest_")) and \
                    _MACHINERY_WORDS.search(target + " " + attr):
                self.found.append((line, f"patches {_text(node, 50)}"))
            elif attr.startswith("pytest_"):
                self.found.append((line, f"installs the pytest hook {attr}"))
        elif name in ("run", "Popen", "call", "check_call", "check_output", "system",
                      "popen", "spawnv", "execv", "execl", "execvp") and node.args:
            argv = node.args[0]
            elts = argv.elts if isinstance(argv, (ast.List, ast.Tuple)) else [argv]
            if any(isinstance(e, ast.Constant) and e.value == "-c" for e in elts) or \
                    name in ("system", "popen"):
                for e in elts:
                    how = self.obfuscated(e)
                    if how:
                        self.found.append((line, f"runs a hidden payload in a new process "
                                                 f"(code {how})"))
                        return


PAYLOAD = "hidden_payload"
PLUGIN = "plugin_injection"
_PAYLOAD_WORDS = ("runs a hidden payload", "runs code loaded", "fetches a builtin",
                  "imports a module by a hidden name", "reaches an attribute by a hidden name")


def family(what: str) -> str:
    """The finding kind of one of :func:`analyse_reach`'s results: :data:`PAYLOAD` (hidden
    code run) or :data:`PLUGIN` (reaching pytest's machinery)."""
    return PAYLOAD if what.startswith(_PAYLOAD_WORDS) or (
        "() of a literal that " in what and any(w in what for w in _PAYLOAD_WORDS)) \
        else PLUGIN


def _negative(node: ast.AST) -> bool:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) or (
        isinstance(node, ast.Constant) and isinstance(node.value, int) and node.value < 0)


def _decode_literal(name: str, value: str | None, full: str) -> str | None:
    """A constant payload decoded the way the code would (bounded); None when unknown."""
    if value is None or len(value) > _MAX_PAYLOAD:
        return None
    try:
        raw = value.encode("latin-1", "replace")
        if name in ("b64decode", "standard_b64decode", "decodebytes", "a2b_base64"):
            data = base64.b64decode(raw)
        elif name == "urlsafe_b64decode":
            data = base64.urlsafe_b64decode(raw)
        elif name in ("b32decode",):
            data = base64.b32decode(raw)
        elif name in ("b85decode",):
            data = base64.b85decode(raw)
        elif name in ("a85decode",):
            data = base64.a85decode(raw)
        elif name in ("unhexlify", "a2b_hex", "fromhex", "b16decode"):
            data = binascii.unhexlify(value.replace(" ", ""))
        elif name == "decompress" and full.split(".")[0] == "zlib":
            data = zlib.decompressobj().decompress(raw, _MAX_PAYLOAD)
        elif name == "decode" and full.startswith("codecs"):
            return codecs.decode(value, "rot13")
        else:
            return None
    except (ValueError, binascii.Error, zlib.error, LookupError):
        return None
    return data.decode("utf-8", "replace")


def analyse_reach(source: str, test_code: bool = False, nesting: int = 0
                  ) -> list[tuple[int, str]]:
    """``(line, what)`` for each way ``source`` reaches into the test process or runs a hidden
    payload; [] for ordinary code or code that does not parse. ``test_code``: the repo's own
    test modules, where hooks pytest allows there (``pytest_generate_tests``) are not named."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    try:
        return _Reach(tree, nesting, test_code).run()
    except RecursionError:
        return []
