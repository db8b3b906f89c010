"""The request composer's text fields read as request parts."""

from __future__ import annotations

from inspector.ui.request.fields import is_json, parse_headers, parse_query


def test_query_lines_are_pairs_and_blank_lines_are_skipped() -> None:
    assert parse_query("a=1\n\n b = two \nflag") == (("a", "1"), ("b", "two"), ("flag", ""))


def test_a_header_line_without_a_colon_is_named_as_a_problem() -> None:
    headers, problems = parse_headers("Accept: application/json\nbroken\n\nX-A:b:c")
    assert headers == (("Accept", "application/json"), ("X-A", "b:c"))
    assert problems == ["header line 'broken' must be 'Name: value'"]


def test_is_json() -> None:
    assert is_json('{"a": [1]}') and not is_json("{a: 1}")
