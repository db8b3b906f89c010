"""The deploy steps shared by a full evaluation and a re-run: install, start, wait for the port."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.model import Phase, PhaseStatus
from inspector.services.deploy.backend import PhaseOutcome, Session
from inspector.services.logs.phase_log import PhaseLog


@dataclass
class DeployOutcome:
    """The phases run so far, the one that failed (if any), and the stock-harness view."""

    phases: list[PhaseOutcome] = field(default_factory=list)
    failed: PhaseOutcome | None = None
    lenient: bool = False

    @property
    def deployed(self) -> bool:
        return self.failed is None and any(p.phase is Phase.HEALTH and p.status is
                                           PhaseStatus.OK for p in self.phases)


def deploy(session: Session, logs: dict[Phase, PhaseLog],
           say: Callable[[str], None] = lambda m: None) -> DeployOutcome:
    """Install, start and wait for the service; a process that dies while waiting is a failed
    start (with its exit code), not a failed health check."""
    out = DeployOutcome()
    say("installing dependencies")
    inst = session.install(logs[Phase.INSTALL])
    out.phases.append(inst)
    if inst.status is not PhaseStatus.OK:
        out.failed = inst
        logs[Phase.START].meta("not started: dependency installation failed")
        return out
    say("starting service")
    st = session.start(logs[Phase.START])
    out.phases.append(st)
    if st.status is not PhaseStatus.OK:
        out.failed = st
        out.lenient = bool(st.lenient_ok)
        return out
    say("waiting for the port")
    hr = session.wait_ready(logs[Phase.HEALTH])
    out.lenient = bool(hr.lenient_ok)
    if hr.phase is Phase.START:
        st.status, st.message, st.exit_code = hr.status, hr.message, hr.exit_code
        st.infrastructure = hr.infrastructure
        st.not_evaluable = hr.not_evaluable
        st.duration_seconds = (st.duration_seconds or 0) + (hr.duration_seconds or 0)
        hr = PhaseOutcome(Phase.HEALTH, PhaseStatus.FAILED, "service exited before its port "
                          "opened", None, False, hr.started_at, hr.duration_seconds)
        out.failed = st
    elif hr.status is not PhaseStatus.OK:
        out.failed = hr
    out.phases.append(hr)
    return out
