"""API coverage of a generated repo against its task README, with file:line evidence.

Two figures per endpoint:

* strict (ours): the repo declares a route for this method whose path, resolved the way the
  framework does (see :mod:`inspector.services.routes`: prefix chains across modules, constants,
  settings defaults, ``urls.py`` includes, DRF routers, Eve settings, Spring/JAX-RS/Micronaut
  class mappings, Javalin/Spark groups, JDK HttpServer contexts and servlet mappings with the
  methods and sub-paths their handlers test), equals the README path (parameter names ignored:
  ``{id}``, ``<int:id>`` and ``:id`` are the same segment). Evidence is the route's own line,
  with the prefixes' origin in its note.
* lenient (the stock RepoGenesis check): some file has a route-ish call for the method and
  mentions the path or one of its longer segments. Kept as is so figures can be compared.

**Which endpoints.** Strict AC is over the *spec* endpoints
(:mod:`inspector.model.readme.spec_endpoints`:
what the README really requires, each with its README line and whether the stock extraction
sees it); ``total_apis`` and the lenient count stay over the stock extraction's list, so the
stock figures are reproduced exactly. Stock endpoints the spec list does not count (code-block
examples, FEATURE items) are named in ``stock_only``.

**Unresolved endpoints.** When the only routes that could serve an endpoint have a path part
that cannot be known without running the service (a prefix from a runtime value, an env var
without default, a router never seen included), the endpoint is *unresolved*: it carries the
reason and those routes as evidence, is not counted implemented, and is not counted missing
either: it is left out of the strict denominator (``score = implemented / (total -
unresolved)``) and shown apart. Counting it missing would repeat the bug this fixes (a working
service scored 0), counting it implemented would let a guess into a strict figure. A route whose
known part has no literal segment (a bare ``/`` under an unknown prefix) says nothing about
which endpoint it is and is not a candidate.
"""

from __future__ import annotations

import re
from pathlib import Path

from inspector.model import ApiCoverage, Endpoint, EndpointCoverage, Evidence
from inspector.model.readme.spec_endpoints import stock_only
from inspector.model.repo.generated_repo import SKIP_DIRS, read_text, walk_files
from inspector.services.routes import WILD, Route, find_routes, matches, normalize, pattern

SOURCE_EXT = (".py", ".java", ".js", ".ts", ".kt")
CONFIG_EXT = (".properties", ".yml", ".yaml")
STOCK_SKIP = SKIP_DIRS | {"test", "tests", "egg-info"}

__all__ = ["SOURCE_EXT", "Route", "compute_coverage", "find_routes", "normalize"]


def _source_texts(repo: Path) -> list[tuple[str, str]]:
    """(relative path, text) of every source file (and Java app properties), read once."""
    return [(f.relative_to(repo).as_posix(), read_text(f))
            for f in walk_files(repo, SOURCE_EXT + CONFIG_EXT)]


def _in_stock_scope(rel: str) -> bool:
    """The stock check also skips test folders and egg-info."""
    return not any(part in STOCK_SKIP or part.endswith("egg-info")
                   for part in rel.split("/")[:-1])


def _stock_implements(text: str, ep: Endpoint) -> bool:
    m = ep.method.lower()
    patterns = [
        rf"@\w*\.?{m}\(", rf"@[\w.]+\.{m}\(", rf"methods\s*=\s*\[[^\]]*['\"]{ep.method}['\"]",
        rf"app\.{m}\(", rf"router\.{m}\(", rf"@{m}mapping", rf"@requestmapping.*requestmethod\.{m}",
        rf"\.{m}\(", rf"spark\.{m}\(", rf"@{m}\(", rf"@{m}\s*$",
    ]
    if not any(re.search(p, text, re.I | re.M) for p in patterns):
        return False
    if ep.path in text:
        return True
    segs = [s for s in ep.path.split("/") if len(s) > 3 and not s.startswith(("{", "<"))]
    return any(s in text for s in segs)


def _feature_hit(repo_texts: list[tuple[str, str]], name: str) -> Evidence | None:
    words = re.findall(r"[A-Za-z]+", name)
    variants = {"_".join(words).lower(), "".join(words).lower(), name.lower()}
    for rel, text in repo_texts:
        low = text.lower()
        for v in variants:
            idx = low.find(v)
            if v and idx >= 0:
                line = low.count("\n", 0, idx) + 1
                return Evidence(rel, line, text.splitlines()[line - 1].strip()[:200])
    return None


def _evidence(r: Route) -> Evidence:
    return Evidence(r.file, r.line, r.text, r.origin)


def compute_coverage(repo: Path, endpoints: list[Endpoint] | tuple[Endpoint, ...],
                     spec: list[Endpoint] | tuple[Endpoint, ...] | None = None) -> ApiCoverage:
    """Strict per-endpoint coverage of ``repo`` over ``spec`` (the stock list ``endpoints``
    when not given) with evidence, plus the stock lenient count over ``endpoints``."""
    all_texts = _source_texts(repo)
    routes = find_routes(all_texts)
    by_method: dict[str, list[tuple[Route, tuple[str, ...]]]] = {}
    for r in routes:
        pat = pattern(r.path)
        if WILD in pat and not any(seg not in (WILD, "{}") for seg in pat):
            continue  # nothing known but parameters: no candidate for any endpoint
        by_method.setdefault(r.method, []).append((r, pat))
    texts = [(rel, text) for rel, text in all_texts
             if rel.endswith(SOURCE_EXT) and _in_stock_scope(rel)]
    results: list[EndpointCoverage] = []
    lenient = 0
    for ep in endpoints:
        if ep.method == "FEATURE":
            lenient += _feature_hit(texts, ep.path) is not None
        else:
            lenient += any(_stock_implements(t, ep) for _, t in texts)
    required = spec if spec else endpoints
    for ep in required:
        if ep.method == "FEATURE":
            hit = _feature_hit(texts, ep.path)
            results.append(EndpointCoverage(ep.method, ep.path, hit is not None, ep.description,
                                            (hit,) if hit else (), readme_line=ep.readme_line,
                                            source=ep.source, readme_note=ep.note))
            continue
        want = ep.spec_path or ep.path  # what the README means where extraction cut it
        hits = [r for r, pat in by_method.get(ep.method, []) if matches(pat, want)]
        known = [r for r in hits if not r.unresolved]
        seen: set[tuple[str, int]] = set()
        chosen = known or hits
        shown: list[Evidence] = []
        for r in chosen:
            if (r.file, r.line) not in seen:
                seen.add((r.file, r.line))
                shown.append(_evidence(r))
        evidence = tuple(shown)
        unresolved = "" if known or not hits else hits[0].unresolved
        results.append(EndpointCoverage(ep.method, ep.path, bool(known), ep.description,
                                        evidence, unresolved, readme_line=ep.readme_line,
                                        source=ep.source, readme_note=ep.note))
    return ApiCoverage(
        total_apis=len(endpoints),
        implemented_apis=sum(r.implemented for r in results),
        endpoints=tuple(results),
        lenient_implemented_apis=lenient,
        unresolved_apis=sum(bool(r.unresolved) for r in results),
        spec_apis=len(required),
        stock_only=tuple(str(e) for e in stock_only(required, endpoints)) if spec else (),
    )
