"""Patterns for reading failure text: traceback frames, library paths, connection failures and
missing modules. One place, so every reader (label rules, triage, references, log levels,
assertion facts) recognises the same lines the same way.

Frames come in two spellings, each with a strict form (a whole stripped line, with the
function) and a loose form (a prefix or anywhere in text):

* Python's own ``File "app/x.py", line 12, in f``;
* pytest's ``app/x.py:12: in f`` (or ``app/x.py:12: KeyError``).
"""

from __future__ import annotations

import re

_PY_FRAME_BODY = r'File "(?P<path>[^"\n]+)", line (?P<line>\d+)'

PY_FRAME = re.compile(rf"^{_PY_FRAME_BODY}(?:, in (?P<func>.+))?$")
"""A whole (stripped) line of a Python traceback naming a frame: path, line, function."""

PY_FRAME_ANYWHERE = re.compile(_PY_FRAME_BODY)
"""A Python traceback frame anywhere in text (path, line), for references to open."""

PY_FRAME_INDENTED = re.compile(r'^\s*File "(?P<path>[^"]+\.py)", line (?P<line>\d+)'
                               r"(?:, in (?P<func>\S+))?")
"""A Python frame naming a ``.py`` file, indentation allowed (assertion facts)."""

PY_FRAME_LOG = re.compile(r"(?:\|\s+)?File \"[^\"]*\", line \d+")
"""A frame line of a traceback in a log, possibly inside an exception group's ``|`` box."""

PYTEST_FRAME = re.compile(r"^(?P<path>[^\s:]+\.py):(?P<line>\d+): (?:in (?P<func>.+)|\w+)$")
"""A whole (stripped) line of pytest's long traceback naming a frame."""

PYTEST_FRAME_PREFIX = re.compile(r"^(?P<path>[^\s:][^:]*\.py):(?P<line>\d+): ")
"""The start of a pytest frame line (the path may hold spaces): ``path:line: ``."""

PYTEST_FRAME_FULL = re.compile(r"^(?P<path>(?!E\s)[^\s:][^:\n]*?\.py):(?P<line>\d+):"
                               r"(?: in (?P<func>\S+)| (?P<exc>[A-Za-z_][\w.]*)\b.*)?\s*$")
"""A whole pytest frame line, never an ``E`` line: path, line, and the function (``in f``)
or the exception raised there (``KeyError``)."""

FILE_LINE_ANYWHERE = re.compile(r"(?P<path>[\w./\\-]+\.\w+):(?P<line>\d+)(?::|\b)")
"""``path.ext:line`` anywhere in text (pytest, compilers)."""

JAVA_FRAME = re.compile(r"\((?P<path>[\w$-]+\.java):(?P<line>\d+)\)")
"""The ``(File.java:12)`` of a Java stack frame."""

LIBRARY_PATH = re.compile(r"(?:site-packages|dist-packages)/|/lib/python\d|^<|/\.pyenv/|/\.venv/")
"""A frame path of an installed library or the interpreter, not of a repository."""

LIBRARY_OR_TOOL_PATH = re.compile(r"(?:site-packages|dist-packages|/lib/python\d|"
                                  r"/lib64/python\d|^<|/\.pyenv/|/usr/lib/|^\.?venv/|/\.venv/|"
                                  r"/_pytest/|/pluggy/)")
""":data:`LIBRARY_PATH` plus system paths, relative virtualenvs and pytest's own frames."""

SITE_PACKAGE = re.compile(r"(?:site|dist)-packages/(?P<pkg>[A-Za-z_][\w]*)")
"""The installed package a library path belongs to."""

NO_MODULE = re.compile(r"No module named '(?P<name>[\w.]+)'(?P<rest>.*)")
"""``No module named 'X'`` (``name``), with what follows on the line (``rest``)."""

CONNECTION_FAILURE = re.compile(
    r"ConnectionError|Connection refused|ConnectError|Max retries exceeded|"
    r"RemoteDisconnected|ConnectionResetError|Failed to establish a new connection|"
    r"Connection aborted|ReadTimeout|ConnectTimeout|"
    r"(?:java\.net\.)?ConnectException|HttpConnectTimeoutException", re.I)
"""A test's error saying the service could not be reached (or stopped answering); Java's
clients say ``java.net.ConnectException`` / ``HttpConnectTimeoutException``."""

CONNECTION_ERROR_TYPES = frozenset({
    "ConnectionError", "ConnectionRefusedError", "ConnectTimeout", "ConnectError",
    "NewConnectionError", "MaxRetryError", "RemoteDisconnected", "ConnectionResetError",
    "ConnectionAbortedError", "ClientConnectorError"})
"""Exception types (unqualified) raised when a client cannot reach a service."""

CONNECTION_REASONS = ("connection refused", "name or service not known", "connection reset",
                      "remotedisconnected", "connection aborted",
                      "all connection attempts failed", "failed to establish a new connection",
                      "max retries exceeded")
"""Lower-case phrases of a connection failure in an exception's message."""

CONNECTION_REASON = re.compile("(?i)(" + "|".join(CONNECTION_REASONS) + ")")
"""Any of :data:`CONNECTION_REASONS`, case-insensitive."""

SCAN_CHARS = 4000
"""How much of a failure text the connection checks read."""


def is_connection_failure(text: str) -> bool:
    """Whether a test's error says the service could not be reached."""
    return bool(CONNECTION_FAILURE.search(text[:SCAN_CHARS]))


def is_connection_error(exc_type: str | None, text: str) -> bool:
    """Whether an exception (its type, maybe qualified, and its text) is a failure to reach
    the service; an assertion that merely mentions one is not."""
    short = (exc_type or "").rsplit(".", 1)[-1]
    if short in CONNECTION_ERROR_TYPES:
        return True
    return short not in ("AssertionError", "Failed") and bool(
        CONNECTION_REASON.search(text[:SCAN_CHARS]))


def missing_module(text: str) -> str | None:
    """The module a ``No module named 'X'`` in ``text`` names, or None."""
    m = NO_MODULE.search(text)
    return m["name"] if m else None
