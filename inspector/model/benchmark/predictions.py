"""Naming of predictions folders: ``repo_readme_<MMDD>_<agent>_<model>_<Python|Java>``."""

from __future__ import annotations

import re
from dataclasses import dataclass

AGENT_NAMES = {
    "msagent": "MS-Agent", "metagpt": "MetaGPT", "deepcode": "DeepCode", "qwen": "Qwen-Agent",
    "vscode": "Copilot", "antigravity": "Antigravity",
}


@dataclass(frozen=True, slots=True)
class PredictionsName:
    date: str | None  # MMDD token
    agent: str | None
    model: str | None
    language: str | None  # "python" | "java"


def display_agent(token: str) -> str:
    return AGENT_NAMES.get(token.lower(), token[:1].upper() + token[1:])


def parse_predictions_name(name: str) -> PredictionsName:
    """Derive date, agent, model and language from a predictions folder name.

    Follows the RepoGenesis scripts: split on ``_``; the first 4-digit token is the date; the
    last ``python``/``java`` token is the language; the token after the date is the agent and
    everything between agent and language is the model. Missing parts are None.
    """
    base = name.rstrip("/").replace("\\", "/").rsplit("/", 1)[-1]
    tokens = base.split("_")
    date_idx = next((i for i, t in enumerate(tokens) if re.fullmatch(r"\d{4}", t)), None)
    lang_idx = next((i for i in range(len(tokens) - 1, -1, -1)
                     if tokens[i].lower() in ("python", "java")), None)
    language = tokens[lang_idx].lower() if lang_idx is not None else None
    if date_idx is None:
        return PredictionsName(None, None, None, language)
    agent = tokens[date_idx + 1] if date_idx + 1 < len(tokens) and \
        date_idx + 1 != lang_idx else None
    end = lang_idx if lang_idx is not None and lang_idx > date_idx + 1 else len(tokens)
    model_tokens = tokens[date_idx + 2:end]
    return PredictionsName(
        tokens[date_idx], display_agent(agent) if agent else None,
        "_".join(model_tokens) or None, language,
    )
