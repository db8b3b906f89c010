"""A generated Maven repo as the Java triage rules read it: what its ``pom.xml`` declares (with
lines), which packages are its own, where each of its classes and members is declared, its
configuration files. Regex reading of text files, bounded; never compiles or runs anything."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 1_000
MAX_BYTES = 512 * 1024
MAX_TOTAL = 16 * 1024 * 1024

_BLOCK = re.compile(r"<(?P<tag>dependency|plugin|parent)>(?P<body>.*?)</(?P=tag)>", re.S)
_TAG = {k: re.compile(rf"<{k}>\s*([^<]+?)\s*</{k}>") for k in ("groupId", "artifactId",
                                                                 "version")}
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_TYPE_DECL = re.compile(r"^[^\S\n]*(?:(?:public|protected|private|abstract|final|static|sealed|"
                        r"non-sealed|strictfp)\s+)*(?P<kind>class|interface|enum|record|"
                        r"@interface)\s+(?P<name>[A-Z_$][\w$]*)", re.M)
_EXTENDS = re.compile(r"\b(?:extends|implements)\s+([\w.$<>,\s]+?)\s*\{", re.S)
_NOT_DECL = ("return ", "new ", "throw ", "else", "if ", "if(", "while", "for ", "for(",
             "switch", "case ", "catch", "//", "*", "@")


@dataclass(frozen=True, slots=True)
class PomEntry:
    """A ``<dependency>``, ``<plugin>`` or ``<parent>`` of the pom, at its artifactId line."""

    tag: str
    group: str
    artifact: str
    version: str
    line: int

    @property
    def key(self) -> str:
        return f"{self.group}:{self.artifact}"

    def describe(self) -> str:
        return f"{self.group}:{self.artifact}" + (f":{self.version}" if self.version else "")


@dataclass(frozen=True, slots=True)
class TypeDecl:
    name: str
    package: str
    file: str  # repo-relative
    line: int
    kind: str

    @property
    def fqn(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name


@dataclass
class JavaRepo:
    """The parts of a Maven repo the Java rules read (see the module docstring)."""

    root: Path | None
    pom_text: str | None = None
    entries: list[PomEntry] = field(default_factory=list)
    group: str = ""
    sources: dict[str, str] = field(default_factory=dict)  # rel -> text (src/**/*.java)
    types: list[TypeDecl] = field(default_factory=list)

    @classmethod
    def read(cls, root: Path | None) -> JavaRepo:
        repo = cls(root)
        if root is None or not root.is_dir():
            return repo
        repo.pom_text = _text(root / "pom.xml")
        if repo.pom_text is not None:
            repo.entries = pom_entries(repo.pom_text)
            top = _BLOCK.sub("", re.sub(r"<(dependencies|build|dependencyManagement|"
                                        r"profiles)>.*?</\1>", "", repo.pom_text, flags=re.S))
            m = _TAG["groupId"].search(top)
            parent = next((e for e in repo.entries if e.tag == "parent"), None)
            repo.group = m.group(1) if m else (parent.group if parent else "")
        total = 0
        src = root / "src"
        try:
            files = sorted(src.rglob("*.java"))[:MAX_FILES] if src.is_dir() else []
        except OSError:
            files = []
        for path in files:
            text = _text(path)
            if text is None or total + len(text) > MAX_TOTAL:
                continue
            total += len(text)
            rel = path.relative_to(root).as_posix()
            repo.sources[rel] = text
            pkg = _PACKAGE.search(text)
            for m in _TYPE_DECL.finditer(text):
                repo.types.append(TypeDecl(m["name"], pkg.group(1) if pkg else "", rel,
                                           text.count("\n", 0, m.start()) + 1, m["kind"]))
        return repo

    # ---- the pom
    def declared(self, group: str, artifact: str) -> PomEntry | None:
        return next((e for e in self.entries if e.group == group and e.artifact == artifact),
                    None)

    def provider(self, package: str) -> PomEntry | None:
        """The declared dependency that most likely provides ``package``: its groupId shares
        leading segments (at least two) with it, or its artifactId names one of the package's
        segments (``io.javalin`` for ``io.javalin.http``, ``spark-core`` for ``spark``)."""
        want = package.split(".")
        best, score = None, 1.0
        for e in self.entries:
            if e.tag != "dependency":
                continue
            got = e.group.split(".")
            n = next((k for k, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
                     min(len(want), len(got)))
            named = [w for w in e.artifact.split("-") if len(w) > 3 and w in want]
            if n < 2 and not named:
                continue  # spark-core provides package spark: its artifactId says so
            if n + 0.5 * len(named) > score:
                best, score = e, n + 0.5 * len(named)
        return best

    def pom_anchor_line(self) -> int | None:
        """The ``<dependencies>`` line of the pom (where a missing dependency belongs)."""
        if self.pom_text is None:
            return None
        idx = self.pom_text.find("<dependencies>")
        return self.pom_text.count("\n", 0, idx) + 1 if idx >= 0 else None

    # ---- packages and types
    @property
    def packages(self) -> set[str]:
        return {t.package for t in self.types if t.package}

    def own_package(self, package: str) -> bool:
        """Whether ``package`` is the repo's own (declared by it, above or below a package it
        declares, or under its groupId), not a library's."""
        for own in self.packages | ({self.group} if self.group.count(".") >= 1 else set()):
            if package == own or package.startswith(own + ".") or own.startswith(package + "."):
                return True
        return False

    def own_class(self, fqn_or_name: str) -> bool:
        if "." in fqn_or_name:
            return self.own_package(fqn_or_name.rpartition(".")[0])
        return bool(self.find_type(fqn_or_name))

    def find_type(self, name: str, main_only: bool = True) -> list[TypeDecl]:
        """Declarations of a type by simple or qualified name."""
        simple = name.rpartition(".")[2].split("$")[0]
        pkg = name.rpartition(".")[0] if "." in name else None
        return [t for t in self.types if t.name == simple and (pkg is None or t.package == pkg)
                and (not main_only or t.file.startswith("src/main/"))]

    def members(self, decl: TypeDecl, name: str) -> list[tuple[int, str]]:
        """Lines declaring a method or constructor ``name`` in ``decl``'s file."""
        text = self.sources.get(decl.file, "")
        pat = re.compile(rf"^\s*(?:[\w<>\[\],.?@ ]+\s+)?{re.escape(name)}\s*\(")
        out = []
        for no, line in enumerate(text.splitlines(), 1):
            s = line.strip()
            if s.startswith(_NOT_DECL) or "=" in s.split("(")[0] or not pat.match(line):
                continue
            if s.endswith((";",)) and "abstract" not in s and decl.kind != "interface":
                continue  # a call statement, not a declaration
            out.append((no, s))
        return out

    def supertypes(self, decl: TypeDecl) -> list[str]:
        text = self.sources.get(decl.file, "")
        lines = text.splitlines()
        head = "\n".join(lines[decl.line - 1:decl.line + 4])
        m = _EXTENDS.search(head)
        if m is None:
            return []
        return [re.sub(r"<.*", "", s).strip() for s in re.split(r",|\bimplements\b",
                                                                 m.group(1)) if s.strip()]

    def line_of(self, rel: str, pattern: re.Pattern[str]) -> tuple[int, str] | None:
        text = self.sources.get(rel) or (_text(self.root / rel) if self.root else None) or ""
        for no, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                return no, line.strip()
        return None

    def file_of_class(self, fqn: str) -> str | None:
        """The repo file of a class named in a stack trace (nested classes: the outer)."""
        outer = fqn.split("$")[0]
        found = self.find_type(outer) or self.find_type(outer, main_only=False)
        return found[0].file if found else None

    def resource_files(self) -> dict[str, str]:
        """``src/main/resources/application*.{properties,yml,yaml}`` and the like."""
        out: dict[str, str] = {}
        if self.root is None:
            return out
        res = self.root / "src" / "main" / "resources"
        try:
            paths = sorted(res.glob("application*.*")) if res.is_dir() else []
        except OSError:
            paths = []
        for p in paths[:20]:
            if p.suffix in (".properties", ".yml", ".yaml"):
                text = _text(p)
                if text is not None:
                    out[p.relative_to(self.root).as_posix()] = text
        return out


def pom_entries(text: str) -> list[PomEntry]:
    """Every ``<dependency>``, ``<plugin>`` and ``<parent>`` with its artifactId line."""
    out: list[PomEntry] = []
    for m in _BLOCK.finditer(text):
        body = m.group("body")
        vals = {k: (f.group(1) if (f := p.search(body)) else "") for k, p in _TAG.items()}
        if not vals["artifactId"]:
            continue
        group = vals["groupId"] or ("org.apache.maven.plugins" if m["tag"] == "plugin" else "")
        art = body.find("<artifactId>")
        line = text.count("\n", 0, m.start("body") + max(art, 0)) + 1
        out.append(PomEntry(m["tag"], group, vals["artifactId"], vals["version"], line))
    return out


def _text(path: Path) -> str | None:
    try:
        if path.is_file() and path.stat().st_size <= MAX_BYTES:
            return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return None
