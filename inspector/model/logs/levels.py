"""What kind of log line is this: errors, warnings, tracebacks, pip, pytest, harness notes, noise.

`classify` runs for every visible line on every repaint, so it is built from cheap ``str``
checks that pick one or two precompiled regexes. `PREFILTER` holds, per flag, a bytes regex
that finds every raw stored line (``<timestamp>\\t<stream>\\t<text>``) that `classify` could
give that flag without context, so a 1 GB log can be scanned quickly and only the candidates
verified with `classify`. ANSI escape sequences are removed before classifying; the prefilters
tolerate them between tokens (where pytest, pip and werkzeug put them), not inside a keyword.
"""

from __future__ import annotations

import enum
import re

from inspector.model.failures.text import PY_FRAME_LOG


class Level(enum.IntFlag):
    """Flags of one log line; a line may carry several (e.g. a pytest FAILED line)."""

    NONE = 0
    ERROR = 1
    WARNING = 2
    TRACEBACK = 4
    PIP = 8
    PYTEST = 16
    META = 32
    NOISE = 64


_E = int(Level.ERROR)
_W = int(Level.WARNING)
_TB = int(Level.TRACEBACK)
_PIP = int(Level.PIP)
_PT = int(Level.PYTEST)
_META = int(Level.META)
_NOISE = int(Level.NOISE)
_TB_OPEN_MASK = _TB | _E  # prev has TRACEBACK but not ERROR: inside a traceback
_ALL_LEVELS: tuple[Level, ...] = tuple(Level(i) for i in range(128))  # IntFlag ops are slow

_ANSI_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")

# --- tracebacks ---------------------------------------------------------------------------
_TB_HEAD = "Traceback (most recent call last)"
_TB_CHAIN = (
    "During handling of the above exception",
    "The above exception was the direct cause",
)
_FILE_RE = PY_FRAME_LOG
_EXC_NAME_RE = re.compile(r"((?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*))(?::(?:\s.*)?)?$")

# --- harness / RepoGenesis markers ---------------------------------------------------------
_MARKERS = (">>>>>", "DSR_RESULT=", "DSR_MESSAGE=", "TEST_EXIT_CODE=")

# --- pytest ----------------------------------------------------------------------------------
_OUTCOMES = ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS", "RERUN")
_OUTCOME_ALT = "|".join(_OUTCOMES)
_BAD_OUTCOMES = frozenset(("FAILED", "ERROR"))
# possessive `++` keeps long tokens from backtracking (no quadratic time on odd lines)
_REF_SUFFIX_RE = re.compile(
    rf"(?P<id>[^\s\[]++(?:\[.*?\])?) (?P<outcome>{_OUTCOME_ALT})(?=\s|$)")
_REF_PREFIX_RE = re.compile(
    rf"(?:\[gw\d+\] (?:\[\s*\d+%\] )?)?(?P<outcome>{_OUTCOME_ALT}) "
    r"(?P<id>[^\s\[]++(?:\[.*?\])?)(?=\s|$)")
_HEADER_EQ_RE = re.compile(r"(=+) (.+) (=+)$")
_SUMMARY_BODY_RE = re.compile(r"\bin \d+(?:\.\d+)?s\b|no tests ran")
_HEADER_US_RE = re.compile(r"_+ \S.* _+$")
_HEADER_BANG_RE = re.compile(r"!+ .* !+$")
_BAD_COUNTS_RE = re.compile(r"\b[1-9]\d* (?:failed|errors?)\b")
_LOCATION_RE = re.compile(
    r"\S.*?\.py:\d+: (?:in \S+|(?P<exc>[\w.]*(?:Error|Exception|Failed|Exit)\w*))$")
_PROGRESS_RE = re.compile(r"\S+\.py (?P<dots>[.FEsxXR]+)(?:\s+\[\s*\d+%\])?$")
_PERCENT_RE = re.compile(r"\[\s*\d{1,3}%\]$")
_OUTCOME_LINE_RE = re.compile(
    rf"(?:test\w*(?:\[.*?\])? (?P<o1>{_OUTCOME_ALT})\b"
    rf"|(?P<o2>{_OUTCOME_ALT})(?:\s.*)?\s\[\s*\d+%\]$"
    r"|SKIPPED \[\d+\] )")
_PYTEST_PREFIXES = ("rootdir:", "plugins:", "configfile:", "cachedir:", "testpaths:",
                    "collecting ", "collected ", "-- Docs:", "- generated xml file:")

# --- pip -------------------------------------------------------------------------------------
_PIP_NOISE = ("Collecting ", "Downloading ", "Using cached ", "Requirement already satisfied",
              "Stored in directory:")
_PIP_INFO = _PIP_NOISE + (
    "Requirement already up-to-date", "Installing collected packages", "Successfully installed",
    "Successfully built", "Successfully uninstalled", "Building wheel for ",
    "Building wheels for collected packages", "Created wheel for ", "Attempting uninstall:",
    "Found existing installation:", "Uninstalling ", "Obtaining ", "Preparing metadata",
    "Getting requirements to build", "Installing build dependencies",
    "Installing backend dependencies", "Building editable for ", "Looking in indexes:",
    "Looking in links:", "[notice] ", "The conflict is caused by:", "The user requested ",
    "To fix this you could try to", "Discarding ", "Ignoring ")
_PIP_OTHER = (
    "ERROR: Could not find a version", "ERROR: No matching distribution",
    "ERROR: Cannot install ", "ERROR: ResolutionImpossible", "ERROR: pip's dependency resolver",
    "ERROR: Could not install packages", "ERROR: Failed building wheel", "ERROR: Failed to build ",
    "ERROR: Could not build wheels", "ERROR: Invalid requirement",
    "ERROR: Could not open requirements file", "ERROR: Command errored out",
    "error: subprocess-exited-with-error", "error: metadata-generation-failed",
    "error: externally-managed-environment", "note: This error originates from a subprocess",
    "× ", "╰─> ", "WARNING: Retrying ", "WARNING: The script", "WARNING: Running pip as",
    "WARNING: Location ", "WARNING: You are using pip version", "WARNING: Skipping ",
    "WARNING: Ignoring invalid distribution", "WARNING: Requirement ", "WARNING: pip is ",
    "WARNING: Url ", "WARNING: Package(s) not found", "WARNING: There was an error checking",
    "WARNING: Built wheel for ", "WARNING: Generating metadata", "DEPRECATION: ")
_PIP_OTHER_FLAGS = {"E": _E, "e": _E, "×": _E, "W": _W, "D": _W}  # by first character
_PIP_BARS = ("━━", "██")
_MAVEN_TRANSFER = ("[INFO] Downloading from ", "[INFO] Downloaded from ")
_PIP_PROCESSING_RE = re.compile(r"Processing (?:\.{0,2}/|\S+\.(?:whl|tar\.gz|zip)\b)")

# --- servers ----------------------------------------------------------------------------------
_ACCESS_RE = re.compile(r"\"[A-Z]+ \S* ?HTTP/\d(?:\.\d)?\" (?P<status>\d{3})\b")

# --- generic errors and warnings ------------------------------------------------------------
# Python's re scans slowly for alternations, so each rule is guarded by a plain substring test
# (C speed) and its regex, when it has one, is anchored (`match`) or starts with a literal.
_ERROR_WORDS = ("ERROR", "FAILED", "FAILURE", "FATAL", "CRITICAL", "Killed", "OOMKilled")
_ERROR_PHRASES = ("npm ERR!", "Segmentation fault", "ore dumped", "command not found",
                  "No such file or directory", "ddress already in use", "Permission denied",
                  "[error]", "[crit]")
_ERROR_START_RE = re.compile(
    r"(?:Caused by: )?(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception)(?::|$)"
    r"|Exception in thread "
    r"|(?:[Ee]rror|fatal|[Ff]atal error|panic)(?:\[[\w-]+\])?:"
    r"|× ")
_ERROR_START_HINTS = ("rror", "xception", "fatal", "panic", "× ")
_ERROR_COLON_RE = re.compile(r": (?:[Ee]rror|fatal|[Ff]atal error|panic)(?:\[[\w-]+\])?:")
_EXIT_RE = re.compile(r"exit(?:ed)?(?: with)?(?: exit)? (?:code|status)[:= ]*(?!0+\b)-?\d+")
_LEVEL_RE = re.compile(r"level(?:=|\": ?\")(?:(?P<e>error|fatal|crit)|(?P<w>warn))")
_WARNING_WORDS = ("WARNING", "WARN")
_WARNING_PHRASES = ("npm warn", "[warn]", "[warning]")
_WARNING_COLON_RE = re.compile(r"(?:^|(?<=[\s\[(]))[Ww]arning:|(?<=\w)Warning:")


def _has_word(st: str, word: str) -> bool:
    """`word` occurs in `st` with no letter, digit or underscore on either side."""
    i = st.find(word)
    n = len(word)
    while i >= 0:
        j = i + n
        if (i == 0 or not (st[i - 1].isalnum() or st[i - 1] == "_")) and (
                j == len(st) or not (st[j].isalnum() or st[j] == "_")):
            return True
        i = st.find(word, i + 1)
    return False


def _is_error(st: str) -> bool:
    if not ("ERR" in st or "rror" in st or "FAIL" in st or "FATAL" in st or "CRIT" in st
            or "Kill" in st or "xception" in st or "fatal" in st or "panic" in st or "×" in st
            or "fault" in st or "dumped" in st or "not found" in st or "No such" in st
            or "in use" in st or "denied" in st or "exit" in st or "crit" in st):
        return False  # the cheap gate: every rule below needs one of these
    for hint in _ERROR_START_HINTS:  # first: exception lines are the commonest errors
        if hint in st:
            if _ERROR_START_RE.match(st) or (": " in st and _ERROR_COLON_RE.search(st)):
                return True
            break
    for word in _ERROR_WORDS:
        if word in st and _has_word(st, word):
            return True
    for phrase in _ERROR_PHRASES:
        if phrase in st:
            return True
    if "npm error" in st and _has_word(st, "npm error"):
        return True
    if "exit" in st and _EXIT_RE.search(st):
        return True
    if "level" in st:
        m = _LEVEL_RE.search(st)
        return m is not None and m["e"] is not None
    return False


def _is_warning(st: str) -> bool:
    if "WARN" not in st and "arn" not in st:
        return False
    for word in _WARNING_WORDS:
        if word in st and _has_word(st, word):
            return True
    if "arning:" in st and _WARNING_COLON_RE.search(st):
        return True
    for phrase in _WARNING_PHRASES:
        if phrase in st:
            return True
    if "level" in st:
        m = _LEVEL_RE.search(st)
        return m is not None and m["w"] is not None
    return False


def _generic(st: str) -> int:
    """ERROR/WARNING flags from keywords anywhere in a stripped line."""
    return (_E if _is_error(st) else 0) | (_W if _is_warning(st) else 0)


def _by_first_char(prefixes: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for prefix in prefixes:
        table.setdefault(prefix[0], []).append(prefix)
    return {c: tuple(group) for c, group in table.items()}


_MARKERS_AT = _by_first_char(_MARKERS)
_PYTEST_PREFIXES_AT = _by_first_char(_PYTEST_PREFIXES)
_PIP_INFO_AT = _by_first_char(_PIP_INFO)
_PIP_OTHER_AT = _by_first_char(_PIP_OTHER)


def _bad_counts(st: str) -> int:
    """ERROR when a pytest summary counts failures or errors ("1 failed", "2 errors")."""
    if ("failed" in st or "error" in st) and _BAD_COUNTS_RE.search(st):
        return _E
    return 0


def _test_ref(st: str) -> tuple[str, str] | None:
    if "::" in st:
        m = _REF_SUFFIX_RE.match(st)
        if m is not None and "::" in m["id"]:
            return m["id"], m["outcome"]
    if st.startswith(_OUTCOMES) or st.startswith("[gw"):
        m = _REF_PREFIX_RE.match(st)
        if m is not None:
            node = m["id"]
            if "::" in node or node.endswith(".py"):
                return node, m["outcome"]
    return None


def pytest_test_ref(text: str) -> tuple[str, str] | None:
    """(node id, outcome) of a pytest per-test line, e.g. ("tests/test_a.py::test_y", "FAILED").

    Handles verbose lines (``path::name PASSED [ 12%]``, ``SKIPPED (reason)``, XFAIL/XPASS),
    short-summary lines (``FAILED path::name - msg``, ``ERROR path.py``) and xdist's
    ``[gw0] [ 50%] PASSED path::name``; None for any other line."""
    if "\x1b" in text:
        text = _ANSI_RE.sub("", text)
    return _test_ref(text.strip())


def _classify(text: str, in_traceback: bool) -> int:
    st = text.strip()
    if not st:
        return _NOISE
    indented = text[0] in " \t"
    if in_traceback:
        if indented:
            return _TB
        m = _EXC_NAME_RE.match(st)
        if m is not None and not m[2].isupper():
            return _TB | _E
    c = st[0]

    # tracebacks
    if _TB_HEAD in st:
        return _TB
    if indented and (c == "F" or c == "|") and _FILE_RE.match(st):
        return _TB
    if (c == "D" or c == "T") and st.startswith(_TB_CHAIN):
        return _TB

    # harness markers
    pre = _MARKERS_AT.get(c)
    if pre is not None and st.startswith(pre):
        return _META

    # pytest
    if c == "E" and text.startswith("E   "):
        return _PT | _E
    if "::" in st or c in "PFESXR[":
        ref = _test_ref(st)
        if ref is not None:
            return _PT | _E if ref[1] in _BAD_OUTCOMES else _PT
    if c == "=":
        m = _HEADER_EQ_RE.match(st)
        if m is not None and ((len(m[1]) >= 3 and len(m[3]) >= 3)
                              or _SUMMARY_BODY_RE.search(m[2])):
            return _PT | _bad_counts(st)
    elif c == "_":
        if _HEADER_US_RE.match(st):  # "___ test_x ___", "___ ERROR collecting x.py ___"
            return _PT | _E if _has_word(st, "ERROR") else _PT
    elif c == "!":
        if _HEADER_BANG_RE.match(st):
            return _PT | _bad_counts(st)
    elif c == "[":
        if _PERCENT_RE.match(st):
            return _PT | _NOISE
    elif c == "p" and st.startswith("platform ") and " -- Python" in st:
        return _PT
    pre = _PYTEST_PREFIXES_AT.get(c)
    if pre is not None and st.startswith(pre):
        return _PT | _bad_counts(st)
    if ".py:" in st:
        m = _LOCATION_RE.match(st)
        if m is not None:
            return _PT | _E if m["exc"] else _PT
    if ".py " in st:
        m = _PROGRESS_RE.match(st)
        if m is not None:
            dots = m["dots"]
            return _PT | _E if ("F" in dots or "E" in dots) else _PT
    if c in "PFESXRt":
        m = _OUTCOME_LINE_RE.match(st)
        if m is not None:
            outcome = m["o1"] or m["o2"]
            return _PT | _E if outcome in _BAD_OUTCOMES else _PT

    # Maven's artifact transfers: the package manager's noise, like pip's downloads
    if c == "[" and st.startswith(_MAVEN_TRANSFER):
        return _PIP | _NOISE

    # pip
    pre = _PIP_INFO_AT.get(c)
    if pre is not None and st.startswith(pre):
        return _PIP | _NOISE if st.startswith(_PIP_NOISE) else _PIP
    pre = _PIP_OTHER_AT.get(c)
    if pre is not None and st.startswith(pre):
        return _PIP | _PIP_OTHER_FLAGS.get(c, 0)
    if "━━" in st or "██" in st:
        return _PIP | _NOISE
    if c == "P" and _PIP_PROCESSING_RE.match(st):
        return _PIP
    if "but you have" in st and "requires " in st and "which is incompatible" in st:
        return _PIP  # the resolver's "x 1.0 requires y<2, but you have y 3.0 which is ..."

    # HTTP access logs (uvicorn, werkzeug, gunicorn): noise unless the server failed
    if "HTTP/" in st:
        m = _ACCESS_RE.search(st)
        if m is not None:
            return _E if m["status"][0] == "5" else _NOISE

    return _generic(st)


def classify(text: str, stream: str = "out", prev: Level = Level.NONE) -> Level:
    """Flags of one log line; `prev` is the previous line's flags (for traceback continuation).

    Inside a traceback (`prev` has TRACEBACK but not ERROR) an indented line is TRACEBACK and
    the first unindented ``Name: msg`` / ``pkg.Name: msg`` / ``Name`` line is TRACEBACK|ERROR;
    any other unindented line ends the traceback. Lines of the ``meta`` stream are META plus
    whatever their text says (e.g. ``process exited with code 1`` is META|ERROR)."""
    if "\x1b" in text:
        text = _ANSI_RE.sub("", text)
    flags = _classify(text, int.__and__(prev, _TB_OPEN_MASK) == _TB)
    if stream == "meta":
        flags |= _META
    return _ALL_LEVELS[flags]


_FLAG_ORDER = (Level.ERROR, Level.WARNING, Level.TRACEBACK, Level.PIP, Level.PYTEST, Level.META,
               Level.NOISE)


def level_names(level: Level) -> list[str]:
    """Lower-case names of the flags set in `level`, in flag order, e.g. ["error", "pytest"]."""
    return [str(flag.name).lower() for flag in _FLAG_ORDER if int(level) & int(flag)]


LEVEL_CHOICES: dict[str, Level] = {
    "errors": Level.ERROR,
    "warnings": Level.WARNING,
    "tracebacks": Level.TRACEBACK,
    "pip": Level.PIP,
    "pytest": Level.PYTEST,
    "meta": Level.META,
}


# --- prefilters on raw bytes --------------------------------------------------------------
# classify() removes escape sequences, so a pattern allows them wherever two tokens meet (where
# letters/digits, spaces and punctuation change over), as colouring tools put them.
_ESC = rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|[@-Z\\-_])"
_A = rb"(?:" + _ESC + rb")*"


def _kind(ch: str) -> int:
    return 0 if ch.isalnum() else 1 if ch.isspace() else 2


def _tolerant(phrase: str) -> bytes:
    """`phrase` as a bytes pattern that allows escape sequences between its tokens."""
    out = [re.escape(phrase[0].encode())]
    for before, ch in zip(phrase, phrase[1:], strict=False):
        if _kind(before) != _kind(ch):
            out.append(_A)
        out.append(re.escape(ch.encode()))
    return b"".join(out)


def _any(*phrases: str) -> bytes:
    return b"|".join(_tolerant(p) for p in phrases)


PREFILTER: dict[Level, re.Pattern[bytes]] = {
    # case-sensitive alternatives that each start with a literal byte: re then skips ahead fast
    Level.ERROR: re.compile(
        _any("ERR", "error", "Error", "FAIL", "fail", "Fail", "FATAL", "fatal", "Fatal", "CRIT",
             "crit", "Kill", "xception", "Exit", "exit", "panic", "Segmentation fault",
             "ore dumped", "command not found", "No such file", "ddress already in use",
             "Permission denied", "E   ", "× ")
        + b"|" + _tolerant(".py ") + rb"(?:[.sxXR]|" + _ESC + rb")*[FE]|"
        + _tolerant('" ') + _A + rb"5\d\d"),
    Level.WARNING: re.compile(_any("WARN", "Warn", "warn")),
    Level.TRACEBACK: re.compile(
        _any("Traceback (most recent call last)", 'File "', *_TB_CHAIN)),
    Level.PIP: re.compile(
        _any(*_PIP_INFO, *_PIP_OTHER, *_PIP_BARS, "Processing ", "but you have",
             "Downloaded from ")),
    Level.PYTEST: re.compile(
        _any(*_OUTCOMES, "::", "E   ", "=== ", "_ ", "! ", "%]", ".py ", ".py:", "no tests ran",
             "platform ", *_PYTEST_PREFIXES) + b"|" + _tolerant("in ") + _A + rb"\d"),
    Level.META: re.compile(rb"\tmeta\t|" + _any(*_MARKERS)),
}
"""Per flag, a bytes regex that `search`-matches every raw line `classify` could give that flag
without context (a superset: verify candidates with `classify`). TRACEBACK continuation lines
are found by reading on from a ``Traceback (most recent call last)`` / ``File "`` match."""
