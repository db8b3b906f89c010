"""``a`` on the replay: the log line under the cursor as evidence for the annotator's label."""

from __future__ import annotations

from textual.screen import Screen

from inspector.model.labels.label_file import Anchor, ItemRef
from inspector.model.untrusted.errors import LoadError
from inspector.services.logs.deployment_log import DeploymentLog, Record
from inspector.ui.app_access import label_session
from inspector.ui.save_notice import announce_save


def add_line_evidence(screen: Screen[None], sample_id: str | None, log: DeploymentLog,
                      rec: Record | None) -> None:
    """Attach log line ``rec`` of sample ``sample_id`` to the annotator's label of it, saying
    what happened (saved is announced once on disk)."""
    session = label_session(screen)
    if session is None or sample_id is None:
        screen.notify("Open this log from a sample in the app to use its lines as evidence.",
                      severity="warning")
        return
    if rec is None:
        return
    seg, local = log.locate(rec.line)
    phase = seg.phase.value if seg.phase is not None else seg.label
    anchor = Anchor.log(phase, local + 1, rec.text)
    try:
        state = session.add_evidence(ItemRef(sample_id), anchor, done=announce_save(
            screen.app, f"Evidence added to your label: {anchor.describe()[:80]}"))
    except LoadError as exc:
        screen.notify(f"Not saved: {exc}", severity="error", timeout=12)
        return
    if state != "saved":  # a save is announced once it is on disk
        screen.notify({"pending": f"Evidence kept for your label: {anchor.describe()[:80]}",
                       "present": "Already evidence."}[state], timeout=3)
