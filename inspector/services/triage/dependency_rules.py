"""Dependency readings of :mod:`.exception_rules`: what the install log, the traceback and the
repo's imports say about the environment the repo asked for.

* pip's verdict read closer: an import name given as a distribution (``yaml`` for PyYAML), a
  name no index has (a hallucinated package), a pin no release matches, the requirements
  pip names as conflicting;
* code written for another major version of a library than the one installed (pydantic 1/2,
  SQLAlchemy 1/2, Flask 2.3, bcrypt with passlib, marshmallow 3/4), from the exception's
  text (:data:`~inspector.model.failures.dependency_signs.VERSION_SIGNS`);
* a framework feature whose optional distribution is missing (``python-multipart`` for form
  endpoints, ``email-validator`` for email fields), from the framework's own error;
* the installed versions, read from the sample's own install log (pip's "Successfully
  installed", uv's ``+ name==version``, "Requirement already satisfied"), never from the
  machine the inspector runs on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from inspector.model.failures.dependency_signs import (
    EXTRA_SIGNS,
    MOVED_NAMES,
    VERSION_SIGNS,
    ExtraSign,
    VersionSign,
)
from inspector.model.failures.text import SITE_PACKAGE
from inspector.model.labels.label_file import Anchor, Suggestion
from inspector.model.repo.import_names import IMPORT_ALIASES
from inspector.services.repo.pymodules import norm_dist

# exception_rules' SampleContext, _Evidence, _Text and _Exc, read by duck typing: that module
# calls this one, and the import layers allow no cycle, not even for type checking
SampleContext = Any
_Evidence = Any
_Text = Any
_Exc = Any

DEPENDENCY = "dependency"
MAX_QUOTE = 200
MAX_CAUSES = 3
"""Lines of pip's "The conflict is caused by:" quoted in a reason."""

_INSTALLED = (
    re.compile(r"Successfully installed (?P<pkgs>.+)"),
    re.compile(r"^\s*\+ (?P<name>[A-Za-z0-9][\w.-]*)==(?P<ver>[\w.+!-]+)\s*$"),
    re.compile(r"Requirement already satisfied: (?P<name>[A-Za-z0-9][\w.-]*)(?:\[[^\]]*\])?"
               r"(?:[<>=!~][^ ]*)? in \S+ \((?P<ver>[\w.+!-]+)\)"),
)
_FROM_VERSIONS = re.compile(r"satisfies the requirement (?P<req>\S+) \(from versions: "
                            r"(?P<versions>[^)]*)\)")
_CAUSED_BY = re.compile(r"The conflict is caused by:")
_USER_REQUESTED = re.compile(r"The user requested (?P<name>[A-Za-z0-9][\w.-]*)")
_DEPENDS_ON = re.compile(r"^(?P<name>[A-Za-z0-9][\w.-]*) [\w.+!-]+ depends on "
                         r"(?P<dep>[A-Za-z0-9][\w.-]*)")
_REQ_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 1] + "…"


def _dedup(anchors: list[Anchor]) -> tuple[Anchor, ...]:
    return tuple(dict.fromkeys(anchors))


# --------------------------------------------------------------------------- install log

def repo_install_lines(lines: list[str]) -> list[int]:
    """Indices of the lines that belong to installing the repo's requirements (before any
    pip command, or after one that installs a requirements file other than the tests')."""
    out: list[int] = []
    section_repo = True
    for k, line in enumerate(lines):
        s = line.strip()
        if s.startswith("$ ") and " pip install" in s:
            section_repo = "-r" in s.split() and "tests/requirements" not in s
        elif section_repo:
            out.append(k)
    return out


def installed_versions(lines: list[str]) -> dict[str, tuple[str, int]]:
    """Normalised distribution -> (version, line index) the install log shows installed in
    the repo's environment; a later line wins."""
    out: dict[str, tuple[str, int]] = {}
    for k in repo_install_lines(lines):
        line = lines[k]
        m = _INSTALLED[0].search(line)
        if m:
            for tok in m.group("pkgs").split():
                name, _, ver = tok.rpartition("-")
                if name and ver:
                    out[norm_dist(name)] = (ver, k)
            continue
        for pat in _INSTALLED[1:]:
            m = pat.search(line)
            if m:
                out[norm_dist(m.group("name"))] = (m.group("ver"), k)
                break
    return out


def import_name_dist(name: str) -> str | None:
    """The distribution that provides import ``name`` when ``name`` is an import name only
    (``yaml`` -> ``pyyaml``), else None."""
    want = norm_dist(name)
    for module, dists in IMPORT_ALIASES.items():
        if norm_dist(module) == want and want not in {norm_dist(d) for d in dists}:
            return dists[0]
    return None


@dataclass
class InstallDetail:
    """What pip's output says beyond its verdict line: a rule id, the reason's clause, more
    log lines to anchor and distributions whose requirement lines to anchor."""

    rule: str
    why: str
    lines: list[int] = field(default_factory=list)
    dists: list[str] = field(default_factory=list)


def install_detail(lines: list[str], section: list[int], rule: str, name: str, req: str,
                   asked: str) -> InstallDetail | None:
    """A closer reading of pip's failure ``rule`` on requirement ``req`` (name ``name``),
    from the repo's section of the install log; None when it adds nothing."""
    if rule in ("pip-no-distribution", "pip-build-failed") and name:
        dist = import_name_dist(name)
        if dist is not None:
            return InstallDetail(
                "pip-import-name-as-distribution",
                f"'{name}' is the name code imports, not a distribution{asked}: the "
                f"distribution that provides it is {dist}")
    if rule == "pip-no-distribution" and name:
        hit = next((k for k in section if _versions_of(lines[k], name) is not None), None)
        if hit is None:
            return None
        versions = _versions_of(lines[hit], name) or []
        if not versions:
            return InstallDetail(
                "pip-no-distribution",
                f"no distribution named '{name}' exists on the package index{asked} "
                "(a hallucinated or misspelled package name)", [hit])
        return InstallDetail(
            "pip-no-matching-version",
            f"the index has {name}, but no release matching '{req}'{asked} (its newest "
            f"installable: {versions[-1]})", [hit])
    if rule == "pip-conflict":
        start = next((k for k in section if _CAUSED_BY.search(lines[k])), None)
        if start is None:
            return None
        causes: list[int] = []
        dists: list[str] = []
        for k in section:
            if k <= start:
                continue
            s = lines[k].strip()
            if not s:
                if causes:
                    break
                continue
            m = _USER_REQUESTED.search(s)
            d = _DEPENDS_ON.match(s)
            if not m and not d:
                break
            causes.append(k)
            if m:
                dists.append(m.group("name"))
            if d:
                dists.extend((d.group("name"), d.group("dep")))
        if not causes:
            return None
        said = "; ".join(_quote(lines[k].strip()) for k in causes[:MAX_CAUSES])
        return InstallDetail("pip-conflict",
                             f"the repo's requirements cannot be installed together ({said})",
                             causes[:MAX_CAUSES], list(dict.fromkeys(dists)))
    return None


def _versions_of(line: str, name: str) -> list[str] | None:
    """The versions pip listed for ``name`` on a "(from versions: ...)" line, or None."""
    m = _FROM_VERSIONS.search(line)
    got = _REQ_NAME.match(m.group("req")) if m else None
    if m is None or got is None or norm_dist(got.group(0)) != norm_dist(name):
        return None
    return [v for v in (x.strip() for x in m.group("versions").split(",")) if v and v != "none"]


def moved_note(module: str, name: str) -> str | None:
    """The version story of ``cannot import name`` ``name`` from library ``module``."""
    return MOVED_NAMES.get((module, name))


# --------------------------------------------------------------------------- the rule

def _lib_pkgs(exc: _Exc) -> set[str]:
    return {m.group("pkg") for f in exc.frames
            if (m := SITE_PACKAGE.search(f.path.replace("\\", "/")))}


def _use_site(ctx: SampleContext, pattern: re.Pattern[str]) -> tuple[str, int] | None:
    """The first repo source line matching ``pattern``: a use rather than its import when
    there is one (the import line otherwise)."""
    repo = ctx.repo
    if not repo.available:
        return None
    first: tuple[str, int] | None = None
    for rel in repo.py_files():
        src = repo.text(rel) or ""
        for m in pattern.finditer(src):
            no = src.count("\n", 0, m.start()) + 1
            line = src[src.rfind("\n", 0, m.start()) + 1:m.start()].lstrip()
            if not line.startswith(("from ", "import ")):
                return rel, no
            first = first or (rel, no)
    return first


def _requirement_clause(ctx: SampleContext, dist: str, anchors: list[Anchor]) -> str:
    repo = ctx.repo
    req = repo.requirement_for(dist)
    if req is not None:
        anchors.append(Anchor.file("requirements.txt", req.line))
        return f"requirements.txt has {req.raw}"
    if repo.requirements() is None:
        return "the repo has no requirements.txt" if repo.available else ""
    anchors.append(Anchor.file("requirements.txt"))
    return f"requirements.txt does not pin {dist}"


def _version_hit(ctx: SampleContext, exc: _Exc) -> tuple[VersionSign, re.Match[str]] | None:
    text = exc.text
    for sign in VERSION_SIGNS:
        m = sign.pattern.search(text)
        if m is None or (sign.frames and sign.frames not in _lib_pkgs(exc)):
            continue
        if ctx.repo.available and _use_site(ctx, sign.uses) is None:
            continue
        return sign, m
    return None


def _version_reading(ctx: SampleContext, text: _Text, exc: _Exc, sign: VersionSign,
                     m: re.Match[str]) -> Suggestion:
    anchors = [*ctx.anchors(text, exc.index), *ctx.frame_anchors(exc)]
    if ctx.innermost_repo_frame(exc) is None:
        site = _use_site(ctx, sign.uses)
        if site is not None:
            anchors.append(Anchor.file(*site))
    change = sign.change.format(**{k: v or "" for k, v in m.groupdict().items()})
    inst = ctx.installed_version(sign.dist)
    installed = ""
    if inst is not None:
        installed = f"; the install log shows {sign.dist} {inst[0]}"
        if inst[1] is not None:
            anchors.append(inst[1])
    pin = _requirement_clause(ctx, sign.dist, anchors)
    reason = f"{_quote(exc.text)} — version mismatch: {change}{installed}" + (
        f"; {pin}" if pin else "")
    return Suggestion(DEPENDENCY, reason, "major-version-mismatch", _dedup(anchors))


def _extra_reading(ctx: SampleContext, text: _Text, exc: _Exc, sign: ExtraSign,
                   m: re.Match[str]) -> Suggestion:
    dist = sign.dist.format(**{k: v or "" for k, v in m.groupdict().items()})
    anchors = [*ctx.anchors(text, exc.index), *ctx.frame_anchors(exc)]
    site = _use_site(ctx, sign.uses)
    used = ""
    if site is not None:
        anchors.append(Anchor.file(*site))
        used = f" ({site[0]}:{site[1]} uses it)"
    repo = ctx.repo
    listed = repo.requirement_for(dist)
    if listed is not None:
        anchors.append(Anchor.file("requirements.txt", listed.line))
        tail = f"requirements.txt lists {listed.raw} (line {listed.line}), yet it is not " \
               "installed"
    elif repo.requirements() is None:
        tail = "the repo has no requirements.txt" if repo.available else "it is not installed"
    else:
        fw = next((r for name in sign.framework if (r := repo.requirement_for(name))), None)
        anchors.append(Anchor.file("requirements.txt", fw.line if fw else None))
        tail = "requirements.txt does not list it" + (
            f" (it lists {fw.raw}, which does not install it)" if fw else "")
    reason = f"{_quote(exc.text)} — {sign.feature}{used} need {dist}: {tail}"
    return Suggestion(DEPENDENCY, reason, "framework-extra-missing", _dedup(anchors))


def rule_dependency_signs(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """A framework's missing optional distribution, or code for another major version of a
    library, said by an exception (the first text that shows one decides)."""
    for text in ev.texts:
        excs = text.excs()
        for exc in excs:
            for extra in EXTRA_SIGNS:
                m = extra.pattern.search(exc.text)
                if m is not None:
                    return _extra_reading(ctx, text, exc, extra, m)
        hits = [(VERSION_SIGNS.index(h[0]), exc, h) for exc in excs
                if (h := _version_hit(ctx, exc)) is not None]
        if hits:
            _, first, (sign, found) = min(hits, key=lambda t: t[0])
            return _version_reading(ctx, text, first, sign, found)
    return None


__all__ = ["InstallDetail", "import_name_dist", "install_detail", "installed_versions",
           "moved_note", "repo_install_lines", "rule_dependency_signs"]
