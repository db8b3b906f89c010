"""What Maven's console, javac and a JVM stack trace say about a Java failure.

Pure text reading for the Java triage rules (:mod:`inspector.services.triage.java_rules`):

* javac's errors as Maven prints them (``/repo/src/main/java/A.java:[10,5] cannot find symbol``
  with the ``symbol:`` / ``location:`` / ``required:`` / ``found:`` lines under it);
* artifacts Maven could not resolve (``Could not find artifact g:a:jar:v in gi (url)``,
  ``Failure to find``, ``Plugin g:a:v or one of its dependencies could not be resolved``,
  ``was not found in``), and whether a repository answered at all (offline, unreachable);
* JVM exceptions with their ``at`` frames (``Caused by:`` chains), linkage errors naming a
  class, and Spring Boot's start-up report (a bean nobody defines, a port in use).

Every reader takes the lines of one text (a log, a test's trace) and returns positions into it,
so the rules can anchor a reading at the line that says it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LEVEL = re.compile(r"^\[(?:INFO|ERROR|WARNING|WARN|DEBUG|FATAL)\]\s?")

# ------------------------------------------------------------------------- javac errors

_COMPILE = re.compile(r"^(?P<path>\S+\.java):\[(?P<line>\d+),(?P<col>\d+)\]\s*(?P<msg>.*)$")
_DETAIL = re.compile(r"^\s+(?P<key>symbol|location|required|found|reason):\s+(?P<val>.*)$")


@dataclass(frozen=True, slots=True)
class CompileError:
    """One javac error: ``path`` as printed (relative from ``src/`` when it has one), its
    line and column, the message and the detail lines javac added."""

    path: str
    line: int
    col: int
    message: str
    index: int  # line of the text it was read from
    symbol: str = ""  # "method bar(java.lang.String)", "class UserStore", "variable x"
    location: str = ""  # "class com.x.Baz", "variable b of type com.x.Baz"
    required: str = ""
    found: str = ""

    @property
    def in_tests(self) -> bool:
        return self.path.startswith("src/test/")

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def strip_level(line: str) -> str:
    """A console line without Maven's ``[ERROR]``-style prefix."""
    return _LEVEL.sub("", line)


def rel_source(path: str) -> str:
    """``/tmp/x/repo/src/main/java/A.java`` -> ``src/main/java/A.java``."""
    norm = path.replace("\\", "/")
    idx = norm.rfind("/src/")
    return norm[idx + 1:] if idx >= 0 else norm.lstrip("/")


def compile_errors(lines: list[str]) -> list[CompileError]:
    """javac's errors in order, each once (Maven prints them twice: under ``COMPILATION
    ERROR :`` and again in its ``Failed to execute goal`` summary)."""
    out: list[CompileError] = []
    seen: set[tuple[str, int, int, str]] = set()
    for i, raw in enumerate(lines):
        m = _COMPILE.match(strip_level(raw).strip())
        if m is None:
            continue
        detail: dict[str, str] = {}
        for nxt in lines[i + 1:i + 6]:
            d = _DETAIL.match(strip_level(nxt))
            if d is None:
                break
            detail.setdefault(d["key"], d["val"].strip())
        path = rel_source(m["path"])
        key = (path, int(m["line"]), int(m["col"]), m["msg"].strip())
        if key in seen:
            continue
        seen.add(key)
        out.append(CompileError(path, key[1], key[2], key[3], i, detail.get("symbol", ""),
                                detail.get("location", ""), detail.get("required", ""),
                                detail.get("found", "")))
    return out


MISSING_PACKAGE = re.compile(r"^package (?P<pkg>[\w.]+) does not exist$")
CANNOT_FIND = re.compile(r"^cannot find symbol$")
CANNOT_APPLY = re.compile(r"^(?P<kind>constructor|method) (?P<name>\w+) in (?:class|interface|"
                          r"enum|record) (?P<cls>[\w.$<>]+) cannot be applied to given types")
NO_OVERRIDE = re.compile(r"^method does not override or implement a method from a supertype")
WRONG_FILE = re.compile(r"^(?:class|interface|enum|record) (?P<cls>\w+) is public, should be "
                        r"declared in a file named (?P<file>\w+\.java)")
INCOMPATIBLE = re.compile(r"^incompatible types: (?P<a>.+?) cannot be converted to (?P<b>.+)$")
SYMBOL = re.compile(r"^(?P<kind>class|interface|method|variable|constructor|enum|static)\s+"
                    r"(?P<name>[\w$]+)(?:\((?P<args>[^)]*)\))?")
LOCATION = re.compile(r"^(?:(?:class|interface|enum|record|package) (?P<cls>[\w.$<>]+)|"
                      r"variable \w+ of type (?P<typ>[\w.$<>]+))")


def location_type(location: str) -> str | None:
    """The class javac's ``location:`` names (``com.x.Baz`` for ``variable b of type
    com.x.Baz``), generics dropped; None for a package."""
    if location.startswith("package "):
        return None
    m = LOCATION.match(location)
    if m is None:
        return None
    return re.sub(r"<.*", "", m["cls"] or m["typ"] or "") or None


# ------------------------------------------------------------------------- Maven resolution

_COORDS = r"[\w.\-]+:[\w.\-]+:(?:[\w.\-]+:){0,3}[\w.\-]+"
_NOT_FOUND = (
    re.compile(rf"Could not find artifact (?P<c>{_COORDS})(?: in (?P<repo>\S+(?: \([^)]*\))?))?"),
    re.compile(rf"Failure to find (?P<c>{_COORDS}) in (?P<repo>\S+)"),
    re.compile(rf"(?P<c>{_COORDS}) was not found in (?P<repo>\S+)"),
    re.compile(rf"the artifact (?P<c>{_COORDS}) has not been downloaded from it before"),
    re.compile(rf"Could not transfer artifact (?P<c>{_COORDS}) from/to "
               r"(?P<repo>\S+(?: \([^)]*\))?)"),
)
_PLUGIN = re.compile(rf"Plugin (?P<c>{_COORDS}) or one of its dependencies could not be "
                     r"resolved")
_PLUGIN_DESCRIPTOR = re.compile(rf"Failed to read artifact descriptor for (?P<c>{_COORDS})")
_PARENT = re.compile(r"Non-resolvable parent POM")
_LISTED = re.compile(r"The following artifacts could not be resolved: (?P<list>.+?): "
                     r"(?:Cannot access|Could not|Failure to find)")
OFFLINE = re.compile(r"in offline mode|offline mode and the artifact|"
                     r"has not been downloaded from it before")
UNREACHABLE = re.compile(r"Unknown host|Name or service not known|Connect(?:ion)? timed out|"
                         r"Connection refused|Network is unreachable|No route to host|"
                         r"Temporary failure in name resolution|Could not transfer artifact|"
                         r"transfer failed for")


@dataclass(frozen=True, slots=True)
class Unresolved:
    """An artifact Maven could not resolve: ``group:artifact``, its version, where it was
    asked for (``gi (file:///usr/share/maven-repo)``), the plugin it was resolved for (when
    Maven resolved it for a plugin) and the line saying so."""

    group: str
    artifact: str
    version: str
    index: int
    repository: str = ""
    plugin: str = ""  # "group:artifact:version" of the plugin being resolved, if any
    parent: bool = False  # the project's parent POM

    @property
    def key(self) -> str:
        return f"{self.group}:{self.artifact}"

    @property
    def short(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"


def _split(coords: str) -> tuple[str, str, str]:
    parts = coords.split(":")
    return parts[0], parts[1], parts[-1] if len(parts) > 2 else ""


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a Maven run said about resolving artifacts."""

    missing: tuple[Unresolved, ...]
    offline: bool  # Maven never asked a repository (offline mode)
    unreachable: bool  # a repository was asked and did not answer

    @property
    def answered(self) -> bool:
        """A repository answered that the artifacts are not there."""
        return bool(self.missing) and not self.offline and not self.unreachable


def resolution(lines: list[str]) -> Resolution:
    """The artifacts a Maven console says it could not resolve."""
    found: list[Unresolved] = []
    seen: set[str] = set()
    offline = unreachable = False
    for i, raw in enumerate(lines):
        line = strip_level(raw)
        if "resolve" not in line and "find" not in line and "not found" not in line \
                and "artifact" not in line:
            continue
        offline = offline or bool(OFFLINE.search(line))
        unreachable = unreachable or bool(UNREACHABLE.search(line))
        plugin = _PLUGIN.search(line) or _PLUGIN_DESCRIPTOR.search(line)
        parent = _PARENT.search(line)
        hits: list[tuple[str, str]] = []
        for pat in _NOT_FOUND:
            hits.extend((m["c"], m.groupdict().get("repo") or "") for m in pat.finditer(line))
        listed = _LISTED.search(line)
        if listed:
            hits.extend((c.split(" (")[0].strip(), "") for c in listed["list"].split(", "))
        if plugin and not hits:
            hits.append((plugin["c"], ""))
        for coords, repo in hits[:1] if parent else hits:
            if not re.fullmatch(_COORDS, coords):
                continue
            g, a, v = _split(coords)
            if f"{g}:{a}:{v}" in seen:
                continue
            seen.add(f"{g}:{a}:{v}")
            found.append(Unresolved(g, a, v, i, repo,
                                    ":".join(_split(plugin["c"])) if plugin else "",
                                    bool(parent)))
    return Resolution(tuple(found), offline, unreachable)


# ------------------------------------------------------------------------- JVM exceptions

_EXC = re.compile(r"^(?:Caused by: |Exception in thread \"[^\"]*\" )?"
                  r"(?P<type>(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error))"
                  r"(?::\s?(?P<msg>.*))?$")
_AT = re.compile(r"^\s*at (?:[\w.$-]+/)*(?P<cls>[\w.$]+)\.(?P<meth>[\w$<>]+)"
                 r"\((?:(?P<file>[\w$-]+\.\w+):(?P<line>\d+)|[^)]*)\)")


@dataclass(frozen=True, slots=True)
class JavaFrame:
    cls: str  # fully qualified, nested classes with $
    method: str
    file: str  # A.java ("" for a native or unknown source)
    line: int  # 0 when unknown

    @property
    def package(self) -> str:
        return self.cls.rpartition(".")[0]


@dataclass(frozen=True, slots=True)
class JavaException:
    """One exception line (``Caused by: x.y.ZException: msg``) and its ``at`` frames."""

    type: str
    message: str
    index: int
    frames: tuple[JavaFrame, ...] = ()

    @property
    def simple(self) -> str:
        return self.type.rpartition(".")[2]


def java_exceptions(lines: list[str]) -> list[JavaException]:
    """Every exception line of a JVM trace or log, with the frames under it."""
    out: list[JavaException] = []
    for i, raw in enumerate(lines):
        m = _EXC.match(strip_level(raw).strip())
        if m is None:
            continue
        frames: list[JavaFrame] = []
        for nxt in lines[i + 1:i + 200]:
            f = _AT.match(nxt)
            if f is None:
                if nxt.strip().startswith("..."):
                    continue
                break
            frames.append(JavaFrame(f["cls"], f["meth"], f["file"] or "",
                                    int(f["line"]) if f["line"] else 0))
        out.append(JavaException(m["type"], (m["msg"] or "").strip(), i, tuple(frames)))
    return out


LINKAGE = ("NoSuchMethodError", "NoClassDefFoundError", "ClassNotFoundException",
           "NoSuchFieldError", "AbstractMethodError", "IncompatibleClassChangeError")
_LINK_CLASS = (
    re.compile(r"'[\w.$<>\[\]]+ (?P<cls>[\w.$]+)\.[\w$<>]+\("),  # 'void a.b.C.m(int)'
    re.compile(r"^(?P<cls>[\w.$]+)\.[\w$<>]+\(\S*\)\S*$"),  # a.b.C.m(I)V (Java 8)
    re.compile(r"^(?:Could not initialize class )?(?P<cls>[\w/.$]+)$"),  # a/b/C, a.b.C
    re.compile(r"(?:class|interface) (?P<cls>[\w.$]+)"),
)


def linkage_class(exc: JavaException) -> str | None:
    """The class a linkage error names (``org.eclipse.jetty.server.Handler``), or None."""
    if exc.simple not in LINKAGE:
        return None
    msg = exc.message.strip()
    for pat in _LINK_CLASS:
        m = pat.search(msg)
        if m and "." in m["cls"].replace("/", "."):
            return m["cls"].replace("/", ".")
    return None


# ------------------------------------------------------------------------- Spring Boot

BEAN_REQUIRED = re.compile(r"(?:Parameter \d+ of (?:constructor|method \w+) in|Field \w+ in) "
                           r"(?P<cls>[\w.$]+) required a bean of type '(?P<type>[\w.$]+)' that "
                           r"could not be found")
NO_QUALIFYING = re.compile(r"No qualifying bean of type '(?P<type>[\w.$]+)'")
CONSIDER_BEAN = re.compile(r"Consider defining a bean of type '(?P<type>[\w.$]+)'")
BEAN_ERROR = re.compile(r"(?P<exc>UnsatisfiedDependencyException|BeanCreationException|"
                        r"BeanDefinitionStoreException|NoSuchBeanDefinitionException|"
                        r"ApplicationContextException)\b(?:: Error creating bean with name "
                        r"'(?P<bean>[\w.$-]+)'(?: defined in (?:file \[(?P<file>[^\]]+)\]|"
                        r"(?P<cls>[\w.$]+)))?)?")
PORT_IN_USE = re.compile(r"Web server failed to start\. Port (?P<port>\d+) was already in use|"
                         r"Port (?:(?P<port2>\d+) )?(?:is )?already in use|"
                         r"Port \d+ seems to be in use by another process|"
                         r"BindException: Address already in use|"
                         r"Failed to bind to (?:[\w./]*:)?(?P<port3>\d+)")
NOT_FOUND_STATUS = re.compile(r"expected:?\s*<?(?:200|201|204)>?\s*but was:?\s*<?404>?|"
                              r"Expected status code <(?:200|201|204)> but was <404>|"
                              r"\b404 Not Found\b|\bstatus (?:code )?404\b", re.I)
CONNECTION_REFUSED = re.compile(r"ConnectException|Connection refused|HttpConnectTimeoutException")
MAIN_NOT_FOUND = re.compile(r"Could not find or load main class (?P<cls>[\w.$]+)|"
                            r"ClassNotFoundException: (?P<cls2>[\w.$]+)")
