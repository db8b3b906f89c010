"""CLI output helpers: JSON escaped to printable ASCII on a terminal is the same document."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from inspector.cli.output import SanitizingStream, ascii_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@given(json_values, st.sampled_from([None, 2]))
def test_ascii_json_is_the_same_document_in_printable_ascii(value: object,
                                                            indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    out = ascii_json(text)
    assert json.loads(out) == value
    assert out.isascii() and "\x7f" not in out
    assert not any(ord(c) < 0x20 and c not in "\n" for c in out)


def test_ascii_json_leaves_ascii_json_alone() -> None:
    text = json.dumps({"run": "a\u001b]0;x\u0007"}, indent=2)
    assert ascii_json(text) == text


def test_sanitizing_stream_makes_controls_visible() -> None:
    raw = io.StringIO()
    stream = SanitizingStream(raw)
    print("run\x1b]52;c;eA==\x07 Z\u200dW\tok", file=stream)
    assert raw.getvalue() == "run<ESC>]52;c;eA==<BEL> Z<U+200D>W\tok\n"
    assert stream.isatty()
