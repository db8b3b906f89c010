"""Predictions folder names: ``repo_readme_<MMDD>_<agent>_<model>_<Python|Java>``."""

from __future__ import annotations

import pytest

from inspector.model.benchmark.predictions import (
    PredictionsName,
    display_agent,
    parse_predictions_name,
)


@pytest.mark.parametrize(("name", "expected"), [
    # the examples of the public harness docs
    ("repo_readme_1204_msagent_gpt-5-mini_Python",
     PredictionsName("1204", "MS-Agent", "gpt-5-mini", "python")),
    ("repo_readme_1212_deepcode_gpt-5-mini_Java",
     PredictionsName("1212", "DeepCode", "gpt-5-mini", "java")),
    ("repo_readme_1216_antigravity_gemini3pro_Java",
     PredictionsName("1216", "Antigravity", "gemini3pro", "java")),
    ("repo_readme_0219_codex_gpt5.3_Python",
     PredictionsName("0219", "Codex", "gpt5.3", "python")),
    # the agent / IDE map, otherwise capitalised
    ("repo_readme_1201_metagpt_gpt-5.1_Python",
     PredictionsName("1201", "MetaGPT", "gpt-5.1", "python")),
    ("repo_readme_1201_qwen_qwen3-coder-30b_Java",
     PredictionsName("1201", "Qwen-Agent", "qwen3-coder-30b", "java")),
    ("repo_readme_1201_vscode_gpt-5-mini_Python",
     PredictionsName("1201", "Copilot", "gpt-5-mini", "python")),
    ("repo_readme_1201_cursor_auto_Python", PredictionsName("1201", "Cursor", "auto", "python")),
    # model tokens with underscores are re-joined
    ("repo_readme_1119_relay_open_coder-7b_Python",
     PredictionsName("1119", "Relay", "open_coder-7b", "python")),
    ("repo_readme_1201_vscode_grok_code_fast_1_Python",
     PredictionsName("1201", "Copilot", "grok_code_fast_1", "python")),
    # no date token: nothing but the language can be trusted
    ("my_experiment_gpt4_Python", PredictionsName(None, None, None, "python")),
    ("eval_results", PredictionsName(None, None, None, None)),
    ("", PredictionsName(None, None, None, None)),
    # missing parts
    ("repo_readme_1204_msagent_gpt-5-mini", PredictionsName("1204", "MS-Agent", "gpt-5-mini",
                                                            None)),
    ("repo_readme_1204_msagent_Python", PredictionsName("1204", "MS-Agent", None, "python")),
    ("repo_readme_1204_Python", PredictionsName("1204", None, None, "python")),
    ("repo_readme_1204", PredictionsName("1204", None, None, None)),
    # case-insensitive language; the first 4-digit token is the date, later ones are model
    ("repo_readme_1204_codex_gpt_JAVA", PredictionsName("1204", "Codex", "gpt", "java")),
    ("repo_readme_1204_qwen_2507_python", PredictionsName("1204", "Qwen-Agent", "2507",
                                                          "python")),
    # the last python/java token is the language
    ("repo_readme_1204_x_java_model_Python", PredictionsName("1204", "X", "java_model",
                                                             "python")),
    ("repo_readme_12345_msagent_m_Python", PredictionsName(None, None, None, "python")),
])
def test_parse(name: str, expected: PredictionsName) -> None:
    assert parse_predictions_name(name) == expected


@pytest.mark.parametrize("name", [
    "exps/repos/repo_readme_1204_msagent_gpt-5-mini_Python",
    "exps/repos/repo_readme_1204_msagent_gpt-5-mini_Python/",
    "exps\\repos_IDE\\repo_readme_1204_msagent_gpt-5-mini_Python",
    "/abs/path/repo_readme_1204_msagent_gpt-5-mini_Python",
])
def test_only_the_last_path_component_counts(name: str) -> None:
    assert parse_predictions_name(name) == PredictionsName("1204", "MS-Agent", "gpt-5-mini",
                                                           "python")


@pytest.mark.parametrize(("token", "shown"), [
    ("msagent", "MS-Agent"), ("MSAgent", "MS-Agent"), ("metagpt", "MetaGPT"),
    ("deepcode", "DeepCode"), ("qwen", "Qwen-Agent"), ("vscode", "Copilot"),
    ("antigravity", "Antigravity"), ("codex", "Codex"), ("cursor", "Cursor"),
    ("openHands", "OpenHands"), ("x", "X"),
])
def test_display_agent(token: str, shown: str) -> None:
    assert display_agent(token) == shown
