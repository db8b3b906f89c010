"""What the sample screen shows, loaded off the UI thread: the sample, its task, the endpoints
strict AC was computed over, the README ready to paint, and (later) the golden tests that
call each endpoint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from inspector.model import Endpoint, SampleResult, Task
from inspector.model.results.entries import SampleEntry
from inspector.services.catalog.index import Catalog
from inspector.ui.safe import sanitize

NO_README = "*The task README is not available for this run.*"


@dataclass(frozen=True)
class SampleView:
    """One loaded sample and what its screen shows first."""

    entry: SampleEntry
    sample: SampleResult
    task: Task | None
    endpoints: list[Endpoint]
    readme_source: str
    readme: RenderableType


def load_view(catalog: Catalog, entry: SampleEntry, *, dark: bool) -> SampleView:
    """Load ``entry`` (raises ``LoadError``) and render its task README for the theme."""
    sample = catalog.load_sample(entry)
    task = catalog.task(entry.task, catalog.run(entry.run_key))
    source = sanitize(task.readme if task and task.readme else NO_README)
    return SampleView(entry, sample, task, endpoint_list(sample, task), source,
                      readme_markdown(source, dark=dark))


def readme_markdown(source: str, *, dark: bool) -> RenderableType:
    """Rich's Markdown in one Static renders a README in a few ms; Textual's Markdown widget
    builds a widget per block and takes hundreds. (Parsed here, in the loading worker.)"""
    from rich.markdown import Markdown

    code_theme = "monokai" if dark else "friendly"
    return Markdown(source, code_theme=code_theme, inline_code_lexer="text",
                    inline_code_theme=code_theme)


def endpoint_refs(task: Task | None, endpoints: list[Endpoint]) -> dict[str, list[Any]]:
    """The golden tests (pytest or JUnit) that call each endpoint (by ``Endpoint.key``);
    empty if unknown."""
    if not task or not task.tests_dir:
        return {}
    from inspector.services.suite.endpoint_tests import tests_for_task

    try:
        result = tests_for_task(task, endpoints)
    except (OSError, ValueError, SyntaxError):
        return {}
    return result[0] if isinstance(result, tuple) else result


def endpoint_list(sample: SampleResult, task: Task | None) -> list[Endpoint]:
    """The endpoints strict AC was computed over (the sample's own list when it has one),
    with the README line and origin the task's spec list knows."""
    known = {e.key: e for e in (task.required_endpoints if task else ())}
    cov = (sample.api_coverage.endpoints or ()) if sample.api_coverage else ()
    if not cov:
        return list(known.values())
    out = []
    for e in cov:
        k = known.get(f"{e.method}:{e.path}")
        out.append(Endpoint(e.method, e.path, e.description,
                            readme_line=e.readme_line or (k.readme_line if k else 0),
                            source=e.source or (k.source if k else ""),
                            note=e.readme_note or (k.note if k else "")))
    return out
