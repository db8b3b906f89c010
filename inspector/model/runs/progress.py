"""A run's live progress (``progress.json`` in the run folder), written by the evaluation's
driver while it runs, read by the app's runs view and by anyone watching.

It says how many samples are done, running and queued, on which node each runs, the
throughput and the ETA. It is a view of the evaluation, never a result: the samples' own
folders are the record, and a missing or broken progress file loses nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from inspector.model.untrusted.errors import LoadError

PROGRESS_FILE = "progress.json"
PROGRESS_FORMAT = "genesis-inspector/progress"
PROGRESS_VERSION = 1
IN_FLIGHT_CAP = 100
"""At most this many running samples are listed by name (the counts are always whole)."""


@dataclass(frozen=True)
class NodeProgress:
    """One node (``host/ray-node-id`` on a cluster, the host name locally)."""

    node: str
    running: int = 0
    done: int = 0
    passed: int = 0
    infra_failures: int = 0  # attempts the infrastructure failed on this node


@dataclass(frozen=True)
class InFlight:
    """A sample running now: where, and since when (ISO time)."""

    sample: str  # TASK/N
    node: str
    since: str


@dataclass(frozen=True)
class RunProgress:
    """The evaluation's state at ``updated_at``; see the module's docstring."""

    run_id: str
    executor: str  # "local" or "ray"
    driver_host: str
    driver_pid: int
    started_at: str
    updated_at: str
    status: str  # running / complete / incomplete / cancelled
    total: int  # samples this evaluation set out to do (resumed ones not counted)
    resumed: int = 0  # samples a previous evaluation had finished
    done: int = 0
    passed: int = 0
    running: int = 0
    queued: int = 0
    retried: int = 0  # attempts retried after an infrastructure failure
    infra_failed: int = 0  # samples left for a resume after their last attempt failed
    rate_per_min: float | None = None
    eta_seconds: float | None = None
    nodes: tuple[NodeProgress, ...] = ()
    in_flight: tuple[InFlight, ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.status != "running"

    @property
    def fraction(self) -> float:
        """Share of this evaluation's samples settled (done or given up), 0..1."""
        settled = self.done + self.infra_failed
        return settled / self.total if self.total else 1.0

    def age_seconds(self, now: datetime | None = None) -> float | None:
        """Seconds since the driver last wrote this file (None: unreadable time)."""
        try:
            then = datetime.fromisoformat(self.updated_at)
        except ValueError:
            return None
        now = now or datetime.now(then.tzinfo)
        return max(0.0, (now - then).total_seconds())

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROGRESS_FORMAT, "version": PROGRESS_VERSION,
            "run_id": self.run_id, "executor": self.executor,
            "driver": {"host": self.driver_host, "pid": self.driver_pid},
            "started_at": self.started_at, "updated_at": self.updated_at,
            "status": self.status, "total": self.total, "resumed": self.resumed,
            "done": self.done, "passed": self.passed, "running": self.running,
            "queued": self.queued, "retried": self.retried,
            "infra_failed": self.infra_failed,
            "rate_per_min": self.rate_per_min, "eta_seconds": self.eta_seconds,
            "nodes": [{"node": n.node, "running": n.running, "done": n.done,
                       "passed": n.passed, "infra_failures": n.infra_failures}
                      for n in self.nodes],
            "in_flight": [{"sample": f.sample, "node": f.node, "since": f.since}
                          for f in self.in_flight[:IN_FLIGHT_CAP]],
        }


def _int(data: dict[str, Any], key: str, path: Path, where: str = "") -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LoadError(path, "expected a whole number ≥ 0", f"{where}{key}")
    return value


def _str(data: dict[str, Any], key: str, path: Path, where: str = "") -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise LoadError(path, "expected text", f"{where}{key}")
    return value


def _num(data: dict[str, Any], key: str, path: Path) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise LoadError(path, "expected a number ≥ 0 or null", key)
    return float(value)


def _list(data: dict[str, Any], key: str, path: Path) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise LoadError(path, "expected a list of objects", key)
    return value


def parse_progress(data: Any, path: Path) -> RunProgress:
    """A :class:`RunProgress` from the JSON of ``path``; :class:`LoadError` names what is
    wrong."""
    if not isinstance(data, dict):
        raise LoadError(path, "expected a JSON object")
    if data.get("format") != PROGRESS_FORMAT:
        raise LoadError(path, f"not a progress file (format should be {PROGRESS_FORMAT!r})",
                        "format")
    if data.get("version") != PROGRESS_VERSION:
        raise LoadError(path, f"unsupported version {data.get('version')!r} (this inspector "
                              f"reads version {PROGRESS_VERSION})", "version")
    driver = data.get("driver", {})
    if not isinstance(driver, dict):
        raise LoadError(path, "expected an object", "driver")
    nodes = tuple(NodeProgress(_str(n, "node", path, f"nodes.{i}."),
                               _int(n, "running", path, f"nodes.{i}."),
                               _int(n, "done", path, f"nodes.{i}."),
                               _int(n, "passed", path, f"nodes.{i}."),
                               _int(n, "infra_failures", path, f"nodes.{i}."))
                  for i, n in enumerate(_list(data, "nodes", path)))
    flights = tuple(InFlight(_str(f, "sample", path, f"in_flight.{i}."),
                             _str(f, "node", path, f"in_flight.{i}."),
                             _str(f, "since", path, f"in_flight.{i}."))
                    for i, f in enumerate(_list(data, "in_flight", path)))
    return RunProgress(
        run_id=_str(data, "run_id", path), executor=_str(data, "executor", path),
        driver_host=_str(driver, "host", path, "driver."),
        driver_pid=_int(driver, "pid", path, "driver."),
        started_at=_str(data, "started_at", path), updated_at=_str(data, "updated_at", path),
        status=_str(data, "status", path) or "running", total=_int(data, "total", path),
        resumed=_int(data, "resumed", path), done=_int(data, "done", path),
        passed=_int(data, "passed", path), running=_int(data, "running", path),
        queued=_int(data, "queued", path), retried=_int(data, "retried", path),
        infra_failed=_int(data, "infra_failed", path),
        rate_per_min=_num(data, "rate_per_min", path),
        eta_seconds=_num(data, "eta_seconds", path), nodes=nodes, in_flight=flights)


def load_progress(run_dir: Path) -> RunProgress | None:
    """The run's progress file, ``None`` when it has none; :class:`LoadError` (naming the file
    and the field) when it is unreadable or malformed."""
    path = run_dir / PROGRESS_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(path, f"cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return parse_progress(data, path)
