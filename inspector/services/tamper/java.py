"""The Maven side of the tamper scan: a Java repo's build settings that hide failing golden tests.

Read (statically, nothing is run): every ``pom.xml`` (the root's and its modules' and parents'
inside the repo are the build's; another is reported as having no effect), ``.mvn/maven.config``
and ``.mvn/jvm.config`` (:mod:`.maven`), ``.mvn/extensions.xml`` (a core extension runs inside
Maven), and on the test classpath ``junit-platform.properties`` and ``META-INF/services``
registrations of JUnit listeners, filters, engines and extensions (:mod:`.junit_config`).

Unlike a Python repo's test configuration, these are **in effect**: the golden run is the
repo's own ``mvn test``. What lies in the repo's ``src/test`` has no effect when the harness
replaces that folder with the golden tests (the stock ``Dockerfile.java``: a task with a
``src/test``, or an unknown task); such findings say ``no effect`` and are never deliberate.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.repo.pom_xml import XmlError, XmlNode, parse_xml
from inspector.model.repo.tampering import TamperFinding
from inspector.model.suite.java_tests import java_tests
from inspector.services.tamper.junit_config import (
    AUTODETECT,
    HIDING_SERVICES,
    SERVICES,
    extension_changes_outcomes,
    judge_parameter,
    properties,
    service_classes,
)
from inspector.services.tamper.maven import Context, Setting, judge_command_line, judge_pom

HIDES = "hides failing golden tests: `mvn test` runs with the repo's build settings"
INFLUENCES = "could influence the golden run: `mvn test` runs with the repo's build settings"
REPLACED = "the harness replaces src/test with the golden tests"
MAVEN_CONFIGS = (".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml")
_RESOURCES = re.compile(r"^(?:(.*)/)?src/(main|test)/resources/(.+)$")
_TAG = re.compile(r"@Tag\s*\(\s*(?:value\s*=\s*)?\"([^\"]+)\"")
MAX_MODULES = 200


@dataclass
class JavaFiles:
    """The files of a repo the Maven scan reads (repo-relative, '/' separated)."""

    poms: list[str] = field(default_factory=list)
    configs: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)
    junit_properties: list[str] = field(default_factory=list)
    symlinks: list[tuple[str, str]] = field(default_factory=list)

    def add(self, rel: str) -> bool:
        """Take ``rel`` when the Maven scan reads it; True if taken."""
        name = rel.rsplit("/", 1)[-1]
        if name == "pom.xml":
            self.poms.append(rel)
        elif rel in MAVEN_CONFIGS:
            self.configs.append(rel)
        elif "/META-INF/services/" in rel and name in SERVICES:
            self.services.append(rel)
        elif name == "junit-platform.properties":
            self.junit_properties.append(rel)
        else:
            return False
        return True

    def wanted(self, rel: str) -> bool:
        """Whether the Maven scan reads a file at ``rel``."""
        name = rel.rsplit("/", 1)[-1]
        return (name in ("pom.xml", "junit-platform.properties") or rel in MAVEN_CONFIGS
                or ("/META-INF/services/" in rel and name in SERVICES))


def golden_context(golden: Path | None) -> Context:
    """The golden test classes (top-level, Surefire's names) and their JUnit tags."""
    ctx = Context()
    if golden is None or not golden.is_dir():
        return ctx
    found = java_tests(golden)
    if found:
        ctx.golden = sorted({t.class_name.split("$")[0] for t in found})
        for file in sorted({t.file for t in found}):
            try:
                ctx.golden_tags |= set(_TAG.findall((golden / file).read_text(
                    encoding="utf-8", errors="replace")))
            except OSError:
                continue
    return ctx


class JavaScan:
    """The Maven findings of one repo; ``text`` reads a repo file within the scan's budget."""

    def __init__(self, files: JavaFiles, golden: Path | None,
                 text: Callable[[str], str | None]) -> None:
        self.files = files
        self.golden = golden
        self.text = text
        self.replaced = golden is None or golden.as_posix().endswith("src/test/java")
        self.ctx = golden_context(golden)
        self.findings: list[TamperFinding] = []
        self.autodetect = False

    def _test_no_effect(self, rel: str) -> str:
        return REPLACED if self.replaced and rel.startswith("src/test/") else ""

    def add(self, rel: str, s: Setting, no_effect: str = "") -> None:
        why = s.no_effect or no_effect
        if why:
            self.findings.append(TamperFinding(s.kind, rel, f"{rel}:{s.line}: {s.what}; "
                                               f"no effect: {why}", False))
        else:
            self.findings.append(TamperFinding(s.kind, rel, f"{rel}:{s.line}: {s.what}; "
                                               f"{HIDES if s.deliberate else INFLUENCES}",
                                               s.deliberate))

    def run(self) -> list[TamperFinding]:
        for rel, target in self.files.symlinks:
            self.findings.append(TamperFinding(
                "maven_unreadable", rel, f"{rel}: a symlink to {target} (not followed); "
                "what Maven reads through it was not checked", False))
        for rel in sorted(self.files.configs):
            self.config(rel)
        parsed: dict[str, XmlNode] = {}
        for rel in sorted(self.files.poms):
            root = self.parse(rel, self._test_no_effect(rel))
            if root is not None:
                parsed[rel] = root
        in_build = self.build_poms(parsed)
        for rel, root in parsed.items():
            no_effect = self._test_no_effect(rel) or (
                "" if rel in in_build else "not part of the root pom's build")
            for s in judge_pom(root, self.ctx):
                self.add(rel, s, no_effect)
                if s.kind == "junit_config" and AUTODETECT in s.what and not no_effect:
                    self.autodetect = True
        for rel in sorted(self.files.junit_properties):
            self.junit_properties(rel)
        for rel in sorted(self.files.services):
            self.service(rel)
        return self.findings

    # ------------------------------------------------------------------ files

    def parse(self, rel: str, no_effect: str) -> XmlNode | None:
        text = self.text(rel)
        why = f"; no effect: {no_effect}" if no_effect else ""
        if text is None:
            self.findings.append(TamperFinding("maven_unreadable", rel, f"{rel}: could not be "
                                               f"read (too large or unreadable); its Maven "
                                               f"settings were not checked{why}", False))
            return None
        try:
            return parse_xml(text)
        except XmlError as exc:
            self.findings.append(TamperFinding("maven_unreadable", rel, f"{rel}: not "
                                               f"well-formed XML ({exc}); its Maven settings "
                                               f"were not checked{why}", False))
            return None

    def build_poms(self, parsed: dict[str, XmlNode]) -> set[str]:
        """The poms of the root's build: the root, its modules (any depth) and the parents
        they name inside the repo."""
        todo = ["pom.xml"] if "pom.xml" in parsed else []
        seen: set[str] = set()
        while todo and len(seen) < MAX_MODULES:
            rel = todo.pop()
            if rel in seen or rel not in parsed:
                continue
            seen.add(rel)
            here = posixpath.dirname(rel)
            root = parsed[rel]
            refs = [m.text for m in root.path("modules", "module")]
            refs += [m.text for m in root.path("profiles", "profile", "modules", "module")]
            refs += [p.child_text("relativePath") or "../pom.xml" for p in root.path("parent")]
            for ref in refs:
                target = posixpath.normpath(posixpath.join(here, ref.strip()))
                if not target.endswith(".xml"):
                    target = posixpath.join(target, "pom.xml")
                if not target.startswith("../"):
                    todo.append(target.removeprefix("./"))
        return seen

    def config(self, rel: str) -> None:
        text = self.text(rel)
        if text is None:
            return
        if rel.endswith("extensions.xml"):
            root = self.parse(rel, "")
            if root is None:
                return
            for ext in root.path("extension"):
                name = f"{ext.child_text('groupId')}:{ext.child_text('artifactId')}"
                self.add(rel, Setting(ext.line, "maven_extension", f"core extension {name} "
                                      "runs inside Maven for the whole build", False))
            return
        line = judge_command_line(text, rel.endswith("jvm.config"), self.ctx)
        self.ctx.user_props.update(line.props)
        self.ctx.profiles_on |= line.profiles
        for s in line.settings:
            self.add(rel, s)
            if s.kind == "junit_config" and AUTODETECT in s.what:
                self.autodetect = True

    def _resources(self, rel: str) -> tuple[str, str] | None:
        """(module folder, "main"/"test") of a file in a resources folder; None elsewhere."""
        m = _RESOURCES.match(rel)
        return None if m is None else (m.group(1) or "", m.group(2))

    def _resource_no_effect(self, rel: str, own: str) -> str | None:
        """Why a test-classpath file has no effect ("" when it has; None: not on it)."""
        where = self._resources(rel)
        if where is None:
            return None
        module, scope = where
        if scope == "test":
            return self._test_no_effect(rel)
        if not module and self.golden is not None and own and \
                (self.golden.parent / "resources" / own).is_file():
            return f"the golden tests bring their own {own}, found first"
        return ""

    def junit_properties(self, rel: str) -> None:
        no_effect = self._resource_no_effect(rel, "junit-platform.properties")
        text = self.text(rel)
        if no_effect is None or text is None:
            return
        for line, key, value in properties(text):
            what = judge_parameter(key, value)
            if what is not None:
                self.add(rel, Setting(line, "junit_config", what, False), no_effect)
                if key == AUTODETECT and not no_effect:
                    self.autodetect = True

    def service(self, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]
        no_effect = self._resource_no_effect(rel, "")
        text = self.text(rel)
        if no_effect is None or text is None:
            return
        module = (self._resources(rel) or ("", ""))[0]
        for line, cls in service_classes(text):
            deliberate = name in HIDING_SERVICES
            what = f"registers {cls} as {SERVICES[name]}"
            if name.endswith(".Extension"):
                source = self.text(posixpath.join(module, "src/main/java",
                                                  cls.replace(".", "/") + ".java"))
                hooks = source is not None and extension_changes_outcomes(source)
                if hooks:
                    what += "; it handles test failures or intercepts test methods"
                if self.autodetect:
                    what += f" ({AUTODETECT}=true is set)"
                deliberate = hooks and self.autodetect
            self.add(rel, Setting(line, "junit_service", what, deliberate), no_effect or "")


def java_findings(files: JavaFiles, golden: Path | None,
                  text: Callable[[str], str | None]) -> list[TamperFinding]:
    """The Maven findings of a repo whose files the tamper walk collected."""
    if not (files.poms or files.configs or files.services or files.junit_properties
            or files.symlinks):
        return []
    return JavaScan(files, golden, text).run()
