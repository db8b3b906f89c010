"""Eve routes from its settings: every ``DOMAIN`` resource gets a collection route
(``resource_methods``, default ``RESOURCE_METHODS`` or GET) and an item route (``item_methods``,
default ``ITEM_METHODS`` or GET) under ``/URL_PREFIX/API_VERSION/``; a resource's ``url``
replaces its name. Settings come from a module defining ``DOMAIN`` (Eve's ``settings.py``) or
a dict literal passed as ``Eve(settings={...})``."""

from __future__ import annotations

import ast

from inspector.services.routes.model import METHODS, Part, Route, Unknown
from inspector.services.routes.pyindex import Index, Module, dotted, kwarg, str_list


def _uses_eve(index: Index) -> bool:
    return any(isinstance(n, ast.Call) and dotted(n.func).rsplit(".", 1)[-1] == "Eve"
               for m in index.modules for n in m.nodes)


def _settings(index: Index) -> list[tuple[Module, dict[str, ast.expr], int]]:
    out = []
    for m in index.modules:
        for node in m.nodes:
            if isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] == "Eve":
                arg = kwarg(node, "settings")
                sym = index._raw_ref(m, arg, None, 0) if isinstance(
                    arg, (ast.Name, ast.Attribute)) else None
                value = sym.node if sym is not None and sym.kind == "expr" else arg
                if isinstance(value, ast.Dict):
                    mod = sym.mod if sym is not None else m
                    out.append((mod, _dict(value), value.lineno))
    for m in index.modules:
        if "DOMAIN" in m.assigns:
            out.append((m, {k: v[-1] for k, v in m.assigns.items()},
                        m.assigns["DOMAIN"][-1].lineno))
    return out


def _dict(node: ast.Dict) -> dict[str, ast.expr]:
    return {k.value: v for k, v in zip(node.keys, node.values, strict=False)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def eve_routes(index: Index) -> list[Route]:
    if not _uses_eve(index):
        return []
    out: list[Route] = []
    for mod, conf, _line in _settings(index)[:1]:
        domain: ast.AST | None = conf.get("DOMAIN")
        if isinstance(domain, (ast.Name, ast.Attribute)):
            sym = index._raw_ref(mod, domain, None, 0)
            domain = sym.expr_node if sym is not None and sym.kind == "expr" else domain
        if not isinstance(domain, ast.Dict):
            continue
        base: tuple[Part, ...] = ()
        for key in ("URL_PREFIX", "API_VERSION"):
            if key in conf:
                base += ("/",) + index.string(mod, conf[key])
        res_default = str_list(index, mod, conf.get("RESOURCE_METHODS")) or ["GET"]
        item_default = str_list(index, mod, conf.get("ITEM_METHODS")) or ["GET"]
        for name_node, value in zip(domain.keys, domain.values, strict=False):
            spec: ast.AST = value
            if not isinstance(name_node, ast.Constant):
                continue
            name = str(name_node.value)
            if isinstance(spec, (ast.Name, ast.Attribute)):
                sym = index._raw_ref(mod, spec, None, 0)
                spec = sym.expr_node if sym is not None and sym.kind == "expr" else spec
            fields = _dict(spec) if isinstance(spec, ast.Dict) else {}
            url: tuple[Part, ...] = index.string(mod, fields["url"]) if "url" in fields \
                else (name,)
            if not isinstance(spec, ast.Dict):
                url = (Unknown(f"Eve resource {name} is not a literal dict "
                               f"({mod.where(name_node)})"),)
            res = str_list(index, mod, fields.get("resource_methods")) or res_default
            item = str_list(index, mod, fields.get("item_methods")) or item_default
            line = name_node.lineno
            coll = base + ("/",) + url
            for m in res:
                if m.upper() in METHODS:
                    out.append(Route(m.upper(), coll, mod.rel, line, mod.text(line)))
            for m in item:
                if m.upper() in METHODS:
                    out.append(Route(m.upper(), coll + ("/{id}",), mod.rel, line,
                                     mod.text(line)))
    return out
