"""Where a ``requirements.txt`` makes pip fetch from: the configured package index, or not.

A generated repo's requirements are untrusted. Installing them is allowed only from the package
index the harness is configured with (pip's own settings: ``PIP_INDEX_URL`` and friends); a line
that points pip anywhere else — a direct URL, a VCS link, a local path or archive, an editable
project, another index or find-links location, a trusted host, a nested requirements file — is
refused before anything is installed, unless the user opts out
(``--allow-any-package-source``). Parsing follows pip's requirements-file rules: ``\\``
continuations are joined, ``#`` comments (at the start or after whitespace) dropped, options
split from the requirement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPT_OUT = "pass --allow-any-package-source or set allow_any_package_source = true in the config"

# Options that never change where packages come from (exact spellings only: pip's parser also
# takes unambiguous prefixes, so anything else is refused rather than guessed at).
_ALLOWED_OPTIONS = frozenset({"--hash", "--pre", "--prefer-binary", "--only-binary",
                              "--no-binary", "--require-hashes", "--no-index"})
_OPTION_REASONS = {
    "-i": "points pip at another package index", "--index-url": "points pip at another "
    "package index", "--extra-index-url": "adds another package index",
    "-f": "adds a find-links location", "--find-links": "adds a find-links location",
    "--trusted-host": "trusts another host", "-e": "installs an editable (local or VCS) "
    "project", "--editable": "installs an editable (local or VCS) project",
    "-r": "reads another requirements file", "--requirement": "reads another requirements "
    "file", "-c": "reads a constraints file", "--constraint": "reads a constraints file",
}
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_VERSION = r"(?:===|~=|==|!=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+"
_VERSIONS = rf"{_VERSION}(?:\s*,\s*{_VERSION})*"
_SPEC = re.compile(rf"{_NAME}\s*(?:\[\s*(?:{_NAME}(?:\s*,\s*{_NAME})*)?\s*\])?\s*"
                   rf"(?:\(\s*{_VERSIONS}\s*\)|{_VERSIONS})?")
_VCS = re.compile(r"^(?:git|hg|svn|bzr)\+", re.IGNORECASE)
_ARCHIVES = (".whl", ".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz", ".tar.xz",
             ".txz", ".tar.lz", ".tlz")
_COMMENT = re.compile(r"(^|\s+)#.*$")


@dataclass(frozen=True)
class SourceProblem:
    """One requirements line that would install from outside the configured index."""

    line: int  # 1-based, the first physical line of the (joined) logical line
    text: str
    reason: str

    def message(self, file: str = "requirements.txt") -> str:
        """One line naming the file, the line and what is wrong, and how to opt out."""
        shown = self.text if len(self.text) <= 120 else self.text[:117] + "..."
        return (f"{file} line {self.line}: `{shown}` {self.reason}; only packages from the "
                f"configured package index are installed (to allow it anyway: {OPT_OUT})")


def logical_lines(text: str) -> list[tuple[int, str]]:
    """``(first line number, content)`` per logical line, comments and blank lines dropped."""
    out: list[tuple[int, str]] = []
    parts: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not parts:
            start = number
        if raw.endswith("\\") and not raw.lstrip().startswith("#"):
            parts.append(raw[:-1])
            continue
        parts.append(raw)
        line = _COMMENT.sub("", " ".join(p.strip() for p in parts)).strip()
        parts = []
        if line:
            out.append((start, line))
    if parts:
        line = _COMMENT.sub("", " ".join(p.strip() for p in parts)).strip()
        if line:
            out.append((start, line))
    return out


def _split(line: str) -> tuple[str, list[str]]:
    """The requirement part and the option tokens (pip: options start at the first ``-``)."""
    tokens = line.split()
    for i, tok in enumerate(tokens):
        if tok.startswith("-"):
            return " ".join(tokens[:i]), tokens[i:]
    return line, []


def _option_problem(tokens: list[str]) -> str | None:
    for tok in tokens:
        if not tok.startswith("-"):
            continue  # an option's value
        name = tok.split("=", 1)[0]
        if name in _ALLOWED_OPTIONS:
            continue
        if not name.startswith("--") and len(name) > 2:
            name = name[:2]  # -ihttps://... is -i with a glued value
        reason = _OPTION_REASONS.get(name, "is not an option the harness allows in "
                                     "requirements (it could change where pip installs from)")
        return f"(option {name}) {reason}"
    return None


def _spec_problem(spec: str) -> str | None:
    body = spec.split(";", 1)[0].strip()
    low = body.lower()
    if _VCS.match(low) or re.search(r"@\s*(?:git|hg|svn|bzr)\+", low):
        return "is a VCS link"
    if low.startswith("file:") or re.search(r"@\s*file:", low):
        return "is a local file URL"
    if "://" in low or "@" in body:
        return "is a direct URL reference"
    if body.startswith((".", "/", "~")) or "/" in body or "\\" in body:
        return "is a local path"
    if low.endswith(_ARCHIVES):
        return "is a local archive"
    if not _SPEC.fullmatch(body):
        return "is not a package name with an optional version (e.g. `flask==3.0.3`)"
    return None


def check_requirement_sources(text: str) -> list[SourceProblem]:
    """Every line of a requirements file that installs from outside the configured index."""
    problems: list[SourceProblem] = []
    for number, line in logical_lines(text):
        spec, options = _split(line)
        reason = _option_problem(options) if options else None
        if reason is None and spec:
            reason = _spec_problem(spec)
        if reason is not None:
            problems.append(SourceProblem(number, line, reason))
    return problems


def plain_requirement_problem(packages: tuple[str, ...] | list[str]) -> str | None:
    """What is wrong with a list of packages to install on their own (a remedy's ``pandas``,
    ``Babel>=2.12``): each must be one plain requirement from the configured index, no option,
    URL, path or marker; None when all are."""
    for pkg in packages:
        text = pkg.strip()
        reason = None
        if not text or any(c.isspace() or c in "#;\\" for c in text):
            reason = "is not a single package name with an optional version"
        elif text.startswith("-"):
            reason = "is an option, not a package"
        else:
            reason = _spec_problem(text)
        if reason is not None:
            shown = text if len(text) <= 80 else text[:77] + "..."
            return (f"package `{shown}` {reason}; only a plain package from the configured "
                    "package index can be installed (e.g. `pandas` or `Babel>=2.12`)")
    return None
