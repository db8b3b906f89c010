"""Tampering findings: what in a generated repo could influence (or did influence) its own test run.

The harness keeps all of it out of the golden test run; findings are reported on the sample and
never change its verdict. ``deliberate`` marks code that forges outcomes (a report hook that
rewrites results) or an attempt observed during the run (golden tests or the report touched);
the others could merely have influenced the run had they not been kept out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TamperFinding:
    """One thing in (or done by) a generated repo that reaches for its own test run."""

    kind: str  # root_conftest, pytest_config, pytest_plugin, sitecustomize, pth_file,
    #            golden_modified, report_replaced, ...
    path: str  # repo-relative path ("" for what was observed during the run)
    detail: str
    deliberate: bool = False

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "path": self.path, "detail": self.detail,
                "deliberate": self.deliberate}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TamperFinding:
        return cls(str(data.get("kind", "")), str(data.get("path", "")),
                   str(data.get("detail", "")), bool(data.get("deliberate", False)))
