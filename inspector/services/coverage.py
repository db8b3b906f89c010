"""API coverage of a generated repo against its task README, with file:line evidence.

Two figures per endpoint:

* strict (ours): the repo declares a route for this method whose path, with any router or
  blueprint prefix declared in the repo, equals the README path (parameter names ignored:
  ``{id}``, ``<int:id>`` and ``:id`` are the same segment). Evidence is the declaring line.
* lenient (the stock RepoGenesis check): some file has a route-ish call for the method and
  mentions the path or one of its longer segments. Kept so figures can be compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from inspector.model import ApiCoverage, Endpoint, EndpointCoverage, Evidence

from .repo_files import SKIP_DIRS, iter_files, read_text

SOURCE_EXT = (".py", ".java", ".js", ".ts", ".kt")
STOCK_SKIP = set(SKIP_DIRS) | {"test", "tests", "egg-info"}
_M = "get|post|put|delete|patch"

_DECORATOR = re.compile(rf"@\s*[\w.]+\.({_M})\s*\(\s*[rfbu]?['\"]([^'\"]*)['\"]", re.I)
_ROUTE = re.compile(r"(?:@\s*[\w.]+\.route|\.add_url_rule|\.add_api_route|\.api_route)\s*\(\s*"
                    r"[rfbu]?['\"]([^'\"]*)['\"]")
_METHODS_KW = re.compile(r"methods\s*=\s*[\[(]([^\])]*)[\])]", re.I)
_SPRING = re.compile(rf"@({_M})Mapping\s*\(\s*(?:(?:value|path)\s*=\s*)?\{{?\s*\"([^\"]*)\"", re.I)
_CALL = re.compile(rf"\.({_M})\s*\(\s*[\"'](/[^\"']*)[\"']", re.I)
_PREFIX = re.compile(r"(?:prefix|url_prefix)\s*=\s*[rfbu]?['\"]([^'\"]*)['\"]")
_REQ_MAPPING = re.compile(r"@RequestMapping\s*\(\s*(?:(?:value|path)\s*=\s*)?\"([^\"]*)\"")


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str
    file: str
    line: int
    text: str


def normalize(path: str) -> str:
    """Path with parameter segments made anonymous and no trailing slash."""
    segs = []
    for seg in path.strip().split("?", 1)[0].split("/"):
        if not seg:
            continue
        if (seg.startswith("{") and seg.endswith("}")) or (seg.startswith("<") and
                                                           seg.endswith(">")) \
                or seg.startswith(":"):
            segs.append("{}")
        else:
            segs.append(seg)
    return "/" + "/".join(segs)


def _source_texts(repo: Path) -> list[tuple[str, str]]:
    """(relative path, text) of every source file, read once."""
    return [(f.relative_to(repo).as_posix(), read_text(f)) for f in iter_files(repo, SOURCE_EXT)]


def _in_stock_scope(rel: str) -> bool:
    """The stock check also skips test folders and egg-info."""
    return not any(part in STOCK_SKIP or part.endswith("egg-info")
                   for part in rel.split("/")[:-1])


def find_routes(texts: list[tuple[str, str]]) -> tuple[list[Route], set[str]]:
    """Route declarations and path prefixes found in the repo's source files."""
    routes: list[Route] = []
    prefixes: set[str] = {""}
    for rel, text in texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            for m in _PREFIX.finditer(line):
                prefixes.add(normalize(m.group(1)).rstrip("/"))
            for m in _REQ_MAPPING.finditer(line):
                prefixes.add(normalize(m.group(1)).rstrip("/"))
            found: list[tuple[str, str]] = []
            found += [(m.group(1), m.group(2)) for m in _DECORATOR.finditer(line)]
            found += [(m.group(1), m.group(2)) for m in _SPRING.finditer(line)]
            if not found:
                found += [(m.group(1), m.group(2)) for m in _CALL.finditer(line)
                          if not line.lstrip().startswith(("#", "//"))]
            for m in _ROUTE.finditer(line):
                window = " ".join(lines[i:i + 4])
                mk = _METHODS_KW.search(window)
                methods = re.findall(rf"({_M})", mk.group(1), re.I) if mk else ["GET"]
                found += [(meth, m.group(1)) for meth in methods]
            for method, path in found:
                routes.append(Route(method.upper(), path, rel, i + 1, line.strip()[:200]))
    return routes, prefixes


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


def compute_coverage(repo: Path, endpoints: list[Endpoint] | tuple[Endpoint, ...]
                     ) -> ApiCoverage:
    """Per-endpoint coverage of ``repo`` with evidence, plus the stock lenient count."""
    all_texts = _source_texts(repo)
    routes, prefixes = find_routes(all_texts)
    texts = [(rel, text) for rel, text in all_texts if _in_stock_scope(rel)]
    results: list[EndpointCoverage] = []
    lenient = 0
    for ep in endpoints:
        if ep.method == "FEATURE":
            hit = _feature_hit(texts, ep.path)
            results.append(EndpointCoverage(ep.method, ep.path, hit is not None, ep.description,
                                            (hit,) if hit else ()))
            lenient += hit is not None
            continue
        want = normalize(ep.path)
        evidence = tuple(
            Evidence(r.file, r.line, r.text) for r in routes
            if r.method == ep.method and any(normalize(p + "/" + r.path.lstrip("/")) == want
                                             for p in prefixes)
        )
        results.append(EndpointCoverage(ep.method, ep.path, bool(evidence), ep.description,
                                        evidence))
        lenient += any(_stock_implements(t, ep) for _, t in texts)
    return ApiCoverage(
        total_apis=len(endpoints),
        implemented_apis=sum(r.implemented for r in results),
        endpoints=tuple(results),
        lenient_implemented_apis=lenient,
    )
