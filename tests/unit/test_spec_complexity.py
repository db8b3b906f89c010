"""Spec complexity on real bundled READMEs, against counts made by hand (and by `wc -w`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model.readme.spec_complexity import spec_complexity, tier_for

TASKS = Path(__file__).resolve().parents[2] / "sample_runs" / "tasks" / "repo"


def _spec(task: str):  # noqa: ANN202
    return spec_complexity((TASKS / task / "README.md").read_text(encoding="utf-8"), task)


def test_flask_readme_hand_count() -> None:
    s = _spec("flask")
    # `wc -w` says 231; 10 of those tokens are only punctuation ('{', '}', '-')
    assert s.words == 221
    assert [(m.line, m.what) for m in s.endpoints] == [
        (15, "GET /health"), (29, "POST /echo"), (48, "GET /sum")]
    r = s.resources
    # output {"status"} (l.24), input {"message"} (l.36), output {"message","length"}
    # (l.42-43), output {"result"} (l.57); the query "a=<int>&b=<int>" is not a schema
    assert [(m.line, m.what) for m in r.primitive] == [
        (24, "status"), (36, "message"), (42, "message"), (43, "length"), (57, "result")]
    assert (r.collection, r.objects, r.untyped) == ((), (), ())
    assert [(m.line, m.what) for m in s.packages] == [(1, "flask")]
    assert s.dependencies == ()
    assert not any(s.flags.values())
    # 3/20*3 + 5/80*2 + 221/1000*1.5 + 1/6*1 = 0.45 + 0.125 + 0.3315 + 0.1667
    assert s.score == pytest.approx(1.07, abs=0.01)
    assert s.tier == "low"


def test_eve_readme_hand_count() -> None:
    s = _spec("eve")
    assert s.words == 360  # `wc -w` 403, less 43 lone '-' bullets
    assert [(m.line, m.what) for m in s.endpoints] == [
        (33, "GET /people"), (38, "POST /people"), (44, "GET /people/{id}"),
        (48, "PUT /people/{id}"), (56, "DELETE /people/{id}")]
    # the "Schema (request/response)" block: PeopleCreate (3 fields, l.19-21) and People
    # (5 fields, l.24-28); the `_items` array of l.36 is prose, not a schema
    r = s.resources
    assert [m.line for m in r.primitive] == [19, 20, 21, 24, 25, 26, 27, 28]
    assert len(r.collection) == len(r.objects) == len(r.untyped) == 0
    assert [m.what for m in s.packages] == ["eve"]
    assert not any(s.flags.values())


def test_javalin_online_judge_hand_count() -> None:
    s = _spec("javalin-online-judge")
    assert s.words == 340  # `wc -w` 427, less 87 markup-only tokens ('-', '####', '}`'...)
    assert len(s.endpoints) == 18
    assert [m.line for m in s.endpoints] == [27, 30, 35, 37, 42, 45, 47, 49, 52, 56, 59, 62,
                                             66, 69, 71, 73, 75, 79]
    r = s.resources
    # User 4 + Problem 6 + Submission 7 + Contest 5 (l.19-22), register 3, login 2 + token 1,
    # PATCH 1, submission 3, standings 2: 34 fields; Contest.problemIds ["string"] is the
    # only collection
    assert len(r.primitive) == 33
    assert [(m.line, m.what) for m in r.collection] == [(22, "problemIds")]
    assert len(r.objects) == len(r.untyped) == 0
    assert [m.line for m in s.flags["auth"]][:2] == [7, 26]
    assert not s.flags["database"] and not s.flags["upload"]
    assert [m.what for m in s.packages] == ["javalin"]
    # 18/20*3 + (33+2)/80*2 + 340/1000*1.5 + 1/6 + 0.625 (auth) = 4.876
    assert s.score == pytest.approx(4.88, abs=0.01)
    assert s.tier == "medium"


def test_evidence_explains_every_component() -> None:
    s = _spec("WebPan")
    lines = s.explain()
    assert lines[0].startswith("endpoints: 13 (saturates at 20)")
    assert "upload: mentioned" in "\n".join(lines)
    assert s.flags["upload"][0].line == 5
    assert sum(c.points for c in s.components) == pytest.approx(s.score, abs=0.01)


def test_words_that_are_not_what_a_flag_means() -> None:
    # Multilingual l.199: "IANA Time Zone Database" is not a database the service needs
    assert not _spec("Multilingual").flags["database"]
    # drf-crud l.101: "pip install -r requirements.txt  # if needed" names no package
    assert [m.what for m in _spec("django-rest-framework-crud").packages] == ["django"]


def test_pins_and_pip_lines_are_packages() -> None:
    s = spec_complexity("Needs `pip install fastapi tinydb[json] slugify_x`\n\n"
                        "and orjson>=3.9, requests==2.31\n")
    assert [(m.line, m.what) for m in s.packages] == [
        (1, "fastapi"), (1, "slugify-x"), (1, "tinydb"), (3, "orjson"), (3, "requests")]


@pytest.mark.parametrize(("score", "tier"), [
    (0.0, "low"), (3.49, "low"), (3.5, "medium"), (5.49, "medium"), (5.5, "high"),
    (10.0, "high")])
def test_tier_boundaries(score: float, tier: str) -> None:
    assert tier_for(score) == tier


def test_empty_and_odd_readmes_never_raise() -> None:
    for text in ("", "\x00\x01", "# x\n```\nunclosed", "| GET | /x |\n" * 3):
        s = spec_complexity(text)
        assert s.tier in ("low", "medium", "high")
