"""Not evaluable: results the infrastructure, not the generated repo, left without a verdict.

Results written since the ``not_evaluable`` field exist record the cause where the harness knew
it. Older results (and stock reports) do not: :func:`infer_not_evaluable` reads the harness's own
wording back (its messages for a port held by another process, an unreachable Maven repository, a
harness exception, …) and marks what it concludes ``inferred``.
"""

from __future__ import annotations

from dataclasses import replace

from inspector.model.results.sample import NotEvaluable, SampleResult

INFRA_ERROR_PREFIX = "infrastructure: "
"""How the harness starts a result's ``error`` when the machine stopped the sample."""

# (what the harness wrote, the kind it means): its own messages, first match wins
_MARKERS: tuple[tuple[str, str], ...] = (
    ("no Maven repository reachable", "dependency_repository_unreachable"),
    ("Maven repository unreachable from this machine", "dependency_repository_unreachable"),
    ("Maven (mvn) is not installed", "toolchain_missing"),
    ("cannot be evaluated in the Docker sandbox yet", "backend_unsupported"),
    ("the sandbox base image", "sandbox_image_missing"),
    ("could not set up the sandbox", "sandbox_unavailable"),
    ("already in use by another process", "port_held"),
    ("not started (infrastructure problem", "isolation_unavailable"),
)


def _marked(text: str) -> str | None:
    return next((kind for marker, kind in _MARKERS if marker in text), None)


def infer_not_evaluable(s: SampleResult) -> NotEvaluable | None:
    """The best reading of why ``s`` (which records no cause) has no verdict, or None when
    nothing says the infrastructure stopped it."""
    if s.error:
        kind = _marked(s.error)
        if kind is None and s.error.startswith(INFRA_ERROR_PREFIX):
            kind = "worker_lost"
        reason = s.error.removeprefix(INFRA_ERROR_PREFIX)
        return NotEvaluable(kind or "harness_exception", reason, inferred=True)
    texts = [s.deployment.message, *(p.message for p in s.deployment.phases)]
    if s.tests.cause is not None:
        texts.append(s.tests.cause.text)
    for text in texts:
        kind = _marked(text)
        if kind is not None:
            return NotEvaluable(kind, text, inferred=True)
    return None


def with_inference(s: SampleResult) -> SampleResult:
    """``s`` with its inferred cause when it records none (unchanged otherwise)."""
    if s.not_evaluable is not None:
        return s
    found = infer_not_evaluable(s)
    return s if found is None else replace(s, not_evaluable=found)
