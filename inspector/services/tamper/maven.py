"""Maven and Surefire settings in a ``pom.xml`` or ``.mvn/*.config`` that skip, ignore, leave
out or re-route the golden tests of ``mvn test``.

Read in the pom itself and in its profiles that are on in the golden run (``activeByDefault``,
named by ``-P`` in ``.mvn/maven.config``, activated by a property that is set — or, negated,
unset — or by a JDK/OS/file condition, which may hold on the harness machine); profiles only a
developer's ``-P`` turns on are not read. ``${…}`` values are resolved against the pom's
properties and the ``-D`` options of ``.mvn/maven.config``.

Flagged, as **hiding failures** (``deliberate``): ``skipTests``/``maven.test.skip``/
``skip``/``skipExec`` true, ``testFailureIgnore``/``maven.test.failure.ignore`` true, Maven's
``--fail-never``, a selection (``<includes>``, ``<excludes>``, ``<test>``) that leaves a golden
test class out (judged against the golden classes; without them any such selection could, and
is flagged as such), ``testSourceDirectory``/``testClassesDirectory`` away from the defaults,
``reportsDirectory`` away from ``target/surefire-reports``, ``disableXmlReport``, a custom
``statelessTestsetReporter``. As **could influence**: ``skipAfterFailureCount``,
``rerunFailingTestsCount`` (a pass on a re-run counts as a pass), ``includesFile``/
``excludesFile``, JUnit tag ``groups`` (and ``excludedGroups`` naming a golden test's tag),
a JUnit 4 ``listener``, a custom console reporter, the stock XML reporter naming tests by
display name, and the JUnit parameters of :mod:`.junit_config` set through ``argLine``,
``systemPropertyVariables``/``systemProperties`` or ``configurationParameters``.

Not flagged: anything in an execution other than ``default-test`` (an extra run does not change
the default one), ``-fae`` (the build still fails at the end), ``skipITs``, ``forkCount``,
``parallel``, timeouts, ``failIfNoTests`` and other settings that cannot make a failing test
pass. Failsafe's settings are read but have no effect on ``mvn test`` (it runs later).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from inspector.model.repo.pom_xml import XmlNode
from inspector.services.tamper.junit_config import judge_parameter, properties, system_properties
from inspector.services.tamper.surefire_select import DEFAULT_INCLUDES, items, left_out

SUREFIRE = "maven-surefire-plugin"
FAILSAFE = "maven-failsafe-plugin"
HARNESS_PROPERTIES = {"style.color": "never"}  # what the golden run's `mvn test` sets
_TRUE = ("true",)
_SKIP_KEYS = {"skipTests": "skipTests", "skip": "skip (maven.test.skip)",
              "skipExec": "skipExec"}
_SKIP_PROPS = ("skipTests", "maven.test.skip", "maven.test.skip.exec")
_DEFAULT_DIRS = {
    "testSourceDirectory": ("src/test/java",),
    "testClassesDirectory": ("target/test-classes",),
    "reportsDirectory": ("target/surefire-reports", "target/failsafe-reports"),
}
_STOCK_REPORTER = "org.apache.maven.plugin.surefire."
MAX_RESOLVE = 8


@dataclass(frozen=True, slots=True)
class Setting:
    """One flagged setting: where, what it does, and whether it hides failures."""

    line: int
    kind: str
    what: str
    deliberate: bool
    no_effect: str = ""  # why it has no effect on the golden run ("" when it has)


@dataclass
class Context:
    """What the judgement needs beyond the file: the golden classes (None: unknown), their
    JUnit tags, the ``-D`` properties and ``-P`` profiles the command line sets."""

    golden: list[str] | None = None
    golden_tags: set[str] = field(default_factory=set)
    user_props: dict[str, str] = field(default_factory=dict)
    profiles_on: set[str] = field(default_factory=set)


class _Props:
    def __init__(self, own: dict[str, str], user: dict[str, str]) -> None:
        self.values = {**own, **HARNESS_PROPERTIES, **user}

    def resolve(self, value: str) -> str:
        for _ in range(MAX_RESOLVE):
            new = re.sub(r"\$\{([^}]+)\}", lambda m: self.values.get(m.group(1), m.group(0)),
                         value)
            if new == value:
                break
            value = new
        return value.strip()


def _dir_default(key: str, value: str) -> bool:
    value = re.sub(r"^\$\{(project\.)?basedir\}/?", "", value.replace("\\", "/"))
    value = re.sub(r"^\$\{project\.build\.(directory)\}", "target", value)
    value = re.sub(r"^\$\{project\.build\.testOutputDirectory\}", "target/test-classes", value)
    return value.strip("/").removeprefix("./") in _DEFAULT_DIRS[key]


def _profile_on(profile: XmlNode, ctx: Context) -> str | None:
    """How the profile is on in the golden run (None: off)."""
    pid = profile.child_text("id")
    if pid in ctx.profiles_on:
        return f"profile '{pid}' (named by -P)"
    act = profile.child("activation")
    if act is None:
        return None
    if act.child_text("activeByDefault").lower() == "true":
        return f"profile '{pid}' (active by default)"
    prop = act.child("property")
    if prop is not None:
        name, value = prop.child_text("name"), prop.child_text("value")
        props = {**HARNESS_PROPERTIES, **ctx.user_props}
        if name.startswith("!"):
            return None if name[1:] in props else f"profile '{pid}' (activated: {name} unset)"
        if name in props and (not value or (value[1:] != props[name] if value.startswith("!")
                                            else value == props[name])):
            return f"profile '{pid}' (activated by {name})"
        return None
    for cond in ("jdk", "os", "file"):
        if act.child(cond) is not None:
            return f"profile '{pid}' (when its <{cond}> activation holds on the harness machine)"
    return None


def _plugins(build: XmlNode) -> list[XmlNode]:
    return [*build.path("plugins", "plugin"), *build.path("pluginManagement", "plugins", "plugin")]


def judge_pom(root: XmlNode, ctx: Context) -> list[Setting]:
    """The flagged settings of a parsed ``pom.xml``."""
    own = {p.tag: p.text for props in root.path("properties") for p in props.children}
    scopes: list[tuple[XmlNode, str]] = [(root, "")]
    for profile in root.path("profiles", "profile"):
        how = _profile_on(profile, ctx)
        if how is not None:
            scopes.append((profile, how))
            own.update({p.tag: p.text for props in profile.path("properties")
                        for p in props.children})
    props = _Props(own, ctx.user_props)
    out: list[Setting] = []
    for scope, how in scopes:
        where = f" in {how}" if how else ""
        for holder in scope.path("properties"):
            for p in holder.children:
                out += _property(p.line, p.tag, props.resolve(p.text), where, ctx)
        for build in scope.path("build"):
            src = build.child("testSourceDirectory")
            if src is not None and not _dir_default("testSourceDirectory",
                                                    props.resolve(src.text)):
                out.append(Setting(src.line, "maven_test_dirs",
                                   f"testSourceDirectory = {src.text}{where}: the golden tests "
                                   "in src/test/java are not compiled", True))
            for plugin in _plugins(build):
                artifact = props.resolve(plugin.child_text("artifactId"))
                if artifact in (SUREFIRE, FAILSAFE):
                    out += _plugin(plugin, artifact, props, where, ctx)
    return out


def _property(line: int, key: str, value: str, where: str, ctx: Context) -> list[Setting]:
    """A ``<properties>`` entry (or a ``-D`` option) Surefire reads as a parameter."""
    low = value.lower()
    if key in _SKIP_PROPS and low in _TRUE:
        return [Setting(line, "maven_skip_tests", f"property {key} = true{where}: Surefire "
                        "runs no test", True)]
    if key == "maven.test.failure.ignore" and low in _TRUE:
        return [Setting(line, "maven_failures_ignored", f"property {key} = true{where}: "
                        "failing tests do not fail the build", True)]
    if key == "test" and value:
        return _selection(line, None, [], items(value), where, ctx, f"property test = {value}")
    if key == "surefire.skipAfterFailureCount" and _positive(value):
        return [_after_failures(line, value, where)]
    if key == "surefire.rerunFailingTestsCount" and _positive(value):
        return [_reruns(line, value, where)]
    if key in ("surefire.includesFile", "surefire.excludesFile") and value:
        return [Setting(line, "maven_test_selection", f"property {key} = {value}{where}: "
                        "tests selected from a file", False)]
    if key == "groups" and value:
        return [_groups(line, value, where)]
    if key == "argLine":
        return _junit_args(line, value, where, "argLine")
    return []


def _positive(value: str) -> bool:
    return value.strip().isdigit() and int(value) > 0


def _after_failures(line: int, value: str, where: str) -> Setting:
    return Setting(line, "maven_test_selection", f"skipAfterFailureCount = {value}{where}: "
                   "tests after that many failures are skipped, not run", False)


def _reruns(line: int, value: str, where: str) -> Setting:
    return Setting(line, "maven_test_selection", f"rerunFailingTestsCount = {value}{where}: "
                   "a failing test that passes on a re-run counts as passed", False)


def _groups(line: int, value: str, where: str) -> Setting:
    return Setting(line, "maven_test_selection", f"groups = {value}{where}: only tests tagged "
                   "so run", False)


def _junit_args(line: int, args: str, where: str, source: str) -> list[Setting]:
    return [Setting(line, "junit_config", f"{source} sets {what}{where}", False)
            for key, value in system_properties(args)
            if (what := judge_parameter(key, value)) is not None]


def _selection(line: int, includes: list[str] | None, excludes: list[str],
               test: list[str] | None, where: str, ctx: Context, said: str) -> list[Setting]:
    if ctx.golden is None:
        if test is None and not excludes and (includes is None
                                              or set(includes) <= set(DEFAULT_INCLUDES)):
            return []
        return [Setting(line, "maven_test_selection", f"{said}{where}: could leave golden "
                        "tests out (the golden test classes are not known)", False)]
    out = left_out(ctx.golden, includes, excludes, test)
    if not out:
        return []
    names = ", ".join(out[:6]) + (f" and {len(out) - 6} more" if len(out) > 6 else "")
    return [Setting(line, "maven_test_selection", f"{said}{where}: leaves the golden test "
                    f"class{'es' if len(out) > 1 else ''} {names} out", True)]


def _plugin(plugin: XmlNode, artifact: str, props: _Props, where: str,
            ctx: Context) -> list[Setting]:
    configs = [*plugin.path("configuration")]
    for execution in plugin.path("executions", "execution"):
        if execution.child_text("id") in ("", "default-test"):
            configs += execution.path("configuration")
    out: list[Setting] = []
    for config in configs:
        out += _configuration(config, props, where, ctx)
    if artifact == FAILSAFE:
        out = [Setting(s.line, s.kind, f"{FAILSAFE}: {s.what}", False,
                       "Failsafe runs after the test phase, not in `mvn test`") for s in out]
    return out


def _configuration(config: XmlNode, props: _Props, where: str, ctx: Context) -> list[Setting]:
    out: list[Setting] = []
    includes: list[str] | None = None
    excludes: list[str] = []
    select_line = 0
    test: list[str] | None = None
    for el in config.children:
        value = props.resolve(el.text)
        low = value.lower()
        tag = el.tag
        if tag in _SKIP_KEYS and low in _TRUE:
            out.append(Setting(el.line, "maven_skip_tests", f"<{tag}>true</{tag}>{where}: "
                               "Surefire runs no test", True))
        elif tag == "testFailureIgnore" and low in _TRUE:
            out.append(Setting(el.line, "maven_failures_ignored", f"<testFailureIgnore>true"
                               f"{where}: failing tests do not fail the build", True))
        elif tag in ("includes", "excludes"):
            found = [props.resolve(c.text) for c in el.children if c.tag in ("include",
                                                                             "exclude")]
            found = [p for text in found for p in items(text)]
            if tag == "includes":
                includes = found or None
            else:
                excludes = found
            select_line = select_line or el.line
        elif tag == "test" and value:
            test = items(value)
            select_line = el.line
        elif tag in ("testSourceDirectory", "testClassesDirectory", "reportsDirectory") and \
                value and not _dir_default(tag, value):
            if tag == "reportsDirectory":
                out.append(Setting(el.line, "maven_reports", f"reportsDirectory = {el.text}"
                                   f"{where}: the test reports are written away from "
                                   "target/surefire-reports", True))
            else:
                out.append(Setting(el.line, "maven_test_dirs", f"{tag} = {el.text}{where}: "
                                   "the golden tests are not the ones run", True))
        elif tag == "disableXmlReport" and low in _TRUE:
            out.append(Setting(el.line, "maven_reports", f"disableXmlReport = true{where}: "
                               "no XML test report is written", True))
        elif tag in ("statelessTestsetReporter", "consoleOutputReporter",
                     "statelessTestsetInfoReporter"):
            out += _reporter(el, where)
        elif tag == "skipAfterFailureCount" and _positive(value):
            out.append(_after_failures(el.line, value, where))
        elif tag == "rerunFailingTestsCount" and _positive(value):
            out.append(_reruns(el.line, value, where))
        elif tag in ("includesFile", "excludesFile") and value:
            out.append(Setting(el.line, "maven_test_selection", f"{tag} = {value}{where}: "
                               "tests selected from a file", False))
        elif tag == "groups" and value:
            out.append(_groups(el.line, value, where))
        elif tag == "excludedGroups" and value:
            tags = set(items(value))
            if ctx.golden is None or tags & ctx.golden_tags:
                out.append(Setting(el.line, "maven_test_selection", f"excludedGroups = "
                                   f"{value}{where}: tests tagged so are left out", False))
        elif tag == "properties":
            out += _provider_properties(el, props, where)
        elif tag == "argLine":
            out += _junit_args(el.line, value, where, "argLine")
        elif tag in ("systemPropertyVariables", "systemProperties"):
            out += _system_properties(el, props, where)
    if includes is not None or excludes or test is not None:
        shown = []
        if test is not None:
            shown.append(f"<test>{','.join(test)}</test>")
        if includes is not None:
            shown.append(f"includes {','.join(includes)}")
        if excludes:
            shown.append(f"excludes {','.join(excludes)}")
        out += _selection(select_line, includes, excludes, test, where, ctx, "; ".join(shown))
    return out


def _reporter(el: XmlNode, where: str) -> list[Setting]:
    impl = el.attrs.get("implementation", "")
    if impl and not impl.startswith(_STOCK_REPORTER):
        xml = el.tag == "statelessTestsetReporter"
        return [Setting(el.line, "maven_reports", f"<{el.tag} implementation=\"{impl}\">"
                        f"{where}: a custom reporter writes the test "
                        f"{'reports' if xml else 'console output'}", xml)]
    if el.tag == "statelessTestsetReporter" and any(
            c.tag.startswith("usePhrased") and c.text.lower() == "true" for c in el.children):
        return [Setting(el.line, "maven_reports", f"<{el.tag}>{where}: the reports name tests "
                        "by their display names, not their methods", False)]
    return []


def _provider_properties(el: XmlNode, props: _Props, where: str) -> list[Setting]:
    out: list[Setting] = []
    for child in el.children:
        if child.tag == "property" and child.child_text("name") == "listener":
            value = props.resolve(child.child_text("value"))
            out.append(Setting(child.line, "maven_listener", f"Surefire listener {value}"
                               f"{where}: a JUnit 4 run listener from the build sees every "
                               "test", False))
        elif child.tag == "configurationParameters":
            for i, key, value in properties(child.text):
                what = judge_parameter(key, props.resolve(value))
                if what is not None:
                    out.append(Setting(child.line + i - 1, "junit_config",
                                       f"configurationParameters set {what}{where}", False))
    return out


def _system_properties(el: XmlNode, props: _Props, where: str) -> list[Setting]:
    pairs = [(c.line, c.child_text("name"), c.child_text("value")) if c.tag == "property"
             else (c.line, c.tag, c.text) for c in el.children]
    return [Setting(line, "junit_config", f"{el.tag} set {what}{where}", False)
            for line, key, value in pairs
            if (what := judge_parameter(key, props.resolve(value))) is not None]


@dataclass
class CommandLine:
    """What ``.mvn/maven.config`` or ``.mvn/jvm.config`` adds to every ``mvn`` command."""

    settings: list[Setting] = field(default_factory=list)
    props: dict[str, str] = field(default_factory=dict)
    profiles: set[str] = field(default_factory=set)


def judge_command_line(text: str, jvm: bool, ctx: Context) -> CommandLine:
    """The flagged options of a ``maven.config`` (``jvm`` False) or ``jvm.config``."""
    out = CommandLine()
    pending: list[tuple[int, str]] = []
    for i, raw in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(raw, comments=True)
        except ValueError:
            words = raw.split()
        pending += [(i, w) for w in words]
    k = 0
    while k < len(pending):
        line, w = pending[k]
        nxt = pending[k + 1][1] if k + 1 < len(pending) else ""
        k += 1
        if w in ("-D", "--define") and not jvm:
            w, k = "-D" + nxt, k + 1
        if w in ("-P", "--activate-profiles") and not jvm:
            out.profiles |= {p.lstrip("+") for p in items(nxt) if not p.startswith(("!", "-"))}
            k += 1
            continue
        if w.startswith("-P") and len(w) > 2 and not jvm:
            out.profiles |= {p.lstrip("+") for p in items(w[2:]) if not p.startswith(("!", "-"))}
            continue
        if w.startswith("-D") and len(w) > 2:
            key, eq, value = w[2:].partition("=")
            value = value if eq else "true"
            out.props[key] = value
            out.settings += [Setting(s.line, s.kind, s.what.replace("property ", "-D", 1),
                                     s.deliberate)
                             for s in _property(line, key, value, "", ctx)]
            if key.startswith("junit."):
                what = judge_parameter(key, value)
                if what is not None:
                    out.settings.append(Setting(line, "junit_config", f"-D sets {what}", False))
            if key == "maven.ext.class.path":
                out.settings.append(Setting(line, "maven_extension", f"-D{key}={value}: loads "
                                            "a Maven core extension", False))
        elif w in ("-fn", "--fail-never") and not jvm:
            out.settings.append(Setting(line, "maven_failures_ignored", f"{w}: Maven succeeds "
                                        "whatever the tests do", True))
        elif jvm and w.startswith(("-javaagent:", "-agentlib:", "-agentpath:")):
            out.settings.append(Setting(line, "maven_extension", f"{w.split('=')[0]}: an agent "
                                        "runs inside Maven", False))
    return out
