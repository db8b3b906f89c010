"""Reading a task README: port, framework hint and required endpoints.

Endpoint extraction follows the public RepoGenesis harness (``api_coverage.py``) so that our
``total_apis`` equals the stock figure: explicit ``METHOD /path - description`` lines, Markdown
table rows, and, only when neither finds anything, bullet-point "features" (method ``FEATURE``).
"""

from __future__ import annotations

import re

from inspector.model.benchmark.task import Endpoint

_METHODS = "GET|POST|PUT|DELETE|PATCH"
_EXPLICIT = re.compile(rf"({_METHODS})\s+(/[^\s\-:]+)\s*[-:]?\s*(.+?)(?:\n|$)", re.I)
_TABLE = re.compile(
    rf"^\s*\|\s*`?({_METHODS})`?\s*\|\s*`?(/[^\s|`]*)`?\s*\|([^\n]*)$", re.I | re.M
)
_FENCE = re.compile(r"```.*?```", re.S)
# As the stock check reads feature bullets: no line anchor, no word boundary, and the name may
# run over whitespace and newlines, so "- File Management" yields the feature "File Manage".
_FEATURE = re.compile(
    r"[-*]\s+([A-Z][A-Za-z\s]+(?:Check|Login|Register|Create|Update|Delete|Search|List|View|"
    r"Get|Add|Remove|Edit|Manage|Upload|Download|Send|Receive))"
)
_PORT = re.compile(r"\bport\b[^0-9\n]{0,40}?(\d{2,5})\b", re.I)
_FRAMEWORKS = ("fastapi", "flask", "django", "eve", "javalin", "micronaut", "quarkus", "spark",
               "springboot", "spring boot")


def _clean_path(path: str) -> str:
    return path.rstrip("`*").rstrip(".,;)")


def _cut_path(m: re.Match[str]) -> str:
    """The whole README path when the stock pattern stopped at a ':param' segment."""
    rest = re.match(r":\w[^\s`*|]*", m.string[m.end(2):])
    return _clean_path(m.group(2) + rest.group(0)) if rest else ""


def extract_endpoints(readme: str) -> list[Endpoint]:
    """Endpoints a README requires, de-duplicated by ``METHOD:path`` in document order."""
    found: dict[str, Endpoint] = {}

    def add(method: str, path: str, desc: str, spec: str = "") -> None:
        ep = Endpoint(method.upper(), _clean_path(path), desc.strip().strip("|").strip(), spec)
        if ep.path and ep.key not in found:
            found[ep.key] = ep

    table_desc: dict[str, str] = {}
    for m in _TABLE.finditer(readme):
        cells = [c.strip() for c in m.group(3).split("|")]
        key = f"{m.group(1).upper()}:{_clean_path(m.group(2))}"
        if not table_desc.get(key):  # the first row with a description wins, like the dedupe
            table_desc[key] = next((c for c in cells if c), "")
    for m in _EXPLICIT.finditer(readme):
        add(m.group(1), m.group(2), m.group(3), _cut_path(m))
    for m in _TABLE.finditer(readme):
        add(m.group(1), m.group(2), table_desc.get(f"{m.group(1).upper()}:"
                                                   f"{_clean_path(m.group(2))}", ""))
    for block in _FENCE.findall(readme):
        for m in _EXPLICIT.finditer(block):
            add(m.group(1), m.group(2), m.group(3), _cut_path(m))
    # Prefer the table's description over a regex tail when both exist.
    for key, desc in table_desc.items():
        if key in found and desc:
            ep = found[key]
            found[key] = Endpoint(ep.method, ep.path, desc, ep.spec_path)
    if not found:
        for m in _FEATURE.finditer(readme):
            name = m.group(1).strip()
            add("FEATURE", name, name)
    return list(found.values())


def extract_port(readme: str) -> int | None:
    m = _PORT.search(readme)
    if not m:
        return None
    port = int(m.group(1))
    return port if 1 <= port <= 65535 else None


def extract_framework(readme: str) -> str:
    m = re.search(r"framework\W{0,5}\s*[:=]?\s*\**\s*([A-Za-z][\w .-]*)", readme, re.I)
    candidates = [m.group(1).lower()] if m else []
    candidates.append(readme.lower())
    for text in candidates:
        for fw in _FRAMEWORKS:
            # whole words only: "eve" must not match "every", "however" or "level"
            if re.search(rf"\b{fw}\b", text):
                return fw.replace(" ", "")
    return "any"
