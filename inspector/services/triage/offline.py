"""Services that need the internet: a generated repo calling an online API from a sandbox
that has no route out fails through no fault of its code when the README prescribes that API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from inspector.services.repo.files import read_text
from inspector.services.triage.repo_sites import MAX_BYTES, py_files

NETWORK_LIBRARIES: dict[str, tuple[str, ...]] = {
    "googletrans": ("googletrans", "google translate"),
    "deep_translator": ("deep_translator", "deep-translator"),
    "translate": ("translate",),
    "openai": ("openai",),
    "anthropic": ("anthropic",),
    "boto3": ("boto3", "aws"),
    "twilio": ("twilio",),
    "stripe": ("stripe",),
    "geopy": ("geopy",),
    "yfinance": ("yfinance",),
    "wikipedia": ("wikipedia",),
    "smtplib": ("smtp",),
}
"""Import name -> words a README uses for it. Libraries whose whole job is an online call."""

_IMPORT = re.compile(r"^\s*(?:from\s+(?P<a>[\w.]+)\s+import|import\s+(?P<b>[\w.]+))", re.M)


@dataclass(frozen=True, slots=True)
class OnlineCall:
    """A network library a repo imports: where, and the README line naming it (if any)."""

    library: str
    file: str
    line: int
    readme_line: int | None
    readme_text: str = ""


def online_calls(repo: Path | None, readme: str) -> list[OnlineCall]:
    """Network libraries the repo's Python files import, with the README's mention of each."""
    if repo is None or not repo.is_dir():
        return []
    found: dict[str, OnlineCall] = {}
    for path in py_files(repo):
        rel = path.relative_to(repo).as_posix()
        text = read_text(path, MAX_BYTES)
        for m in _IMPORT.finditer(text):
            top = (m["a"] or m["b"]).split(".")[0]
            if top in NETWORK_LIBRARIES and top not in found:
                line = text.count("\n", 0, m.start()) + 1
                found[top] = OnlineCall(top, rel, line, *_mention(readme, top))
    return list(found.values())


def _mention(readme: str, library: str) -> tuple[int | None, str]:
    words = NETWORK_LIBRARIES[library]
    for i, line in enumerate(readme.splitlines(), 1):
        low = line.lower()
        if any(re.search(rf"\b{re.escape(w)}\b", low) for w in words):
            return i, line.strip()[:200]
    return None, ""
