"""Sample filters: every field, the text query language, run matching, facets, properties."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.filters import (
    SampleFilter,
    facet_values,
    no_labels,
    run_matches,
)
from inspector.model.results.verdict import Verdict


def entry(key: int = 1, **changes) -> SampleEntry:
    base = SampleEntry(
        key=key, run_key="/runs/forge#forge", run_id="forge", agent="Forge", model="m1-large",
        sample_id=f"forge/todo-service/{key}", task="todo-service", sample=key,
        language="python", framework="flask", verdict=Verdict.PASSED, failed_phase="",
        passed=12, failed=0, errors=0, skipped=0, total=12, expected=12, suite_status="ran",
        collection_errors=0, ac_implemented=6, ac_total=6, message="", result_path=None,
        repo_path=None, elapsed=1.0, has_cases=True, deployed=True)
    return replace(base, **changes)


PASSED = entry(1)
TESTS_FAILED = entry(2, task="notes-api", sample_id="forge/notes-api/0",
                     framework="fastapi", verdict=Verdict.TESTS_FAILED, passed=9, failed=1,
                     message="tests/test_notes.py::test_update: KeyError: 'Title'")
NOT_DEPLOYED = entry(3, run_key="/runs/relay#relay", run_id="relay", agent="Relay",
                     model="open_coder-7b", task="url-shortener",
                     sample_id="relay/url-shortener/0", verdict=Verdict.NOT_DEPLOYED,
                     failed_phase="install", passed=0, total=0, deployed=False,
                     message="ERROR: No matching distribution found for flask==99")
START_FAILED = entry(4, run_key="/runs/relay#relay", run_id="relay", agent="Relay",
                     model="open_coder-7b", task="quote-board", sample_id="relay/quote-board/0",
                     verdict=Verdict.NOT_DEPLOYED, failed_phase="start", deployed=False,
                     message="Traceback: ModuleNotFoundError: No module named 'yaml'")
NOT_RUN = entry(5, language="java", framework="spring", task="order-service",
                sample_id="forge/order-service/0", verdict=Verdict.SUITE_NOT_RUN, total=0,
                passed=0, message="no test was collected or counted")
ALL = [PASSED, TESTS_FAILED, NOT_DEPLOYED, START_FAILED, NOT_RUN]


def keys(f: SampleFilter, entries=ALL, label_state=no_labels) -> list[int]:
    return [e.key for e in f.apply(entries, label_state)]


# ----------------------------------------------------------------------------- fields

class TestFields:
    def test_empty_filter_keeps_everything_in_order(self):
        f = SampleFilter()
        assert not f.active
        assert keys(f) == [1, 2, 3, 4, 5]
        assert f.describe() == "no filter"

    def test_language(self):
        assert keys(SampleFilter(language="java")) == [5]
        assert keys(SampleFilter(language="python")) == [1, 2, 3, 4]
        assert keys(SampleFilter(language="rust")) == []

    def test_framework(self):
        assert keys(SampleFilter(framework="fastapi")) == [2]
        assert keys(SampleFilter(framework="flask")) == [1, 3, 4]

    def test_run_key(self):
        assert keys(SampleFilter(run_key="/runs/relay#relay")) == [3, 4]
        assert keys(SampleFilter(run_key="/runs/nope#nope")) == []

    @pytest.mark.parametrize(("verdict", "expected"), [
        ("passed", [1]),
        ("tests_failed", [2]),
        ("not_deployed", [3, 4]),
        ("suite_not_run", [5]),
        ("failing", [2, 3, 4, 5]),
    ])
    def test_verdict(self, verdict: str, expected: list[int]):
        assert keys(SampleFilter(verdict=verdict)) == expected

    @pytest.mark.parametrize(("phase", "expected"), [
        ("install", [3]),
        ("start", [4]),
        ("health", []),
        ("none", [1, 2, 5]),
    ])
    def test_phase(self, phase: str, expected: list[int]):
        assert keys(SampleFilter(phase=phase)) == expected

    def test_fields_combine_with_and(self):
        f = SampleFilter(language="python", verdict="failing", phase="none")
        assert keys(f) == [2]
        assert keys(f.with_(framework="flask")) == []
        assert keys(SampleFilter(run_key="/runs/relay#relay", phase="start")) == [4]


class TestLabels:
    def test_without_a_label_store_every_failure_is_unlabelled(self):
        assert keys(SampleFilter(label="unlabelled")) == [2, 3, 4, 5]
        assert keys(SampleFilter(label="labelled")) == []

    def test_custom_label_state(self):
        labelled = {TESTS_FAILED.sample_id, START_FAILED.sample_id, PASSED.sample_id}
        seen: list[str] = []

        def state(sample_id: str) -> str:
            seen.append(sample_id)
            return "labelled" if sample_id in labelled else "unlabelled"

        assert keys(SampleFilter(label="labelled"), label_state=state) == [2, 4]
        assert keys(SampleFilter(label="unlabelled"), label_state=state) == [3, 5]
        # a passed sample is never a labelling candidate, whatever the store says
        assert PASSED.sample_id not in seen

    def test_label_state_is_not_asked_when_no_label_filter(self):
        def boom(sample_id: str) -> str:
            raise AssertionError("asked")

        assert keys(SampleFilter(verdict="failing"), label_state=boom) == [2, 3, 4, 5]

    def test_label_combines_with_other_fields(self):
        def state(sample_id: str) -> str:
            return "labelled" if "relay" in sample_id else "unlabelled"

        f = SampleFilter(label="labelled", phase="install")
        assert keys(f, label_state=state) == [3]


# ----------------------------------------------------------------------------- text

class TestText:
    @pytest.mark.parametrize(("text", "expected"), [
        ("todo", [1]),
        ("relay", [3, 4]),  # agent / run id
        ("open_coder", [3, 4]),  # model
        ("fastapi", [2]),  # framework
        ("spring", [5]),
        ("KeyError", [2]),  # failure message
        ("relay/quote-board/0", [4]),  # sample id
        ("quote", [4]),  # task
    ])
    def test_searches_task_sample_agent_model_framework_message(self, text, expected):
        assert keys(SampleFilter(text=text)) == expected

    def test_language_and_verdict_are_not_text_fields(self):
        assert keys(SampleFilter(text="java")) == []
        assert keys(SampleFilter(text="not_deployed")) == []

    def test_case_insensitive(self):
        for text in ("keyerror", "KEYERROR", "KeyError", "kEyErRoR"):
            assert keys(SampleFilter(text=text)) == [2], text
        assert keys(SampleFilter(text="FORGE")) == [1, 2, 5]
        assert keys(SampleFilter(text="'title'")) == [2]  # message says 'Title'

    def test_words_are_anded(self):
        assert keys(SampleFilter(text="relay")) == [3, 4]
        assert keys(SampleFilter(text="relay yaml")) == [4]
        assert keys(SampleFilter(text="yaml relay")) == [4]
        assert keys(SampleFilter(text="relay yaml install")) == []
        assert keys(SampleFilter(text="  relay   yaml  ")) == [4]

    def test_minus_excludes(self):
        assert keys(SampleFilter(text="-relay")) == [1, 2, 5]
        assert keys(SampleFilter(text="relay -yaml")) == [3]
        assert keys(SampleFilter(text="-RELAY -Spring")) == [1, 2]
        assert keys(SampleFilter(text="-")) == [1, 2, 3, 4, 5]  # every id has a dash

    def test_regex(self):
        assert keys(SampleFilter(text=r"/^todo/")) == [1]  # the task starts the searched text
        assert keys(SampleFilter(text=r"/\d{2}$/")) == [3]  # flask==99 ends the message
        assert keys(SampleFilter(text=r"/keyerror|modulenotfound/")) == [2, 4]
        assert keys(SampleFilter(text=r"/KEYERROR/")) == [2]  # case-insensitive
        assert keys(SampleFilter(text=r"/Key[E]rror/")) == [2]
        assert keys(SampleFilter(text=r"/relay\/(url|quote)-/")) == [3, 4]
        assert keys(SampleFilter(text=r"/^$/")) == []

    def test_regex_combines_with_words_and_exclusions(self):
        assert keys(SampleFilter(text=r"relay /yaml|flask==/ -distribution")) == [4]

    def test_invalid_regex_is_plain_text(self):
        broken = entry(9, message="weird path /api[/ in the log")
        f = SampleFilter(text="/api[/")
        assert keys(f, [*ALL, broken]) == [9]
        assert keys(SampleFilter(text="/(unclosed/"), [*ALL, broken]) == []

    def test_short_slash_words_are_plain_text(self):
        slashed = entry(9, message="GET / returned 500")
        assert keys(SampleFilter(text="/"), [slashed]) == [9]
        assert keys(SampleFilter(text="//"), [slashed]) == []

    def test_empty_and_blank_text_match_everything(self):
        for text in ("", "   ", "\t"):
            f = SampleFilter(text=text)
            assert not f.active
            assert keys(f) == [1, 2, 3, 4, 5]


# ----------------------------------------------------------------------------- describe

class TestDescribe:
    def test_describe_lists_constraints(self):
        f = SampleFilter(text=" yaml ", language="python", verdict="failing", phase="start",
                         framework="flask", label="unlabelled")
        assert f.describe() == ('lang=python framework=flask outcome=failing phase=start '
                                'label=unlabelled "yaml"')

    def test_describe_text_only(self):
        assert SampleFilter(text="-relay /x+/").describe() == '"-relay /x+/"'

    def test_active(self):
        assert SampleFilter(run_key="k").active
        assert SampleFilter(label="labelled").active
        assert SampleFilter(text=" x ").active

    def test_with_returns_a_new_filter(self):
        f = SampleFilter(language="python")
        g = f.with_(verdict="failing", language="")
        assert f == SampleFilter(language="python")
        assert g == SampleFilter(verdict="failing")
        with pytest.raises(TypeError):
            f.with_(colour="red")


# ----------------------------------------------------------------------------- runs, facets

def run_entry(**changes) -> RunEntry:
    base = RunEntry(key="/runs/forge#forge", run_id="repo_readme_1118_forge_m1-large_Python",
                    agent="Forge", model="m1-large", language="python",
                    format="genesis-inspector", date=None, source_path=Path("/runs/forge"),
                    harness="genesis-inspector", location=Path("/runs/forge"))
    return replace(base, **changes)


class TestRunMatches:
    def test_every_word_must_match_somewhere(self):
        r = run_entry()
        assert run_matches(r, "")
        assert run_matches(r, "forge")
        assert run_matches(r, "FORGE M1")
        assert run_matches(r, "python 1118")
        assert not run_matches(r, "forge relay")
        assert not run_matches(r, "java")

    def test_format_words(self):
        assert run_matches(run_entry(format="repogenesis"), "repogenesis")

    def test_the_format_shown_in_the_runs_table_matches(self):
        stock = run_entry(format="repogenesis")
        ours = run_entry()
        assert run_matches(stock, stock.short_format) and stock.short_format == "stock"
        assert run_matches(ours, ours.short_format) and ours.short_format == "ours"


class TestFacets:
    def test_distinct_sorted_values(self):
        assert facet_values(ALL) == {
            "language": ["java", "python"],
            "framework": ["fastapi", "flask", "spring"],
            "phase": ["install", "start"],
        }

    def test_blank_values_are_left_out(self):
        assert facet_values([entry(1, language="", framework="")]) == \
            {"language": [], "framework": [], "phase": []}
        assert facet_values([]) == {"language": [], "framework": [], "phase": []}

    def test_accepts_any_iterable_once(self):
        assert facet_values(iter(ALL))["phase"] == ["install", "start"]


# ----------------------------------------------------------------------------- properties

WORDS = ["relay", "forge", "todo", "-todo", "yaml", "-yaml", "KeyError", "/err/", "/^r/",
         "/[/", "flask", "notes", "0"]
entries_st = st.lists(st.builds(
    lambda k, lang, fw, verdict, phase, agent, task, msg: entry(
        k, language=lang, framework=fw, verdict=verdict, failed_phase=phase, agent=agent,
        run_key=f"/runs/{agent}", task=task, sample_id=f"{agent}/{task}/{k}", message=msg),
    st.integers(0, 1000),
    st.sampled_from(["python", "java", ""]),
    st.sampled_from(["flask", "fastapi", "spring", ""]),
    st.sampled_from(list(Verdict)),
    st.sampled_from(["", "install", "start", "health", "deploy"]),
    st.sampled_from(["Relay", "Forge"]),
    st.sampled_from(["todo-service", "notes-api", "quote-board"]),
    st.sampled_from(["", "KeyError: 'x'", "No module named yaml", "error [/ here"]),
), max_size=10)
filters_st = st.builds(
    SampleFilter,
    text=st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join),
    language=st.sampled_from(["", "python", "java"]),
    framework=st.sampled_from(["", "flask", "spring"]),
    verdict=st.sampled_from(["", "failing", *[v.value for v in Verdict]]),
    phase=st.sampled_from(["", "none", "install", "start"]),
    label=st.sampled_from(["", "labelled", "unlabelled"]),
    run_key=st.sampled_from(["", "/runs/Relay", "/runs/Forge"]),
)
CONSTRAINTS = st.one_of(
    st.sampled_from(WORDS).map(lambda w: ("text", w)),
    st.tuples(st.just("language"), st.sampled_from(["python", "java"])),
    st.tuples(st.just("framework"), st.sampled_from(["flask", "spring"])),
    st.tuples(st.just("verdict"), st.sampled_from(["failing", "passed", "not_deployed"])),
    st.tuples(st.just("phase"), st.sampled_from(["none", "install"])),
    st.tuples(st.just("label"), st.sampled_from(["labelled", "unlabelled"])),
    st.tuples(st.just("run_key"), st.sampled_from(["/runs/Relay"])),
)


def odd_labels(sample_id: str) -> str:
    return "labelled" if len(sample_id) % 2 else "unlabelled"


@settings(max_examples=40, deadline=None, derandomize=True)
@given(entries_st)
def test_property_empty_filter_returns_everything(entries):
    assert SampleFilter().apply(entries) == entries
    assert SampleFilter().apply(entries, odd_labels) == entries


@settings(max_examples=100, deadline=None, derandomize=True)
@given(entries_st, filters_st, CONSTRAINTS)
def test_property_adding_a_constraint_never_grows_the_result(entries, f, constraint):
    name, value = constraint
    if name == "text":
        tighter = f.with_(text=f"{f.text} {value}")
    elif getattr(f, name):
        return  # the field is already constrained: replacing it is not "adding"
    else:
        tighter = f.with_(**{name: value})
    before = f.apply(entries, odd_labels)
    after = tighter.apply(entries, odd_labels)
    assert all(e in before for e in after)
    assert len(after) <= len(before)
    # apply is exactly the predicate, in input order
    pred = tighter.predicate(odd_labels)
    assert after == [e for e in entries if pred(e)]
