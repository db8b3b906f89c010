"""Make untrusted text (generated files, logs, test messages) safe to show in a terminal.

Control characters would otherwise reach the terminal as escape sequences, and bidi or
invisible format characters can make text display differently from what it is. Each such
character is replaced by a visible stand-in made of printable ASCII only, so every font draws
it (the served app's bundled font and many terminal fonts have no Control Pictures such as
U+241B, which showed as a blank or a box) and it looks the same in the terminal, the served
app, the CLI's output, the HTML report and plots:

* C0 controls (except ``\\n`` and ``\\t``) and DEL: their ASCII abbreviation in angle brackets
  (``<ESC>``, ``<BEL>``, ``<NUL>``, ``<CR>``, ``<BS>``, ``<DEL>``, ...: :data:`C0_NAMES`);
* C1 controls (U+0080-U+009F): ``\\x9b``-style escapes;
* every Unicode format character (category Cf: bidi overrides/isolates/marks, zero-width
  space/joiners U+200B-U+200D, soft hyphen, word joiner, BOM, tag characters, ...), the line and
  paragraph separators, the Hangul filler letters (blank "letters" used to hide text) and lone
  surrogates: ``<U+202E>``-style names.

A stand-in is wider than the character it replaces (``<ESC>`` takes five cells): never map
offsets or columns of the raw text onto the sanitised text; compute them on the latter.

Literal text that looks like a stand-in (an input holding the five characters ``<ESC>``) is
shown as typed: :func:`sanitize` must be idempotent (services sanitise what they store, and
the display layers sanitise again), and no idempotent text-to-text mapping can tell the two
apart. That is safe in the direction that matters: every real control character becomes a
stand-in, so one can never hide; a forged ``<ESC>`` can only make harmless text look suspect.

Zero-width joiners are shown too, although emoji sequences (a family emoji is three emoji
joined by U+200D) and some scripts use them: this is an inspector, and a name that looks like
another one must not hide what it holds. ``\\n`` and ``\\t`` stay (multi-line messages, logs
and tracebacks keep their shape); callers that show a single line replace ``\\n`` themselves.

Pure Python (stdlib only). Markup escaping is not this module's job: show the result as plain
text (a Rich ``Text`` in the app, see :mod:`inspector.ui.safe`), never as Rich/Textual markup.
"""

from __future__ import annotations

import re
from typing import Any

_C0 = [c for c in range(0x20) if c not in (0x09, 0x0A)]
_C1 = list(range(0x80, 0xA0))
# Every format character (general category Cf, Unicode 15), written out so the set does not
# depend on the interpreter's Unicode tables; plus separators and blank letters.
_FORMAT = [
    0x00AD,  # SOFT HYPHEN
    *range(0x0600, 0x0606), 0x061C, 0x06DD, 0x070F,  # Arabic/Syriac marks, ARABIC LETTER MARK
    0x0890, 0x0891, 0x08E2,  # Arabic pound/piastre marks, disputed end of ayah
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers: blank "letters" (not Cf)
    0x180E,  # MONGOLIAN VOWEL SEPARATOR
    *range(0x200B, 0x2010),  # ZWSP, ZWNJ, ZWJ, LRM, RLM
    0x2028, 0x2029,  # LINE / PARAGRAPH SEPARATOR (str.splitlines breaks on them)
    *range(0x202A, 0x202F),  # LRE RLE PDF LRO RLO
    *range(0x2060, 0x2065),  # WORD JOINER, invisible operators
    *range(0x2066, 0x2070),  # LRI RLI FSI PDI, deprecated shaping/digit controls
    0xFEFF,  # ZERO WIDTH NO-BREAK SPACE / BOM
    *range(0xFFF9, 0xFFFC),  # interlinear annotation controls
    0x110BD, 0x110CD,  # Kaithi number signs
    *range(0x13430, 0x13440),  # Egyptian hieroglyph format controls
    *range(0x1BCA0, 0x1BCA4),  # shorthand format controls
    *range(0x1D173, 0x1D17B),  # musical symbol beam/tie/slur controls
    0xE0001, *range(0xE0020, 0xE0080),  # tag characters ("ASCII smuggling")
]

#: The ASCII abbreviation of each C0 control (index = code point), and of DEL.
C0_NAMES: tuple[str, ...] = (
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB",
    "ESC", "FS", "GS", "RS", "US")
DEL_NAME = "DEL"

#: ``str.translate`` table: forbidden code point -> visible stand-in.
TRANSLATION: dict[int, str] = {c: f"<{C0_NAMES[c]}>" for c in _C0}
TRANSLATION[0x7F] = f"<{DEL_NAME}>"
TRANSLATION.update({c: f"\\x{c:02x}" for c in _C1})
TRANSLATION.update({c: f"<U+{c:04X}>" for c in (*_FORMAT, *range(0xD800, 0xE000))})

#: Every code point that :func:`sanitize` never lets through.
FORBIDDEN: frozenset[int] = frozenset(TRANSLATION)

# Bytes to delete from the UTF-8 encoding so that only C0/DEL offenders remain.
_NOT_C0 = bytes(b for b in range(0x100) if b >= 0x80 or b not in TRANSLATION)
_ASCII_MARKERS = {b: TRANSLATION[b] for b in range(0x80) if b in TRANSLATION}


def _char_class(code_points: list[int]) -> str:
    """A regex character class of consecutive ranges (one item per code point is ~20x slower)."""
    items: list[str] = []
    start = prev = code_points[0]
    for c in [*code_points[1:], -1]:
        if c != prev + 1:
            items.append(f"\\U{start:08x}" if start == prev else f"\\U{start:08x}-\\U{prev:08x}")
            start = c
        prev = c
    return "[" + "".join(items) + "]"


_NON_ASCII_RUNS = re.compile(_char_class(sorted(c for c in FORBIDDEN if c >= 0x80)) + "+")


def sanitize(text: str) -> str:
    """``text`` with every control, bidi and invisible format character made visible.

    ``\\n`` and ``\\t`` are kept. Text without such characters is returned unchanged (the same
    object). Linear time: 0.01-0.2 s per 10 MB of ordinary text.
    """
    # A plain ``text.translate(TRANSLATION)`` leaves CPython's ASCII fast path at the first
    # replacement and then costs ~0.7 s per 10 MB, so do it in two cheap passes instead.
    # 1. C0/DEL: ASCII bytes never occur inside a multi-byte UTF-8 sequence, so deleting the
    #    allowed ASCII bytes from the encoding leaves exactly the offenders (C speed); then one
    #    str.replace per distinct offender (at most 32).
    ascii_only = text.isascii()
    encoded = text.encode("ascii" if ascii_only else "utf-8", "surrogatepass")
    offenders = encoded.translate(None, _NOT_C0)
    while offenders:
        byte = offenders[0]
        text = text.replace(chr(byte), _ASCII_MARKERS[byte])
        offenders = offenders.replace(bytes((byte,)), b"")
    # 2. Non-ASCII offenders (C1, bidi, format, tags, surrogates): one regex scan finds them;
    #    replace each distinct one, or translate everything if there are many kinds.
    if not ascii_only:
        runs = _NON_ASCII_RUNS.findall(text)
        distinct = set("".join(runs)) if runs else ()
        if len(distinct) > 16:
            return text.translate(TRANSLATION)
        for ch in distinct:
            text = text.replace(ch, TRANSLATION[ord(ch)])
    return text


def sanitize_line(text: str, max_chars: int = 10_000) -> str:
    """:func:`sanitize` of at most ``max_chars`` characters of ``text``, with a
    ``"… (N more characters)"`` suffix when longer."""
    if max_chars < 0:
        raise ValueError("max_chars must be >= 0")
    extra = len(text) - max_chars
    if extra <= 0:
        return sanitize(text)
    return f"{sanitize(text[:max_chars])}… ({extra:,} more characters)"


def sanitize_field(text: str, max_chars: int = 2000) -> str:
    """Untrusted text shown as one field of one line: :func:`sanitize_line`, with ``\\n``
    and ``\\t`` made visible too (``<LF>``, ``<TAB>``), so a value can never start a line of its
    own (a forged "finding" or table row) in a listing."""
    return sanitize_line(text, max_chars).replace("\n", "<LF>").replace("\t", "<TAB>")


REPLACEMENT = "\ufffd"
"""What a lone surrogate (or any code point no encoding can store) becomes at load."""

_SURROGATE = re.compile("[\ud800-\udfff]")
# in JSON text a surrogate can only come from a ``\\uD8xx``-``\\uDFxx`` escape (UTF-8 decoding
# refuses encoded ones), so a document without such an escape needs no walk at all
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def normalize_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (shown as ``�``): the one way
    untrusted strings are made storable (SQLite, UTF-8 files, pickles to other processes)."""
    return _SURROGATE.sub(REPLACEMENT, text) if _SURROGATE.search(text) else text


def json_may_hold_surrogates(text: str) -> bool:
    """Whether a JSON document's text could decode to lone surrogates (``\\ud800``)."""
    return _SURROGATE_ESCAPE.search(text) is not None


def normalize_tree(value: Any) -> Any:
    """A freshly decoded JSON value with :func:`normalize_text` applied to every string (keys
    too), changed in place; iterative, so any depth ``json.loads`` accepted is fine."""
    if isinstance(value, str):
        return normalize_text(value)
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, str):
                    node[i] = normalize_text(v)
                elif isinstance(v, list | dict):
                    stack.append(v)
        elif isinstance(node, dict):
            for k in [k for k in node if isinstance(k, str) and _SURROGATE.search(k)]:
                node[normalize_text(k)] = node.pop(k)
            for k, v in node.items():
                if isinstance(v, str):
                    node[k] = normalize_text(v)
                elif isinstance(v, list | dict):
                    stack.append(v)
    return value
