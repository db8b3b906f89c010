"""Flask, FastAPI, flask-restful, Flask-RESTX and Flask MethodView routes, resolved with
their prefix chains across modules.

Router objects are the values of ``Flask()``, ``FastAPI()``, ``APIRouter(prefix=)``,
``Blueprint(url_prefix=)``, ``Api(app, prefix=)`` and ``Namespace(path=)`` calls. They are
linked by ``include_router(r, prefix=)`` (FastAPI: the include prefix goes before the router's
own), ``register_blueprint(bp, url_prefix=)`` (Flask: a given ``url_prefix`` replaces the
blueprint's own; nested blueprints add up), ``add_namespace(ns, path=)``, ``Api(bp)`` and
``api.init_app(app)``, in loops over literal lists too. A route on an object that no app ever
includes (or whose creation is not in the repo) is kept with an unknown prefix and says why.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from inspector.services.routes.model import METHODS, Part, Route, Unknown, join, show
from inspector.services.routes.pyindex import Index, Module, dotted, kwarg, str_list

APPS = {"Flask", "FastAPI", "APIFlask", "Quart", "Starlette"}
ROUTERS = {"APIRouter": "prefix", "Blueprint": "url_prefix", "APIBlueprint": "url_prefix",
           "Namespace": "path"}
APIS = {"Api"}  # flask-restful / flask-restx: Api(app_or_bp, prefix=)
LINKS = {"include_router": "prefix", "register_blueprint": "url_prefix",
         "add_namespace": "path"}
_LOWER = tuple(m.lower() for m in METHODS)

Key = tuple[str, str]  # (module rel, variable name)
Env = dict[str, tuple[Module, ast.expr]]


@dataclass
class Obj:
    key: Key
    kind: str  # app | router | api | unknown
    ctor: str
    line: int
    own: tuple[Part, ...] = ()
    parents: list[tuple[Key, tuple[Part, ...] | None, str]] = field(default_factory=list)
    param_of: str = ""


class PythonRoutes:
    """Resolve every route of a repo's Python modules."""

    def __init__(self, index: Index) -> None:
        self.ix = index
        self.objs: dict[Key, Obj] = {}
        self.pending: list[tuple[Module, ast.Call, Env]] = []
        self.raw: list[tuple[Key, str, tuple[Part, ...], Module, int]] = []

    # ------------------------------------------------------------------ objects

    def _obj_key(self, mod: Module, node: ast.AST, env: Env | None = None, depth: int = 0
                 ) -> Key | None:
        """The router object an expression denotes, following names across modules."""
        if depth > 12:
            return None
        if isinstance(node, ast.Name):
            if env and node.id in env:
                emod, expr = env[node.id]
                return self._obj_key(emod, expr, None, depth + 1)
            key = (mod.rel, node.id)
            if key in self.objs:
                return key
            sym = self.ix.lookup(mod, node.id)
            if sym is None:
                return None
            if sym.kind == "expr" and sym.mod is not mod:
                # imported, maybe under another name (``from .health import bp as health_bp``)
                name = next((n for n, values in sym.mod.assigns.items()
                             if values and values[-1] is sym.node), node.id)
                return self._obj_key(sym.mod, ast.Name(id=name), None, depth + 1) \
                    if (sym.mod.rel, name) in self.objs else \
                    self._obj_key(sym.mod, sym.expr_node, None, depth + 1)
            if sym.kind == "expr":
                return self._obj_key(sym.mod, sym.expr_node, None, depth + 1)
            return None
        if isinstance(node, ast.Attribute):
            base = self.ix.ref(mod, node.value, env)
            if base is not None and base.kind == "module":
                return self._obj_key(base.mod, ast.Name(id=node.attr), None, depth + 1)
            return None
        if isinstance(node, ast.Call):
            fn = self.ix.ref(mod, node.func, env)
            if fn is not None and fn.kind == "func":
                rets = [n.value for n in ast.walk(fn.func_node) if isinstance(n, ast.Return)
                        and n.value is not None]
                for r in reversed(rets):
                    k = self._obj_key(fn.mod, r, None, depth + 1)
                    if k:
                        return k
        return None

    def _collect_objects(self) -> None:
        for mod in self.ix.modules:
            for node in mod.nodes:
                if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and
                        isinstance(node.value, ast.Call)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                ctor = dotted(node.value.func).rsplit(".", 1)[-1]
                for t in targets:
                    if not isinstance(t, ast.Name):
                        continue
                    key = (mod.rel, t.id)
                    call = node.value
                    if ctor in APPS:
                        self.objs[key] = Obj(key, "app", ctor, node.lineno)
                    elif ctor in ROUTERS:
                        arg = kwarg(call, ROUTERS[ctor])
                        own = self.ix.string(mod, arg) if arg is not None else ()
                        if ctor == "Namespace" and arg is None and call.args:
                            own = ("/",) + self.ix.string(mod, call.args[0])
                        self.objs[key] = Obj(key, "router", ctor, node.lineno, own)
                    elif ctor in APIS:
                        arg = kwarg(call, "prefix")
                        self.objs[key] = Obj(key, "api", ctor, node.lineno,
                                             self.ix.string(mod, arg) if arg is not None else ())
                        self.pending.append((mod, call, {}))

    def _unknown_obj(self, mod: Module, name: str, line: int) -> Key:
        key = (mod.rel, name)
        if key not in self.objs:
            obj = Obj(key, "unknown", "", line)
            for fn in mod.functions.values():
                if any(a.arg == name for a in fn.args.args):
                    obj.param_of = fn.name
            self.objs[key] = obj
        return key

    # ------------------------------------------------------------------ walking

    def _loops(self, mod: Module) -> dict[int, list[Env]]:
        """For each call line inside a ``for`` over a literal list, the bindings per item."""
        out: dict[int, list[Env]] = {}
        for node in mod.nodes:
            if not isinstance(node, ast.For):
                continue
            items: ast.AST = node.iter
            if isinstance(items, (ast.Name, ast.Attribute)):
                sym = self.ix._raw_ref(mod, items, None, 0)
                items = sym.expr_node if sym is not None and sym.kind == "expr" else items
            if not isinstance(items, (ast.List, ast.Tuple)):
                continue
            envs: list[Env] = []
            for item in items.elts:
                env: Env = {}
                if isinstance(node.target, ast.Name):
                    env[node.target.id] = (mod, item)
                elif isinstance(node.target, ast.Tuple) and isinstance(item, ast.Tuple):
                    for t, v in zip(node.target.elts, item.elts, strict=False):
                        if isinstance(t, ast.Name):
                            env[t.id] = (mod, v)
                envs.append(env)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    out.setdefault(id(inner), []).extend(envs)
        return out

    def _walk(self) -> None:
        for mod in self.ix.modules:
            loops = self._loops(mod)
            for node in mod.nodes:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    for dec in node.decorator_list:
                        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute):
                            self._decorator(mod, dec, dec.func, node)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    for env in loops.get(id(node), [{}]):
                        self._call(mod, node, node.func, env)
            for mod_, call, env in [p for p in self.pending if p[0] is mod]:
                self._api_parent(mod_, call, env)

    def _target(self, mod: Module, node: ast.expr, env: Env, line: int) -> Key | None:
        key = self._obj_key(mod, node, env)
        if key is None and isinstance(node, (ast.Name, ast.Attribute)):
            key = self._unknown_obj(mod, dotted(node), line)
        return key

    def _decorator(self, mod: Module, dec: ast.Call, func: ast.Attribute, fn: ast.AST) -> None:
        """``@owner.get(...)`` and the like on ``fn``; ``func`` is ``dec.func``."""
        attr = func.attr
        if attr not in (*_LOWER, "route", "api_route"):
            return
        if attr == "route" and isinstance(fn, ast.ClassDef):  # restx @ns.route on a Resource
            methods = self.class_methods(mod, fn)
        elif attr in ("route", "api_route"):
            listed = str_list(self.ix, mod, kwarg(dec, "methods"))
            methods = [m.upper() for m in listed] if listed is not None else ["GET"]
        else:
            methods = [attr.upper()]
        key = self._target(mod, func.value, {}, dec.lineno)
        if key is None:
            return
        path_node = dec.args[0] if dec.args else kwarg(dec, "path") or kwarg(dec, "rule")
        path = self.ix.string(mod, path_node) if path_node is not None else ()
        for m in methods:
            if m in METHODS:
                self.raw.append((key, m, path, mod, dec.lineno))

    def _call(self, mod: Module, call: ast.Call, func: ast.Attribute, env: Env) -> None:
        """``owner.attr(...)`` calls that mount or register routes; ``func`` is ``call.func``."""
        attr = func.attr
        owner = func.value
        if attr in LINKS and call.args:
            parent = self._target(mod, owner, env, call.lineno)
            child = self._obj_key(mod, call.args[0], env)
            if parent and child and child in self.objs:
                arg = kwarg(call, LINKS[attr])
                prefix = self.ix.string(mod, arg, env) if arg is not None else None
                self.objs[child].parents.append((parent, prefix, mod.where(call)))
        elif attr == "init_app" and call.args:
            child = self._obj_key(mod, owner, env)
            parent = self._target(mod, call.args[0], env, call.lineno)
            if child and parent and child in self.objs and self.objs[child].kind == "api":
                self.objs[child].parents.append((parent, None, mod.where(call)))
        elif attr in ("add_url_rule", "add_api_route", "add_resource", "api_route"):
            self._rule_call(mod, call, attr, owner, env)

    def _rule_call(self, mod: Module, call: ast.Call, attr: str, owner: ast.expr, env: Env
                   ) -> None:
        key = self._target(mod, owner, env, call.lineno)
        if key is None:
            return
        if attr == "add_resource":
            if not call.args:
                return
            cls = self.ix.class_of(mod, call.args[0])
            methods = self.class_methods(cls.mod, cls.class_node) if cls else []
            paths = call.args[1:]
        else:
            rule = call.args[0] if call.args else kwarg(call, "rule") or kwarg(call, "path")
            paths = [rule] if rule is not None else []
            view = kwarg(call, "view_func") or kwarg(call, "endpoint")
            if view is None and len(call.args) > (2 if attr == "add_url_rule" else 1):
                view = call.args[2 if attr == "add_url_rule" else 1]
            listed = str_list(self.ix, mod, kwarg(call, "methods"))
            cls = None
            if isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute) and \
                    view.func.attr == "as_view":
                cls = self.ix.class_of(mod, view.func.value)
            if listed is not None:
                methods = [m.upper() for m in listed]
            elif cls is not None:
                methods = self.class_methods(cls.mod, cls.class_node)
            else:
                methods = ["GET"]
        for p in paths:
            path = self.ix.string(mod, p, env)
            for m in methods:
                if m in METHODS:
                    self.raw.append((key, m, path, mod, call.lineno))

    def _api_parent(self, mod: Module, call: ast.Call, env: Env) -> None:
        parent_node = call.args[0] if call.args else kwarg(call, "app")
        if parent_node is None:
            return
        assigned = next((k for k, o in self.objs.items() if o.kind == "api" and
                         k[0] == mod.rel and o.line == call.lineno), None)
        parent = self._obj_key(mod, parent_node, env)
        if assigned and parent:
            self.objs[assigned].parents.append((parent, None, mod.where(call)))

    def class_methods(self, mod: Module, cls: ast.ClassDef, depth: int = 0) -> list[str]:
        """HTTP methods a class-based view answers: a literal ``methods`` attribute, else its
        ``get``/``post``/... methods (base classes in the repo included)."""
        listed = self.ix.class_attr(mod, cls, "methods")
        if listed is not None:
            names = str_list(self.ix, listed.mod, listed.node)
            if names is not None:
                return [n.upper() for n in names]
        found = [s.name.upper() for s in cls.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in _LOWER]
        if depth < 5:
            for base in cls.bases:
                b = self.ix.class_of(mod, base)
                if b is not None:
                    found += [m for m in self.class_methods(b.mod, b.class_node, depth + 1)
                              if m not in found]
        return found

    # ------------------------------------------------------------------ prefixes

    def prefixes(self, key: Key, depth: int = 0) -> list[tuple[tuple[Part, ...], list[str]]]:
        """Every full prefix of an object, with where each piece comes from."""
        obj = self.objs[key]
        here = f"{obj.ctor or 'router'} {key[1]} ({key[0]}:{obj.line})"
        if depth > 8:
            return [((Unknown(f"router chain too deep at {here}"),), [])]
        if obj.kind == "app":
            return [((), [])]
        if not obj.parents:
            if obj.kind == "unknown":
                why = (f"router {key[1]} is a parameter of {obj.param_of}() whose callers "
                       f"were not found ({key[0]})" if obj.param_of else
                       f"router {key[1]} could not be traced to its creation ({key[0]}:"
                       f"{obj.line})")
                return [((Unknown(why),), [])]
            return [((Unknown(f"{here} is never included in an app"),) + obj.own,
                     [f"{show(obj.own)!r} ({here})"] if obj.own else [])]
        out = []
        for parent, link_prefix, where in obj.parents:
            if obj.ctor in ("Blueprint", "APIBlueprint", "Namespace") and link_prefix is not None:
                mine, how = link_prefix, f"given at {where}"
            elif link_prefix is not None:
                mine, how = join(link_prefix, obj.own), f"{where} + {here}"
            else:
                mine, how = obj.own, f"{here}, included at {where}"
            mine = tuple(Unknown(f"prefix from {p.reason}") if isinstance(p, Unknown) else p
                         for p in mine)
            for ppath, pnotes in self.prefixes(parent, depth + 1):
                notes = pnotes + ([f"{show(mine)!r} ({how})"] if mine else [])
                out.append((join(ppath, mine), notes))
        return out

    def routes(self) -> list[Route]:
        self._collect_objects()
        self._walk()
        self._resolve_params()
        out = []
        cache: dict[Key, list[tuple[tuple[Part, ...], list[str]]]] = {}
        for key, method, path, mod, line in self.raw:
            if key not in cache:
                cache[key] = self.prefixes(key)
            for prefix, notes in cache[key]:
                out.append(Route(method, join(prefix, path) if prefix else path or ("/",),
                                 mod.rel, line, mod.text(line),
                                 "prefix " + " + ".join(notes) if notes else ""))
        return out

    def _resolve_params(self) -> None:
        """A router that is a function parameter (``def register(app): @app.route...``) takes
        the prefixes of the arguments at the function's call sites."""
        params = {o.param_of: k for k, o in self.objs.items() if o.kind == "unknown" and
                  o.param_of}
        if not params:
            return
        for mod in self.ix.modules:
            for node in mod.nodes:
                if not isinstance(node, ast.Call):
                    continue
                fname = dotted(node.func).rsplit(".", 1)[-1]
                if fname not in params:
                    continue
                key = params[fname]
                fn = next((m.functions[fname] for m in self.ix.modules
                           if m.rel == key[0] and fname in m.functions), None)
                if fn is None:
                    continue
                names = [a.arg for a in fn.args.args]
                idx = names.index(key[1]) if key[1] in names else -1
                arg = node.args[idx] if 0 <= idx < len(node.args) else kwarg(node, key[1])
                parent = self._obj_key(mod, arg) if arg is not None else None
                if parent and parent != key:
                    self.objs[key].parents.append((parent, None, mod.where(node)))
