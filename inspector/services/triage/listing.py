"""Per-test suggestions listed for a terminal or a script: one row per failure item."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspector.model.failures.triage import SampleTriage, TestSuggestion


def suggestion_rows(triages: Sequence[SampleTriage]) -> list[dict[str, Any]]:
    """:meth:`TestSuggestion.to_json` of every failure item, sample by sample."""
    return [s.to_json() for t in triages for s in t.suggestions]


def verdict(s: TestSuggestion) -> str:
    """``not-model``, ``unsure: not-model | other`` or ``no suggestion``."""
    if s.category is not None:
        return s.category
    if s.competing:
        return "unsure: " + " | ".join(dict.fromkeys(r.category for r in s.competing))
    return "no suggestion"


def _name(s: TestSuggestion) -> str:
    return s.item.test_id if s.item.test_id is not None else f"(sample: {s.item.kind})"


def _head(s: TestSuggestion) -> str:
    rule = f"  [{s.rule}]" if s.rule else ""
    return f"{verdict(s)}  {s.confidence:.2f}{rule}"


def format_per_test(triages: Sequence[SampleTriage]) -> str:
    """Samples, each with its roots (verdict, confidence, rule, reason) and, under each root,
    the items that follow it."""
    lines: list[str] = []
    for t in triages:
        if not t.suggestions:
            continue
        roots = [s for s in t.suggestions if s.is_root]
        keys = {s.item.key for s in roots}
        members: dict[str, list[TestSuggestion]] = {}
        for s in t.suggestions:
            if not s.is_root:
                members.setdefault(s.root if s.root in keys else "", []).append(s)
        lines.append(f"{t.sample}  ({len(t.suggestions)} failure item"
                     f"{'' if len(t.suggestions) == 1 else 's'}, {len(roots)} root"
                     f"{'' if len(roots) == 1 else 's'})")
        for r in roots:
            lines.append(f"  {_name(r)}")
            lines.append(f"      {_head(r)}")
            if r.reason:
                lines.append(f"      {r.reason}")
            for m in members.get(r.item.key, []):
                lines.append(f"      ↳ {_name(m)}  {verdict(m)}")
        for m in members.get("", []):
            lines.append(f"  {_name(m)}  (follows {m.root}, not a failure item here)")
            lines.append(f"      {_head(m)}")
        lines.append("")
    if not lines:
        return "No failure items.\n"
    return "\n".join(lines)
