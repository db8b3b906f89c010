"""Which Maven goals build and test a Java repo, with the stock ``Dockerfile.java`` semantics.

The stock harness runs ``mvn clean compile -DskipTests`` when it builds the image and
``mvn test`` in its entrypoint. Those lifecycle phases bind plugins the repo's ``pom.xml``
often never names (``maven-clean-plugin``, ``maven-resources-plugin`` at Maven's default
versions). When the repository the user chose lacks one of *those*, the repo is not at fault:
the plan switches to the goals that do the same work directly (``compiler:compile``,
``compiler:testCompile``, ``surefire:test``), the harness removing ``target/`` and copying
``src/main/resources`` / ``src/test/resources`` itself (no filtering), and says so in the log.
A plugin the pom does name that does not resolve stays the repo's dependency failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# plugins Maven binds to the clean/default lifecycle up to ``test`` without the pom naming them
LIFECYCLE_PLUGINS = ("maven-clean-plugin", "maven-resources-plugin", "maven-compiler-plugin",
                     "maven-surefire-plugin")
_PLUGIN_UNRESOLVED = re.compile(r"Plugin ([\w.\-]+):([\w.\-]+):([\w.\-]+) or one of its "
                                r"dependencies could not be resolved")
# what the harness logs when it switches to plugin goals: what was unresolved before it was
# worked around, and is not why the build failed
LIFECYCLE_SWITCH = "which Maven's lifecycle binds without the pom naming it"
RESOLVE_ONLY = "giResolveOnly"  # a method no test has: surefire resolves its provider, runs none
BATCH = ("-B", "-Dstyle.color=never")


def declared_plugins(pom_text: str) -> set[str]:
    """The artifactIds of the plugins the pom names (``<plugin>`` blocks, any section)."""
    found = set()
    for block in re.findall(r"<plugin>(.*?)</plugin>", pom_text, re.S):
        m = re.search(r"<artifactId>\s*([\w.\-]+)\s*</artifactId>", block)
        if m:
            found.add(m.group(1))
    return found


def missing_lifecycle_plugin(console_text: str, pom_text: str) -> str | None:
    """``group:artifact:version`` of a lifecycle plugin the repository lacks and the pom never
    asked for (the machine's gap, not the repo's), or None."""
    declared = declared_plugins(pom_text)
    for m in _PLUGIN_UNRESOLVED.finditer(console_text):
        artifact = m.group(2)
        if artifact in LIFECYCLE_PLUGINS and artifact not in declared:
            return f"{m.group(1)}:{artifact}:{m.group(3)}"
    return None


def surefire_filter(test_id: str) -> str:
    """``com.example.FooTest::bar(int)[2]`` -> ``com.example.FooTest#bar``."""
    cls, _, name = test_id.partition("::")
    bare = re.split(r"[({\[]", name, maxsplit=1)[0]
    return f"{cls}#{bare}" if bare else cls


@dataclass
class GoalPlan:
    """The goals of each step; ``direct`` once the lifecycle's own plugins proved missing."""

    direct: bool = False
    reason: str = ""  # why direct, for the log

    def install(self) -> list[str]:
        """The build of the deployment (stock: ``clean compile -DskipTests``)."""
        return ["compiler:compile"] if self.direct else ["clean", "compile", "-DskipTests"]

    def prepare_tests(self, test_class: str | None) -> list[str]:
        """One run that builds the test runner's copy and resolves everything its offline
        test run needs: main and test classes, and Surefire's test provider (a run of one
        golden class with a method filter matching nothing)."""
        goals = ["compiler:compile", "compiler:testCompile"] if self.direct else ["test-compile"]
        if test_class:
            goals += ["surefire:test", f"-Dtest={test_class}#{RESOLVE_ONLY}",
                      "-DfailIfNoTests=false", "-Dsurefire.failIfNoSpecifiedTests=false"]
        return goals

    def tests(self, test_ids: list[str] | None = None, warm: bool = False) -> list[str]:
        """The test run (stock: ``mvn test``); ``warm``: the classes are compiled and
        nothing changed, so Surefire alone; ``test_ids`` narrow it (``-Dtest=C#m,...``)."""
        if warm:
            goals = ["surefire:test"]
        elif self.direct:
            goals = ["compiler:testCompile", "surefire:test"]
        else:
            goals = ["test"]
        if test_ids:
            goals += ["-Dtest=" + ",".join(surefire_filter(t) for t in test_ids),
                      "-Dsurefire.failIfNoSpecifiedTests=false", "-DfailIfNoTests=false"]
        return goals


def mvn(settings: str, *goals: str, offline: bool = False) -> list[str]:
    """The ``mvn`` command line: batch mode, no colours, our settings, offline if asked."""
    return ["mvn", *BATCH, "-s", settings, *(["-o"] if offline else []), *goals]


def cache_hits(console_text: str, cache_id: str, source_id: str) -> tuple[int, int]:
    """(artifacts downloaded from the cache, from the source) in one build's output."""
    hits = len(re.findall(rf"Downloaded from {re.escape(cache_id)}:", console_text))
    misses = len(re.findall(rf"Downloaded from {re.escape(source_id)}:", console_text))
    return hits, misses
