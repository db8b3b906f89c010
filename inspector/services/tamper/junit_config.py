"""JUnit Platform settings and service registrations that can change a golden test's outcome.

Flagged configuration parameters (from ``junit-platform.properties``, a Surefire
``configurationParameters``, or a system property set by ``argLine``/``systemPropertyVariables``):

* ``junit.jupiter.conditions.deactivate``: ``@Disabled``/``@EnabledIf…`` conditions ignored;
* ``junit.jupiter.extensions.autodetection.enabled=true``: every Jupiter extension the
  classpath registers in ``META-INF/services`` (the repo's main resources are on it) runs
  around the golden tests, and may swallow their failures;
* ``junit.platform.launcher.interceptors.enabled=true``: registered launcher interceptors run.

Deliberately not flagged (they cannot turn a failing test into a passing one): parallel
execution, timeouts (they only add failures), class/method ordering, display-name generators,
temp-dir and output-capture settings, ``junit.platform.execution.listeners.deactivate`` (it
only drops listeners registered through ``ServiceLoader``; Surefire's reporting listener is not
one).

Service registrations read from ``META-INF/services``: a ``PostDiscoveryFilter`` (drops tests
after discovery: always loaded) is the one that hides golden tests by itself; listeners,
launcher session/discovery listeners, interceptors, test engines and Jupiter extensions could
influence the run.
"""

from __future__ import annotations

import re

_TRUE = ("true", "yes", "on", "1")
HIDING_SERVICES = {"org.junit.platform.launcher.PostDiscoveryFilter":
                   "a post-discovery filter (JUnit loads it always; it can drop golden tests)"}
SERVICES = {
    **HIDING_SERVICES,
    "org.junit.platform.launcher.TestExecutionListener":
        "a test execution listener (JUnit loads it always)",
    "org.junit.platform.launcher.LauncherSessionListener":
        "a launcher session listener (JUnit loads it always)",
    "org.junit.platform.launcher.LauncherDiscoveryListener":
        "a launcher discovery listener (JUnit loads it always)",
    "org.junit.platform.launcher.LauncherInterceptor":
        "a launcher interceptor (loaded when junit.platform.launcher.interceptors.enabled=true)",
    "org.junit.platform.engine.TestEngine": "a test engine (JUnit loads it always)",
    "org.junit.jupiter.api.extension.Extension":
        "a Jupiter extension (loaded when junit.jupiter.extensions.autodetection.enabled=true)",
    "org.junit.runner.notification.RunListener": "a JUnit 4 run listener",
}
AUTODETECT = "junit.jupiter.extensions.autodetection.enabled"
# what an extension class implements when it can turn a failure into a pass
_OUTCOME_HOOKS = re.compile(r"\b(TestExecutionExceptionHandler|InvocationInterceptor|"
                            r"handleTestExecutionException|interceptTestMethod|"
                            r"LifecycleMethodExecutionExceptionHandler)\b")


def judge_parameter(key: str, value: str) -> str | None:
    """What a JUnit configuration parameter does to the outcomes, or None when harmless."""
    key, value = key.strip(), value.strip()
    if key == "junit.jupiter.conditions.deactivate" and value:
        return (f"{key}={value} deactivates JUnit's execution conditions (@Disabled, "
                "@EnabledIf…): golden tests run or are skipped regardless of them")
    if key == AUTODETECT and value.lower() in _TRUE:
        return (f"{key}=true runs every Jupiter extension registered in META-INF/services "
                "around the golden tests")
    if key == "junit.platform.launcher.interceptors.enabled" and value.lower() in _TRUE:
        return f"{key}=true runs the registered launcher interceptors"
    return None


def properties(text: str) -> list[tuple[int, str, str]]:
    """``(line, key, value)`` of a Java properties text (continuation lines joined)."""
    out: list[tuple[int, str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i
        line = lines[i].strip()
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + lines[i].strip()
        i += 1
        if not line or line[0] in "#!":
            continue
        m = re.match(r"((?:\\.|[^=:\s])+)\s*[=:\s]\s*(.*)$", line)
        if m:
            out.append((start + 1, m.group(1).replace("\\", ""), m.group(2)))
        else:
            out.append((start + 1, line, ""))
    return out


def system_properties(args: str) -> list[tuple[str, str]]:
    """``-Dkey=value`` pairs in a JVM or Maven argument line."""
    return [(m.group(1), m.group(3) if m.group(2) else "true")
            for m in re.finditer(r"(?:^|\s)[\"']?-D([\w.\-]+)(=(\S*?))?[\"']?(?=\s|$)", args)]


def extension_changes_outcomes(source: str) -> bool:
    """Whether an extension's Java source implements a hook that can turn a failure into a
    pass (an exception handler, an invocation interceptor)."""
    return _OUTCOME_HOOKS.search(source) is not None


def service_classes(text: str) -> list[tuple[int, str]]:
    """``(line, class name)`` listed in a ``META-INF/services`` file."""
    out = []
    for i, raw in enumerate(text.splitlines(), 1):
        name = raw.split("#", 1)[0].strip()
        if name:
            out.append((i, name))
    return out
