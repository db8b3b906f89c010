"""All resolvers over one repo's source texts, each file parsed once."""

from __future__ import annotations

import re

from inspector.services.routes.django import DjangoRoutes
from inspector.services.routes.eve import eve_routes
from inspector.services.routes.java import JavaRoutes
from inspector.services.routes.java_plain import PlainJava
from inspector.services.routes.model import Route
from inspector.services.routes.pyindex import Index
from inspector.services.routes.python import PythonRoutes

# Other languages keep the plain one-line check: `router.get("/x", ...)` with a literal path.
_OTHER = re.compile(r"\.(get|post|put|delete|patch)\s*\(\s*[\"'`](/[^\"'`]*)[\"'`]", re.I)


def find_routes(texts: list[tuple[str, str]]) -> list[Route]:
    """Every route declared in ``texts`` (``(relative path, text)`` of the repo's files)."""
    routes: list[Route] = []
    py = [(rel, t) for rel, t in texts if rel.endswith(".py")]
    if py:
        index = Index(py)
        routes += PythonRoutes(index).routes()
        routes += DjangoRoutes(index).routes()
        routes += eve_routes(index)
    if any(rel.endswith(".java") for rel, _ in texts):
        java = JavaRoutes(texts)
        routes += java.routes() + PlainJava(java).routes()
    for rel, text in texts:
        if rel.endswith((".js", ".ts", ".kt")):
            for i, line in enumerate(text.splitlines(), 1):
                if line.lstrip().startswith(("//", "*")):
                    continue
                for m in _OTHER.finditer(line):
                    routes.append(Route(m.group(1).upper(), (m.group(2),), rel, i,
                                        line.strip()[:200]))
    return routes
