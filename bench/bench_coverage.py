"""Time strict API coverage on a big repo: the resolver now vs the line-regex check before it.

    python bench/bench_coverage.py [REPO] [--readme README.md] [--before REV] [--repeat N]

REPO defaults to this project's own ``inspector/`` folder (about 100 Python modules);
the endpoints default to a bundled real task's README. "before" is
``inspector/services/repo/coverage.py`` as of git revision REV (default: the commit before the
resolver), loaded from ``git show``; it is skipped outside a git checkout.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.model.readme.reader import extract_endpoints  # noqa: E402
from inspector.services.repo.coverage import compute_coverage  # noqa: E402

BEFORE = "60c2226~1"


def _before(rev: str):  # noqa: ANN202 - a module's function
    try:
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:inspector/services/"
                              "coverage.py"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader("inspector.services._coverage_before", loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = "inspector.services"
    sys.modules[spec.name] = mod  # type: ignore[union-attr]
    exec(compile(src, f"coverage.py@{rev}", "exec"), mod.__dict__)  # noqa: S102
    return mod.compute_coverage


def _time(fn, repo: Path, eps, repeat: int) -> tuple[float, object]:  # noqa: ANN001
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(repo, eps)
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo", nargs="?", type=Path, default=ROOT / "inspector")
    ap.add_argument("--readme", type=Path,
                    default=ROOT / "sample_runs/tasks/repo/UserManagement_2/README.md")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    eps = extract_endpoints(args.readme.read_text())
    files = sum(1 for p in args.repo.rglob("*") if p.suffix in (".py", ".java"))
    print(f"repo {args.repo} ({files} .py/.java files), {len(eps)} endpoints, "
          f"median of {args.repeat}")
    rows = []
    old = _before(args.before)
    if old is not None:
        t, cov = _time(old, args.repo, eps, args.repeat)
        rows.append((f"before ({args.before})", t, cov))
    t, cov = _time(compute_coverage, args.repo, eps, args.repeat)
    rows.append(("after (route resolver)", t, cov))
    print(f"{'':26} {'seconds':>8}  strict  unresolved  lenient")
    for name, t, c in rows:
        print(f"{name:26} {t:8.3f}  {c.implemented_apis:>3}/{c.total_apis:<3} "  # type: ignore[attr-defined]
              f"{getattr(c, 'unresolved_apis', 0):>9}  {c.lenient_implemented_apis:>7}")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
