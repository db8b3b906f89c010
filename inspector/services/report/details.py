"""The failing samples' sections: which samples get one, and what each embeds (capped).

Every failing matrix cell's first failing sample comes first (so a cell links to a section
while the caps allow), then the other failing samples, in matrix order (task, run, sample).
The deployment log is read here (its last lines); everything else is already in memory.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Iterable

from inspector.model.results.sample import SampleResult, TestCase
from inspector.model.results.verdict import verdict_of
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.report.caps import Caps, Cut, head, tail_lines
from inspector.services.report.data import FailingTest, SampleDetail


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


def _log_tail(s: SampleResult, caps: Caps) -> tuple[Cut | None, str]:
    """The last lines of the sample's deployment log, or why there is none."""
    from inspector.services.logs.deployment_log import NoLogError, open_sample_log

    try:
        log = open_sample_log(s)
    except NoLogError as exc:
        return None, str(exc)
    try:
        log.index()
        n = len(log)
        if n == 0:
            return None, "The deployment log is empty."
        first = max(0, n - caps.log_lines)
        lines = []
        for rec in log.records(first, n - first):
            phase = rec.phase.value if rec.phase is not None else "log"
            stream = "" if rec.stream in ("", "out", "stdout") else f" {rec.stream}"
            lines.append(f"[{phase}{stream}] {rec.text}")
        return tail_lines(lines, caps.log_lines, caps.log_chars, total=n), ""
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


def sample_detail(s: SampleResult, path: str, caps: Caps, anchor: str | None = None
                  ) -> SampleDetail:
    """The section of one failing sample (``path``: the runs folder, for the commands)."""
    failing = s.failing_tests
    log, missing = _log_tail(s, caps)
    replay = shlex.join(["inspector", "replay", path, s.task, "--sample", str(s.sample),
                         "--run", s.run_id])
    return SampleDetail(
        anchor=anchor or anchor_of(s.sample_id), sample_id=s.sample_id, run_id=s.run_id,
        task=s.task, sample=s.sample, verdict=verdict_of(s), passed=s.tests.passed,
        total=s.tests.total, headline=head(sanitize(_headline(s)), caps.message_chars).text,
        tests=tuple(_test(c, caps) for c in failing[:caps.tests_per_sample]),
        tests_left_out=max(0, len(failing) - caps.tests_per_sample),
        log=log, log_missing=missing, replay=sanitize(replay))


def select_details(ordered: list[SampleResult], path: str, caps: Caps
                   ) -> list[tuple[SampleResult, SampleDetail]]:
    """Sections for ``ordered`` (see :func:`order_failing`) until a cap is reached, in that
    order, each with its sample."""
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
        d = sample_detail(s, path, caps, anchor)
        out.append((s, d))
        spent += d.size
    return out
