"""Django and Django REST framework routes: ``urls.py`` chains from ``ROOT_URLCONF``.

``path()``, ``re_path()`` and ``url()`` entries are joined the way Django does (plain
concatenation of the route strings), ``include()`` follows a module name, a module, an inline
list or a DRF router's ``urls``. The methods of a view are the ones Django would let through:
``@api_view([...])`` / ``require_http_methods`` / ``require_GET``..., a class-based view's
``get``/``post``/... methods and DRF generic bases, the keys of ``ViewSet.as_view({...})``,
and for ``DefaultRouter``/``SimpleRouter.register`` the viewset's actions (list/create on the
list route, retrieve/update/partial_update/destroy on the detail route, ``@action`` extras).
A plain function view that never looks at ``request.method`` answers every method.
"""

from __future__ import annotations

import ast

from inspector.services.routes.model import METHODS, Part, Route, from_regex
from inspector.services.routes.pyindex import Index, Module, dotted, kwarg, str_list

_GENERIC = {
    "ListAPIView": "GET", "CreateAPIView": "POST", "ListCreateAPIView": "GET POST",
    "RetrieveAPIView": "GET", "UpdateAPIView": "PUT PATCH", "DestroyAPIView": "DELETE",
    "RetrieveUpdateAPIView": "GET PUT PATCH", "RetrieveDestroyAPIView": "GET DELETE",
    "RetrieveUpdateDestroyAPIView": "GET PUT PATCH DELETE", "ListView": "GET",
    "DetailView": "GET", "TemplateView": "GET", "RedirectView": "GET",
    "CreateView": "GET POST", "UpdateView": "GET POST", "DeleteView": "GET POST",
    "FormView": "GET POST", "TokenObtainPairView": "POST", "TokenRefreshView": "POST",
    "TokenVerifyView": "POST", "ObtainAuthToken": "POST", "LoginView": "GET POST",
    "LogoutView": "GET POST",
}
_ACTIONS = {"list": ("GET", False), "create": ("POST", False), "retrieve": ("GET", True),
            "update": ("PUT", True), "partial_update": ("PATCH", True),
            "destroy": ("DELETE", True)}
_VIEWSETS = {"ModelViewSet": "list create retrieve update partial_update destroy",
             "ReadOnlyModelViewSet": "list retrieve", "ListModelMixin": "list",
             "CreateModelMixin": "create", "RetrieveModelMixin": "retrieve",
             "UpdateModelMixin": "update partial_update", "DestroyModelMixin": "destroy"}
_DECOS = {"require_GET": ["GET"], "require_POST": ["POST"], "require_safe": ["GET"]}
MAX_DEPTH = 10


class DjangoRoutes:
    def __init__(self, index: Index) -> None:
        self.ix = index
        self.out: list[Route] = []

    def routes(self) -> list[Route]:
        roots = self._roots()
        for mod in roots:
            self._patterns(mod, self._urlpatterns(mod), ("/",), [], 0)
        return self.out

    def _roots(self) -> list[Module]:
        for mod in self.ix.modules:
            if "ROOT_URLCONF" in mod.assigns:
                parts = self.ix.string(mod, mod.assigns["ROOT_URLCONF"][-1])
                name = "".join(p for p in parts if isinstance(p, str))
                target = self.ix.module(name)
                if target is not None:
                    return [target]
        urls = [m for m in self.ix.modules if "urlpatterns" in m.assigns]
        included = set()
        for m in urls:
            for node in m.nodes:
                if isinstance(node, ast.Call) and dotted(node.func).endswith("include"):
                    include = self._include_target(m, node)
                    if isinstance(include, Module):
                        included.add(include.rel)
        return [m for m in urls if m.rel not in included]

    def _urlpatterns(self, mod: Module) -> list[ast.expr]:
        """Every element ever put in ``urlpatterns`` (=, +=, append, extend, + lists)."""
        elts: list[ast.expr] = []

        def add(value: ast.expr) -> None:
            if isinstance(value, (ast.List, ast.Tuple)):
                elts.extend(value.elts)
            elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
                add(value.left)
                add(value.right)
            else:
                elts.append(value)

        for node in mod.tree.body:
            if isinstance(node, ast.Assign):
                targets: list[ast.expr] = list(node.targets)
                value: ast.expr | None = node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets = [node.target]
                value = node.value
            else:
                targets = []
                value = None
            if value is not None and \
                    any(isinstance(t, ast.Name) and t.id == "urlpatterns" for t in targets):
                elts.clear()
                add(value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id == "urlpatterns":
                add(node.value)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                    isinstance(node.value.func, ast.Attribute) and \
                    dotted(node.value.func) in ("urlpatterns.append", "urlpatterns.extend"):
                for a in node.value.args:
                    (add if node.value.func.attr == "extend" else elts.append)(a)
        return elts

    def _patterns(self, mod: Module, elts: list[ast.expr], prefix: tuple[Part, ...],
                  origin: list[str], depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        for e in elts:
            if isinstance(e, ast.Starred):
                e = e.value
            if isinstance(e, ast.Attribute) and e.attr == "urls":
                self._router(mod, e.value, prefix, origin)
                continue
            if not isinstance(e, ast.Call):
                continue
            fname = dotted(e.func).rsplit(".", 1)[-1]
            if fname not in ("path", "re_path", "url") or not e.args:
                continue
            route = self.ix.string(mod, e.args[0])
            if fname != "path":
                route = tuple(from_regex(p) if isinstance(p, str) else p for p in route)
            full = prefix + route
            view = e.args[1] if len(e.args) > 1 else kwarg(e, "view")
            if isinstance(view, ast.Call) and dotted(view.func).endswith("include"):
                here = origin + [f"{''.join(p for p in route if isinstance(p, str))!r} via "
                                 f"{mod.where(e)}"]
                target = self._include_target(mod, view)
                if isinstance(target, Module):
                    self._patterns(target, self._urlpatterns(target), full, here, depth + 1)
                elif isinstance(target, list):
                    self._patterns(mod, target, full, here, depth + 1)
                elif isinstance(target, tuple):
                    self._router(target[0], target[1], full, here)
                continue
            if isinstance(view, ast.Attribute) and view.attr == "urls":
                here = origin + [f"{''.join(p for p in route if isinstance(p, str))!r} via "
                                 f"{mod.where(e)}"]
                self._router(mod, view.value, full, here)
                continue
            where = (mod, e.lineno)
            for method in self._view_methods(mod, view):
                self._emit(method, full, where, origin)

    def _emit(self, method: str, path: tuple[Part, ...], where: tuple[Module, int],
              origin: list[str]) -> None:
        mod, line = where
        self.out.append(Route(method, path, mod.rel, line, mod.text(line),
                              "prefix " + "; ".join(origin) if origin else ""))

    def _include_target(self, mod: Module, call: ast.Call
                        ) -> Module | list[ast.expr] | tuple[Module, ast.expr] | None:
        arg = call.args[0] if call.args else None
        if isinstance(arg, ast.Tuple) and arg.elts:
            arg = arg.elts[0]
        if arg is None:
            return None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return self.ix.module(arg.value)
        if isinstance(arg, (ast.List, ast.Tuple)):
            return list(arg.elts)
        if isinstance(arg, ast.Attribute) and arg.attr == "urls":
            return (mod, arg.value)
        sym = self.ix.ref(mod, arg)
        if sym is not None and sym.kind == "module":
            return sym.mod
        if sym is not None and sym.kind == "expr" and isinstance(sym.node, (ast.List, ast.Tuple)):
            return list(sym.node.elts)
        return None

    # ------------------------------------------------------------------ DRF routers

    def _router(self, mod: Module, node: ast.expr, prefix: tuple[Part, ...],
                origin: list[str]) -> None:
        sym = self.ix._raw_ref(mod, node, None, 0) if isinstance(node, (ast.Name,
                                                                         ast.Attribute)) else None
        rmod = sym.mod if sym is not None else mod
        name = node.id if isinstance(node, ast.Name) else dotted(node).rsplit(".", 1)[-1]
        for call in rmod.nodes:
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and
                    call.func.attr == "register" and dotted(call.func.value).endswith(name)
                    and len(call.args) >= 2):
                continue
            reg = self.ix.string(rmod, call.args[0])
            cls = self.ix.class_of(rmod, call.args[1])
            where = (rmod, call.lineno)
            if cls is None:
                self._emit("GET", prefix + reg, where, origin + [
                    f"viewset {ast.unparse(call.args[1])} not found in the repo"])
                continue
            base = prefix + reg
            for action in self._actions(cls.mod, cls.class_node):
                method, detail = _ACTIONS[action]
                self._emit(method, base + (("/{pk}",) if detail else ()), where, origin)
            for fn in cls.class_node.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue  # the statements that take decorators
                dec = next((d for d in fn.decorator_list
                            if isinstance(d, ast.Call) and dotted(d.func).endswith("action")),
                           None)
                if dec is None:
                    continue
                detail_kw = kwarg(dec, "detail")
                is_detail = isinstance(detail_kw, ast.Constant) and detail_kw.value is True
                url_path = kwarg(dec, "url_path")
                seg = self.ix.string(cls.mod, url_path) if url_path is not None else (fn.name,)
                methods = str_list(self.ix, cls.mod, kwarg(dec, "methods")) or ["get"]
                for m in methods:
                    self._emit(m.upper(), base + (("/{pk}",) if is_detail else ()) + ("/",) +
                               seg, (cls.mod, fn.lineno), origin)

    def _actions(self, mod: Module, cls: ast.ClassDef, depth: int = 0) -> list[str]:
        acts = [s.name for s in cls.body if isinstance(s, (ast.FunctionDef,
                                                           ast.AsyncFunctionDef))
                and s.name in _ACTIONS]
        for base in cls.bases:
            bname = dotted(base).rsplit(".", 1)[-1]
            if bname in _VIEWSETS:
                acts += _VIEWSETS[bname].split()
            elif depth < 5:
                b = self.ix.class_of(mod, base)
                if b is not None:
                    acts += self._actions(b.mod, b.class_node, depth + 1)
        allowed = self.ix.class_attr(mod, cls, "http_method_names")
        names = str_list(self.ix, allowed.mod, allowed.node) if allowed else None
        out = list(dict.fromkeys(acts))
        if names is not None:
            out = [a for a in out if _ACTIONS[a][0].lower() in names]
        return out

    # ------------------------------------------------------------------ views

    def _view_methods(self, mod: Module, view: ast.expr | None) -> list[str]:
        if view is None:
            return []
        if isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute) and \
                view.func.attr == "as_view":
            if view.args and isinstance(view.args[0], ast.Dict):  # ViewSet.as_view({...})
                return [k.value.upper() for k in view.args[0].keys
                        if isinstance(k, ast.Constant) and isinstance(k.value, str)
                        and k.value.upper() in METHODS]
            cls = self.ix.class_of(mod, view.func.value)
            if cls is None:
                base = dotted(view.func.value).rsplit(".", 1)[-1]
                return _GENERIC.get(base, "").split() or list(METHODS)
            return self._class_methods(cls.mod, cls.class_node)
        sym = self.ix.ref(mod, view)
        if sym is None or sym.kind != "func":
            return list(METHODS)
        return self._func_methods(sym.mod, sym.func_node)

    def _class_methods(self, mod: Module, cls: ast.ClassDef, depth: int = 0) -> list[str]:
        found = [s.name.upper() for s in cls.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name.upper() in METHODS]
        for base in cls.bases:
            bname = dotted(base).rsplit(".", 1)[-1]
            if bname in _GENERIC:
                found += _GENERIC[bname].split()
            elif depth < 5:
                b = self.ix.class_of(mod, base)
                if b is not None:
                    found += self._class_methods(b.mod, b.class_node, depth + 1)
        return list(dict.fromkeys(found))

    def _func_methods(self, mod: Module, fn: ast.FunctionDef | ast.AsyncFunctionDef
                      ) -> list[str]:
        for dec in fn.decorator_list:
            name = dotted(dec.func if isinstance(dec, ast.Call) else dec).rsplit(".", 1)[-1]
            if name in _DECOS:
                return _DECOS[name]
            if name in ("api_view", "require_http_methods") and isinstance(dec, ast.Call):
                listed = str_list(self.ix, mod, dec.args[0] if dec.args else
                                  kwarg(dec, "http_method_names"))
                return [m.upper() for m in listed] if listed is not None else ["GET"]
            if name == "api_view":
                return ["GET"]
        seen = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and dotted(node.left).endswith("request.method"):
                for c in node.comparators:
                    if isinstance(c, ast.Constant) and isinstance(c.value, str):
                        seen.append(c.value.upper())
                    elif isinstance(c, (ast.List, ast.Tuple, ast.Set)):
                        seen += [x.value.upper() for x in c.elts
                                 if isinstance(x, ast.Constant) and isinstance(x.value, str)]
        seen = [m for m in dict.fromkeys(seen) if m in METHODS]
        return seen or list(METHODS)

