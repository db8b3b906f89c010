"""The failing samples' sections: which samples get one, and what each embeds (capped).

Every failing matrix cell's first failing sample comes first (so a cell links to a section
while the caps allow), then the other failing samples, in matrix order (task, run, sample).
The deployment log is read here (the lines around its first error, else its last lines);
everything else is already in memory.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Iterable

from inspector.model.labels.labelset import LabelSet
from inspector.model.results.sample import SampleResult, TestCase
from inspector.model.results.verdict import verdict_of
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.logs.deployment_log import NoLogError, open_sample_log
from inspector.services.logs.filters import failure_line
from inspector.services.report.caps import Caps, Cut, around, head, tail_lines
from inspector.services.report.data import FailingTest, SampleDetail, SampleLabel
from inspector.services.report.sample_labels import labelled_items, sample_labels


def anchor_of(sample_id: str) -> str:
    """A stable, markup-safe anchor for a sample id (``s-`` and 16 hex digits)."""
    return "s-" + hashlib.sha1(sample_id.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def order_failing(cells: Iterable[list[SampleResult]]
                  ) -> tuple[list[SampleResult], list[SampleResult]]:
    """Failing samples: each cell's first failure, and the others; cells in the order given,
    samples by number."""
    firsts: list[SampleResult] = []
    rest: list[SampleResult] = []
    for samples in cells:
        failing = sorted((s for s in samples if not s.passed and s.not_evaluable is None),
                         key=lambda s: s.sample)
        firsts.extend(failing[:1])
        rest.extend(failing[1:])
    return firsts, rest


def _test(case: TestCase, caps: Caps) -> FailingTest:
    tb = sanitize(case.traceback).rstrip("\n")
    return FailingTest(
        test_id=sanitize(case.id), outcome=str(case.outcome),
        message=head(sanitize(case.message), caps.message_chars),
        traceback=tail_lines(tb.split("\n"), caps.traceback_lines, caps.traceback_chars)
        if tb else Cut(""))


def _log_excerpt(s: SampleResult, caps: Caps) -> tuple[Cut | None, str]:
    """The deployment log's lines around its failure (the replay's "first error" rule,
    :func:`~inspector.services.logs.filters.failure_line`), else its last lines; or why
    there is none."""
    try:
        log = open_sample_log(s)
    except NoLogError as exc:
        return None, str(exc)
    try:
        log.index()
        n = len(log)
        if n == 0:
            return None, "The deployment log is empty."
        at = failure_line(log) if caps.log_lines > 0 else None
        if at is None:
            first = max(0, n - caps.log_lines)
        else:
            first = max(0, min(at - caps.log_lines // 3, n - caps.log_lines))
        count = min(n, first + max(caps.log_lines, 1)) - first
        lines = []
        for rec in log.records(first, count):
            phase = rec.phase.value if rec.phase is not None else "log"
            stream = "" if rec.stream in ("", "out", "stdout") else f" {rec.stream}"
            lines.append(f"[{phase}{stream}] {rec.text}")
        if at is None:
            return tail_lines(lines, caps.log_lines, caps.log_chars, total=n), ""
        return around(lines, first, at, n, caps.log_chars), ""
    except OSError as exc:
        return None, f"The deployment log could not be read: {exc.strerror or exc}"
    finally:
        for src in log.sources:
            src.close()


def _headline(s: SampleResult) -> str:
    if not s.deployment.success:
        phase = s.deployment.failed_phase.value if s.deployment.failed_phase else "deploy"
        return f"did not deploy ({phase}): {s.deployment.message or s.error or ''}".rstrip(": ")
    if s.tests.cause is not None:
        return f"suite: {s.tests.cause}"
    return ""


def sample_detail(s: SampleResult, path: str, caps: Caps, anchor: str | None = None,
                  labels: tuple[SampleLabel, ...] = ()) -> SampleDetail:
    """The section of one failing sample (``path``: the runs folder, for the commands;
    ``labels``: the sample's, as :func:`~.sample_labels.sample_labels` gives them)."""
    failing = s.failing_tests
    log, missing = _log_excerpt(s, caps)
    replay = shlex.join(["inspector", "replay", path, s.task, "--sample", str(s.sample),
                         "--run", s.run_id])
    return SampleDetail(
        anchor=anchor or anchor_of(s.sample_id), sample_id=s.sample_id, run_id=s.run_id,
        task=s.task, sample=s.sample, verdict=verdict_of(s), passed=s.tests.passed,
        total=s.tests.total, headline=head(sanitize(_headline(s)), caps.message_chars).text,
        tests=tuple(_test(c, caps) for c in failing[:caps.tests_per_sample]),
        tests_left_out=max(0, len(failing) - caps.tests_per_sample),
        log=log, log_missing=missing, replay=sanitize(replay), labels=labels)


def select_details(ordered: list[SampleResult], path: str, caps: Caps,
                   labels: LabelSet | None = None) -> list[tuple[SampleResult, SampleDetail]]:
    """Sections for ``ordered`` (see :func:`order_failing`) until a cap is reached, in that
    order, each with its sample (and its ``labels``)."""
    items = labelled_items(labels)
    out: list[tuple[SampleResult, SampleDetail]] = []
    used: set[str] = set()
    spent = 0
    for s in ordered:
        if len(out) >= caps.sections or spent >= caps.detail_chars:
            break
        anchor = anchor_of(s.sample_id)
        while anchor in used:  # the same sample id twice (duplicate runs): still one each
            anchor += "x"
        used.add(anchor)
        d = sample_detail(s, path, caps, anchor,
                          sample_labels(labels, items.get(s.sample_id, [])))
        out.append((s, d))
        spent += d.size
    return out
