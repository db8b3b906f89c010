"""What a shell script of a generated repo (``start.sh`` and the scripts it runs) writes:
redirections, ``tee``, ``cp``/``mv``, ``sed -i``, ``rm``, ``find … -exec``, ``dd of=``,
``curl -o`` into the tests or onto a test report, and which scripts and inline Python it runs.

A light reading of POSIX shell, not an interpreter: words are split with :mod:`shlex`,
variables set by assignments and ``for`` loops are expanded (other expansions stand for an
unknown part), heredoc bodies are kept for the command that reads them. Anything it cannot
follow is ignored, so it can miss a write but does not invent one.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from itertools import islice, product

from inspector.services.tamper.python_code import (
    UNKNOWN,
    Forgery,
    is_report_path,
    is_tests_path,
    shown,
)

_SUBST = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1")
_VAR = re.compile(r"\$\{([A-Za-z_]\w*)(?:[:]?[-=+?]([^}]*))?\}|\$([A-Za-z_]\w*|[0-9@*#?$!])")
_ASSIGN = re.compile(r"^([A-Za-z_]\w*)=(.*)$", re.S)
_SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", ";;", "|&", "((", "))"}
_KEYWORDS = {"do", "then", "else", "elif", "if", "while", "until", "!", "{", "}", "fi",
             "done", "esac", "in"}
_WRAPPERS = {"sudo", "exec", "nohup", "env", "command", "nice", "time", "setsid", "builtin",
             "stdbuf", "ionice", "chronic", "xargs"}
_PYTHON = re.compile(r"^python[\d.]*$|^pypy[\d.]*$")
_SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "source", "."}
_DELETERS = {"rm": "deletes", "unlink": "deletes", "shred": "deletes", "truncate": "empties",
             "touch": "touches"}
_MAX_WORDS = 16
_MAX_JOINED = 200  # lines a quoted string may span
MAX_SCRIPT_CHARS = 128 * 1024  # start scripts are a few lines; the rest is not read
MAX_LINES = 5000
MAX_WRITES = 50
MAX_WORD_CHARS = 1024  # an expanded word is cut here (expansions can grow exponentially)
_NOT_FILES = {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"}


@dataclass
class ShellReport:
    """Writes into the tests or onto a report, and what else the script runs."""

    writes: list[Forgery] = field(default_factory=list)
    scripts: list[tuple[int, str, str]] = field(default_factory=list)  # line, kind, path
    python: list[tuple[int, str]] = field(default_factory=list)  # line, inline code
    shell: list[tuple[int, str]] = field(default_factory=list)  # line, inline shell code


def _logical_lines(text: str) -> list[tuple[int, str, str]]:
    """(first line number, logical line, heredoc body) with continuations joined."""
    raw = text.splitlines()
    out: list[tuple[int, str, str]] = []
    i = 0
    while i < len(raw):
        start = i + 1
        line = raw[i]
        joined = 0
        quote = _open_quote(line, None)
        while i + 1 < len(raw) and joined < _MAX_JOINED and (line.endswith("\\") or quote):
            i += 1
            joined += 1
            if line.endswith("\\") and not quote:
                line = line[:-1] + " " + raw[i]
            else:
                line = line + "\n" + raw[i]
            quote = _open_quote(raw[i], quote)
        i += 1
        body: list[str] = []
        for m in _HEREDOC.finditer(line):
            end = m.group(2)
            while i < len(raw) and raw[i].strip() != end:
                body.append(raw[i])
                i += 1
            i += 1  # the delimiter line
        out.append((start, line, "\n".join(body)))
    return out


def _lexer(line: str) -> shlex.shlex:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return lexer


def _open_quote(text: str, quote: str | None) -> str | None:
    """The quote still open after ``text`` (None: none), starting inside ``quote``; a ``#``
    comment outside quotes ends the scan (``# don't`` opens nothing)."""
    escaped = False
    prev = " "
    for ch in text:
        if quote == "'":
            if ch == "'":
                quote = None
        elif escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif quote == '"':
            if ch == '"':
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and prev in " \t;&|(":
            break
        prev = ch
    return quote


def _words(line: str) -> list[str]:
    try:
        return list(_lexer(_SUBST.sub(UNKNOWN, line)))
    except ValueError:  # a quote never closed: the shell would refuse the line too
        return []


def _commands(words: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for w in words:
        if w in _SEPARATORS:
            out.append([])
        else:
            out[-1].append(w)
    return [c for c in out if c]


class _Reader:
    def __init__(self) -> None:
        self.report = ShellReport()
        self.vars: dict[str, list[str]] = {}

    def expand(self, word: str) -> list[str]:
        values = [word]
        for _ in range(3):  # nested variables, a few levels deep
            nxt: list[str] = []
            for v in values:
                if "$" not in v:
                    nxt.append(v)
                    continue
                parts = _VAR.split(v)
                # split gives: text, name, default, short name, text, …
                pieces: list[list[str]] = []
                for k in range(0, len(parts), 4):
                    pieces.append([parts[k]])
                    if k + 1 < len(parts):
                        name = parts[k + 1] or parts[k + 3]
                        default = parts[k + 2]
                        found = self.vars.get(name or "")
                        pieces.append([x[:MAX_WORD_CHARS] for x in found] if found else
                                      [default[:MAX_WORD_CHARS]] if default else [UNKNOWN])
                room = _MAX_WORDS - len(nxt)
                nxt.extend("".join(p)[:MAX_WORD_CHARS]
                           for p in islice(product(*pieces), max(room, 0)))
                if len(nxt) >= _MAX_WORDS:
                    break
            values = nxt[:_MAX_WORDS]
        return [v[:MAX_WORD_CHARS] for v in values]

    def write(self, line: int, verb: str, word: str) -> None:
        for path in self.expand(word):
            clean = path.removeprefix("./")
            if clean in _NOT_FILES or clean.startswith("&"):
                continue
            if is_tests_path(clean):
                self.report.writes.append(Forgery(line, f"{verb} {shown(clean)} (the tests)"))
                return
            if is_report_path(clean, strict=False):
                self.report.writes.append(Forgery(line, f"{verb} {shown(clean)} "
                                                        "(a test report)"))
                return

    def read(self, text: str, offset: int = 0) -> ShellReport:
        for number, line, body in _logical_lines(text[:MAX_SCRIPT_CHARS])[:MAX_LINES]:
            for cmd in _commands(_words(line)):
                self.command(number + offset, cmd, body)
            if len(self.report.writes) >= MAX_WRITES:
                break
        return self.report

    def command(self, line: int, words: list[str], body: str) -> None:
        while words and words[0] in _KEYWORDS:
            words = words[1:]
        if not words:
            return
        if words[0] == "for" and len(words) >= 2:
            name = words[1]
            values = [v for w in words[3:] if w not in ("do",) for v in self.expand(w)]
            self.vars[name] = values[:_MAX_WORDS] or [UNKNOWN]
            return
        args: list[str] = []
        i = 0
        while i < len(words):
            w = words[i]
            if set(w) <= set("<>&|0123456789") and ">" in w and i + 1 < len(words):
                target = words[i + 1]
                if not (w.endswith("&") and target.isdigit()) and target != "-":
                    self.write(line, "writes", target)
                i += 2
                continue
            if w.startswith("<") and set(w) <= set("<-") and i + 1 < len(words):
                i += 2  # input redirection or heredoc delimiter
                continue
            args.append(w)
            i += 1
        # leading assignments and wrappers
        while args:
            m = _ASSIGN.match(args[0])
            if m:
                self.vars[m.group(1)] = self.expand(m.group(2))[:_MAX_WORDS]
                args = args[1:]
            elif args[0] in ("export", "local", "declare", "readonly", "typeset"):
                args = [a for a in args[1:] if not a.startswith("-")]
                for a in args:
                    m = _ASSIGN.match(a)
                    if m:
                        self.vars[m.group(1)] = self.expand(m.group(2))[:_MAX_WORDS]
                return
            elif args[0] in _WRAPPERS:
                args = args[1:]
                while args and (args[0].startswith("-") or args[0].isdigit()):
                    args = args[1:]
            elif args[0] == "timeout" and len(args) > 1:
                args = args[2:]
            else:
                break
        if args:
            self.run(line, args, body)

    def run(self, line: int, args: list[str], body: str) -> None:
        prog = args[0].rsplit("/", 1)[-1]
        rest = args[1:]
        plain = [a for a in rest if not a.startswith("-")]
        if prog == "tee":
            for a in plain:
                self.write(line, "writes", a)
        elif prog in ("cp", "mv", "install", "rsync", "ln") and plain:
            target = next((rest[k + 1] for k, a in enumerate(rest[:-1])
                           if a in ("-t", "--target-directory")), plain[-1])
            self.write(line, "replaces", target)
        elif prog in ("sed", "perl") and any(a.startswith(("-i", "--in-place")) or
                                             (prog == "perl" and a.startswith("-p") and "i" in a)
                                             for a in rest):
            scripted = any(a in ("-e", "-f", "--expression", "--file") for a in rest)
            for a in plain[0 if scripted else 1:]:
                self.write(line, "rewrites", a)
        elif prog in _DELETERS:
            for a in plain:
                self.write(line, _DELETERS[prog], a)
        elif prog == "dd":
            for a in rest:
                if a.startswith("of="):
                    self.write(line, "writes", a[3:])
        elif prog in ("curl", "wget"):
            flags = ("-o", "--output") if prog == "curl" else ("-O", "--output-document")
            for k, a in enumerate(rest[:-1]):
                if a in flags:
                    self.write(line, "downloads onto", rest[k + 1])
        elif prog == "find" and any(a in ("-delete", "-exec", "-execdir", "-ok") for a in rest):
            for a in rest:
                if a.startswith(("-", "(", "!")):
                    break
                self.write(line, "rewrites (find)", a)
        elif _PYTHON.match(prog):
            self.python(line, rest, body)
        elif prog in _SHELLS:
            if "-c" in rest and rest.index("-c") + 1 < len(rest):
                self.report.shell.append((line, rest[rest.index("-c") + 1]))
            elif plain:
                self.report.scripts.append((line, "shell", plain[0]))
            elif body:
                self.report.shell.append((line, body))
        elif args[0].startswith(("./", "/")) or prog.endswith((".sh", ".py")):
            kind = "python" if prog.endswith(".py") else "shell"
            self.report.scripts.append((line, kind, args[0]))

    def python(self, line: int, rest: list[str], body: str) -> None:
        k = 0
        while k < len(rest):
            a = rest[k]
            if a == "-c" and k + 1 < len(rest):
                self.report.python.append((line, rest[k + 1]))
                return
            if a == "-m" and k + 1 < len(rest):
                self.report.scripts.append((line, "module", rest[k + 1]))
                return
            if a == "-" or not a.startswith("-"):
                if a == "-" and body:
                    self.report.python.append((line, body))
                elif a != "-":
                    self.report.scripts.append((line, "python", a))
                return
            k += 1
        if body:
            self.report.python.append((line, body))


def analyse_shell(text: str, offset: int = 0) -> ShellReport:
    """What a shell script writes and runs (line numbers shifted by ``offset``)."""
    reader = _Reader()
    try:
        return reader.read(text, offset)
    except RecursionError:  # pathological input: keep what was found
        return reader.report
