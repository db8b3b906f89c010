"""Reading Maven's console output (Maven 3.8/3.9, Surefire 2.22/3.x).

What a run printed about its tests and why a build stopped:

* per-class lines, ``Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.5 s
  <<< FAILURE! -- in com.example.FooTest`` (Surefire 3.x; 2.22 writes ``- in``), and the
  aggregate line under ``Results:`` (no ``Time elapsed``). The stock RepoGenesis parser sums
  both kinds, which doubles every Java count; :func:`stock_sum` reproduces that for comparison.
* the failing tests, both as blocks (``com.example.FooTest.bar -- Time elapsed: 0.02 s <<<
  FAILURE!`` in 3.x, ``bar(com.example.FooTest)  Time elapsed: 0.02 s  <<< FAILURE!`` in 2.22)
  and as the ``Failures:``/``Errors:`` summary (``FooTest.bar:42 expected: <200> but was: <404>``).
* ``COMPILATION ERROR`` blocks, ``BUILD FAILURE``, and artifacts Maven could not resolve
  (offline, unreachable repository, missing parent POM or plugin), summed up in one message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_LEVEL = re.compile(r"^\[(?:INFO|ERROR|WARNING|WARN|DEBUG|FATAL)\]\s?")
_COUNTS = re.compile(r"Tests run:\s*(\d+),\s*Failures:\s*(\d+),\s*Errors:\s*(\d+),\s*"
                     r"Skipped:\s*(\d+)(?P<rest>.*)$")
_IN_CLASS = re.compile(r"\s-{1,2}\s+in\s+(?P<cls>[\w.$]+)\s*$")
_ELAPSED = re.compile(r"Time elapsed:\s*([\d.,]+)\s*(?:s|sec)\b")
_BLOCK_3X = re.compile(r"^(?P<cls>[\w.$]+)\.(?P<name>[^.\s][^\s]*?(?:\(.*?\))?(?:\[\d+\])?)"
                       r"\s+--\s+Time elapsed:\s*(?P<t>[\d.,]+)\s*s\s+<<<\s+"
                       r"(?P<kind>FAILURE|ERROR)!")
_BLOCK_2X = re.compile(r"^(?P<name>\S.*?)(?:\((?P<cls>[\w.$]+)\))?\s+Time elapsed:\s*"
                       r"(?P<t>[\d.,]+)\s*(?:s|sec)\s+<<<\s+(?P<kind>FAILURE|ERROR)!")
_RUNNING = re.compile(r"^Running\s+(?P<cls>[\w.$]+)\s*$")
_SUMMARY_HEAD = re.compile(r"^(Failures|Errors|Failed tests|Tests in error|Flakes):\s*$")
_SUMMARY_ITEM = re.compile(r"^\s{2,}(?:Run \d+: )?(?P<where>[\w.$]+?)(?::(?P<line>\d+))?"
                           r"\s+(?P<msg>.*)$")
_COMPILE_ERR = re.compile(r"^(?P<path>\S+\.java):\[(?P<line>\d+),(?P<col>\d+)\]\s*(?P<msg>.*)$")
_COORDS = r"[\w.\-]+:[\w.\-]+:(?:[\w.\-]+:){1,2}[\w.\-]+"
_UNRESOLVED = (
    re.compile(r"Plugin ([\w.\-]+:[\w.\-]+:[\w.\-]+) or one of its dependencies could not be "
               r"resolved"),
    re.compile(r"the artifact (" + _COORDS + r") has not been downloaded from it before"),
    re.compile(r"Could not transfer artifact (" + _COORDS + r") from/to"),
    re.compile(r"Could not find artifact (" + _COORDS + r")"),
    re.compile(r"(" + _COORDS + r") \((?:absent|present, but unavailable)\)"),
    re.compile(r"Failure to find (" + _COORDS + r") in"),
    # Maven 3.8+: a "not found" remembered in the local repository from an earlier attempt
    re.compile(r"(" + _COORDS + r") was not found in \S+ during a previous attempt"),
)
_LISTED = re.compile(r"The following artifacts could not be resolved: (.+?): (?:Cannot access|"
                     r"Could not|Failure to find|[\w.\-]+:[\w.\-]+:\w+:[\w.\-]+ (?:was|has))")
_OFFLINE = re.compile(r"in offline mode|offline mode and the artifact")
_UNREACHABLE = re.compile(r"Unknown host|Name or service not known|Connect(?:ion)? timed out|"
                          r"Connection refused|Network is unreachable|No route to host|"
                          r"transfer failed for|Temporary failure in name resolution")
INFRA = "infrastructure problem, not the agent's"


@dataclass
class ClassResult:
    """One test class's line: ``Tests run: …, Time elapsed: … -- in <cls>``."""

    class_name: str
    run: int
    failures: int
    errors: int
    skipped: int
    seconds: float | None = None


@dataclass
class FailedTest:
    """A failing test as the console reports it (block or summary line)."""

    class_name: str  # fully qualified for blocks; simple name for summary lines
    name: str
    kind: str  # "failure" | "error"
    message: str = ""
    trace: str = ""
    line: int | None = None
    seconds: float | None = None


@dataclass
class MavenConsole:
    """What one ``mvn`` run printed, read back."""

    classes: list[ClassResult] = field(default_factory=list)
    aggregates: list[tuple[int, int, int, int]] = field(default_factory=list)
    failed: list[FailedTest] = field(default_factory=list)
    summary: list[FailedTest] = field(default_factory=list)
    compile_errors: list[tuple[str, int, str]] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    offline: bool = False
    unreachable: bool = False
    build_failure: bool = False
    build_success: bool = False
    fatal: list[str] = field(default_factory=list)

    @property
    def counts(self) -> tuple[int, int, int, int] | None:
        """(run, failures, errors, skipped), each test counted once: the ``Results:``
        aggregate(s) when printed (one per module), else the per-class lines."""
        rows = self.aggregates or [(c.run, c.failures, c.errors, c.skipped)
                                   for c in self.classes]
        if not rows:
            return None
        run, failures, errors, skipped = (sum(r[i] for r in rows) for i in range(4))
        return run, failures, errors, skipped

    @property
    def repository_unreachable(self) -> bool:
        """Maven could not resolve something without any repository being asked (offline) or
        reached: the infrastructure's problem. A repository that answered that an artifact
        does not exist is not this: that is the repo's dependency."""
        return bool(self.unresolved) and (self.offline or self.unreachable)

    def dependency_message(self) -> str | None:
        """One line naming what Maven could not resolve, or None."""
        if not self.unresolved:
            return None
        names = []
        for coords in self.unresolved:
            short = _short_coords(coords)
            if short not in names:
                names.append(short)
        what = names[0] + (f" and {len(names) - 1} more ({', '.join(names[1:4])}"
                           f"{', …' if len(names) > 4 else ''})" if len(names) > 1 else "")
        if self.offline:
            why = "no Maven repository reachable; offline"
        elif self.unreachable:
            why = "Maven repository unreachable from this machine"
        else:  # a repository answered: the artifact is not there (the repo's dependency)
            return f"Maven could not resolve {what} (not found in the configured repositories)"
        return f"Maven could not resolve {what} ({why}) — {INFRA}"

    def compile_message(self) -> str | None:
        if not self.compile_errors:
            return None
        path, line, msg = self.compile_errors[0]
        more = len(self.compile_errors) - 1
        return (f"compilation failed: {path}:{line}: {msg}"
                + (f" (and {more} more error{'s' if more > 1 else ''})" if more else ""))

    def problem(self) -> str | None:
        """Why the build stopped, in one line (dependency resolution first)."""
        return (self.dependency_message() or self.compile_message()
                or (self.fatal[0] if self.fatal else None))


def _short_coords(coords: str) -> str:
    """``g:a:jar:1.0`` / ``g:a:jar:classifier:1.0`` -> ``g:a:1.0``; ``g:a:1.0`` unchanged."""
    parts = coords.split(":")
    if len(parts) >= 4:
        return f"{parts[0]}:{parts[1]}:{parts[-1]}"
    return coords


def clean_lines(text: str) -> list[str]:
    """Lines without ANSI colours and without Maven's ``[INFO]``-style level prefix."""
    return [_LEVEL.sub("", _ANSI.sub("", line)).rstrip("\r") for line in text.splitlines()]


def _rel_source(path: str) -> str:
    """``/tmp/x/repo/src/main/java/A.java`` -> ``src/main/java/A.java``."""
    norm = path.replace("\\", "/")
    idx = norm.rfind("/src/")
    return norm[idx + 1:] if idx >= 0 else norm


def _seconds(raw: str | None) -> float | None:
    try:
        return float(raw.replace(",", "")) if raw else None
    except ValueError:
        return None


def parse_maven_output(text: str) -> MavenConsole:
    """Read a Maven run's console output (any mix of build and test phases)."""
    out = MavenConsole()
    raw = [_ANSI.sub("", line) for line in text.splitlines()]
    lines = clean_lines(text)
    current_class = ""
    i = 0
    in_summary = ""
    in_compile = False
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        m = _RUNNING.match(stripped)
        if m:
            current_class = m.group("cls")
        m = _COUNTS.search(line)
        if m:
            run, failures, errors, skipped = (int(m.group(k)) for k in range(1, 5))
            rest = m.group("rest")
            cls_m = _IN_CLASS.search(rest)
            if "Time elapsed" in rest or cls_m:
                t = _ELAPSED.search(rest)
                out.classes.append(ClassResult(cls_m.group("cls") if cls_m else current_class,
                                               run, failures, errors, skipped,
                                               seconds=_seconds(t.group(1) if t else None)))
            else:
                out.aggregates.append((run, failures, errors, skipped))
            in_summary = ""
            i += 1
            continue
        blk = _BLOCK_3X.match(stripped) or _BLOCK_2X.match(stripped)
        if blk and "Tests run:" not in stripped:
            trace: list[str] = []
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _LEVEL.match(raw[j]) and \
                    not _BLOCK_3X.match(lines[j].strip()):
                trace.append(lines[j])
                j += 1
            first = trace[0] if trace else ""
            message = first.split(": ", 1)[1] if ": " in first else first
            out.failed.append(FailedTest(
                blk.group("cls") or current_class, blk.group("name").strip(),
                "error" if blk.group("kind") == "ERROR" else "failure", message.strip(),
                "\n".join(trace), None, _seconds(blk.group("t"))))
            i = j
            continue
        head = _SUMMARY_HEAD.match(stripped)
        if head:
            in_summary = {"Failures": "failure", "Failed tests": "failure", "Errors": "error",
                          "Tests in error": "error"}.get(head.group(1), "")
            i += 1
            continue
        if in_summary:
            item = _SUMMARY_ITEM.match(line)
            if item and "." in item.group("where"):
                cls, _, name = item.group("where").rpartition(".")
                msg = item.group("msg").strip()
                msg = msg[2:].strip() if msg.startswith("»") else msg
                out.summary.append(FailedTest(cls, name, in_summary, msg, "",
                                              int(item.group("line")) if item.group("line")
                                              else None))
                i += 1
                continue
            if stripped:
                in_summary = ""
        if stripped.startswith("COMPILATION ERROR"):
            in_compile = True
        ce = _COMPILE_ERR.match(stripped)
        if ce and (in_compile or not out.compile_errors):
            entry = (_rel_source(ce.group("path")), int(ce.group("line")), ce.group("msg"))
            if entry not in out.compile_errors:
                out.compile_errors.append(entry)
        elif stripped.endswith("error") and re.match(r"^\d+ errors?$", stripped):
            in_compile = False
        listed = _LISTED.search(line)
        if listed:
            for listed_item in listed.group(1).split(", "):
                coords = listed_item.split(" (", 1)[0].strip()
                if re.fullmatch(_COORDS, coords) and coords not in out.unresolved:
                    out.unresolved.append(coords)
        for pattern in _UNRESOLVED:
            for um in pattern.finditer(line):
                if um.group(1) not in out.unresolved:
                    out.unresolved.append(um.group(1))
        if _OFFLINE.search(line):
            out.offline = True
        if _UNREACHABLE.search(line):
            out.unreachable = True
        if stripped == "BUILD FAILURE":
            out.build_failure = True
        elif stripped == "BUILD SUCCESS":
            out.build_success = True
        if line.startswith(("[FATAL]", "Non-resolvable")) or stripped.startswith(
                "Non-resolvable parent POM"):
            out.fatal.append(stripped.removeprefix("[FATAL] "))
        i += 1
    return out


def stock_sum(text: str) -> tuple[int, int, int, int]:
    """What the stock RepoGenesis parser computes: the sum of *every* ``Tests run:`` line
    (per-class and aggregate alike). Shown next to our count, never used as ours."""
    totals = [0, 0, 0, 0]
    for line in text.splitlines():
        m = _COUNTS.search(line)
        if m:
            for k in range(4):
                totals[k] += int(m.group(k + 1))
    return totals[0], totals[1], totals[2], totals[3]
