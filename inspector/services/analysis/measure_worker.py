"""A code-metrics worker: ``python -m inspector.services.analysis.measure_worker``.

Reads a JSON list of ``[repo, language]`` from stdin and writes a JSON list with, per repo,
``{"metrics": CodeMetrics.to_json()}`` or ``{"error": "..."}``, in order. The app measures in
this separate process (:func:`inspector.services.analysis.sample_code.measure_isolated`):
complexipy's native parser has crashed the whole process (SIGSEGV in its bundled allocator's
per-thread set-up) when called from a fresh thread, and a native crash on an untrusted repo
must cost one measurement, never the app.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from inspector.services.analysis.code_metrics import code_metrics_for


def measure(repo: str, language: str) -> dict[str, object]:
    try:
        return {"metrics": code_metrics_for(Path(repo), language).to_json()}
    except OSError as exc:
        return {"error": f"{repo}: cannot read ({exc.strerror or exc})"}


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print must never corrupt the answer
    jobs = json.loads(sys.stdin.read())
    out.write(json.dumps([measure(str(repo), str(lang)) for repo, lang in jobs]))
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
