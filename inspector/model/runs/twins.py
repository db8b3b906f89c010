"""One evaluation in two layouts: a run of ours and its stock-layout twin.

``inspector evaluate --repogenesis-out DIR`` writes the same evaluation twice: our run folder
and the stock harness's layout. Both are one run, never two agents. The link:

* **recorded** — our ``run.json`` lists ``"twins": [{"format": "repogenesis", "path": …}]``
  (the report file, relative to the run folder), written by ``evaluate``;
* **by content** — the stock side's schema cannot carry a link, so a stock report is the twin
  of a run of ours when its per-repo results are exactly what that run's samples give when
  written in the stock layout: for every result, the task, language, port, framework, exit
  code, DSR verdict, passed/failed/errors/total, API coverage counts and the elapsed seconds
  (to the hundredth), as a multiset equal to that of the run's sample-0 samples (the stock
  layout holds one sample per task). Without any elapsed time to tell two evaluations apart,
  the predictions folder's name must agree as well. Names alone never link two runs.

A recorded link whose report no longer matches by content is not a twin (a warning says so).
Several runs of ours matching one report (a copied run folder): the first by run id and path
keeps it. See docs/run-format.md, "Twins".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from inspector.model.results.outcomes import Phase, PhaseStatus
from inspector.model.results.run import Run
from inspector.model.results.sample import SampleResult
from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.jsonfields import read_json

TWINS_FIELD = "twins"
STOCK = "repogenesis"


def stock_exit_code(s: SampleResult) -> int:
    """-99 harness exception, -3 build error, -1 a phase timed out, else 0 ("container ran to
    the end") — the exit code the stock layout records for a sample of ours."""
    if s.error:
        return -99
    if s.build_error:
        return -3
    if any(p.status is PhaseStatus.TIMEOUT and p.phase in (Phase.INSTALL, Phase.TESTS)
           for p in s.deployment.phases):
        return -1
    return 0


def stock_dsr_success(s: SampleResult) -> bool:
    """The stock (lenient) DSR verdict of a sample of ours."""
    ok = s.deployment.lenient_success
    return bool(s.deployment.success if ok is None else ok)


def stock_api_counts(s: SampleResult) -> tuple[int, int] | None:
    """(total, implemented) APIs as the stock layout records them (lenient), or None."""
    ac = s.api_coverage
    if ac is None:
        return None
    impl = ac.lenient_implemented_apis if ac.lenient_implemented_apis is not None \
        else ac.implemented_apis
    return ac.total_apis, impl


def _elapsed(value: float | None) -> str:
    return "" if value is None else f"{round(value, 2):.2f}"


def fingerprint(s: SampleResult, stock: bool) -> str:
    """One sample as the stock layout reports it: ``stock`` for a sample read from a stock
    report, else a sample of ours as ``--repogenesis-out`` writes it."""
    t = s.tests
    if stock:
        ac = s.api_coverage
        api = None if ac is None else (ac.total_apis, ac.implemented_apis)
        parts: Sequence[object] = (
            s.exit_code if s.exit_code is not None else "", s.deployment.success, api,
            s.framework or "any")
    else:
        parts = (stock_exit_code(s), stock_dsr_success(s), stock_api_counts(s),
                 s.framework or "any")
    return repr((s.task, s.language.lower(), s.port, *parts, t.passed, t.failed, t.errors,
                 t.total, _elapsed(s.elapsed_seconds)))


def content_key(run: Run) -> str | None:
    """A digest of what the stock layout holds of ``run`` (see the module docstring); equal
    keys of a stock run and a run of ours make them twins. None without a sample."""
    stock = run.source.format == STOCK
    samples = [s for s in run.samples if stock or s.sample == 0]
    if not samples:
        return None
    rows = sorted(fingerprint(s, stock) for s in samples)
    if not any(s.elapsed_seconds is not None for s in samples):
        rows.append("predictions:" + Path(run.source.predictions_dir or "").name)
    return hashlib.sha256("\n".join(rows).encode("utf-8", "surrogateescape")).hexdigest()


def recorded_twins(run_json: Path) -> tuple[Path, ...]:
    """The stock-layout copies a ``run.json`` records (resolved paths); () when none or
    unreadable (the run's loader reports an unreadable file)."""
    try:
        raw = read_json(run_json).get(TWINS_FIELD)
    except (LoadError, AttributeError):
        return ()
    out = []
    for item in raw if isinstance(raw, list) else ():
        if isinstance(item, dict) and item.get("format") == STOCK \
                and isinstance(item.get("path"), str) and item["path"]:
            out.append(_resolved(run_json.parent / item["path"]))
    return tuple(out)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


@dataclass(frozen=True, slots=True)
class Candidate:
    """What pairing needs of one run: ``key`` (unique), its format, content key, source file
    (``run.json``, the report, the intermediate folder), the twins it records, and its id."""

    key: str
    stock: bool
    content: str | None
    source: Path
    recorded: tuple[Path, ...] = ()
    run_id: str = ""


@dataclass(frozen=True, slots=True)
class Link:
    """A stock run (``twin``) that is run ``of`` in the stock layout; ``how``: ``recorded``
    (run.json names it and the content agrees) or ``content`` (met alone, matched)."""

    twin: str
    of: str
    how: str


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A twin ``run.json`` records whose report does not match it by content."""

    of: str
    path: Path


def pair(candidates: Iterable[Candidate]) -> tuple[list[Link], list[Mismatch]]:
    """Every stock run that is the twin of a run of ours (see the module docstring)."""
    cands = list(candidates)
    ours = sorted((c for c in cands if not c.stock and c.content),
                  key=lambda c: (c.run_id, str(c.source)))
    stock_by_source = {_resolved(c.source): c for c in cands if c.stock}
    links: list[Link] = []
    mismatches: list[Mismatch] = []
    for c in cands:
        if not c.stock or c.content is None:
            continue
        same = [o for o in ours if o.content == c.content]
        if not same:
            continue
        where = _resolved(c.source)
        recorded = [o for o in same if where in o.recorded]
        of = (recorded or same)[0]
        links.append(Link(c.key, of.key, "recorded" if recorded else "content"))
    linked = {(lk.of, lk.twin) for lk in links}
    for o in ours:
        for path in o.recorded:
            twin = stock_by_source.get(path)
            if twin is not None and (o.key, twin.key) not in linked:
                mismatches.append(Mismatch(o.key, path))
    return links, mismatches
