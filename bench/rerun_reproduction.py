"""How often `inspector rerun` reproduces the recorded failures of the bundled real tasks.

    python bench/rerun_reproduction.py [--runs NAME ...] [--backend local|docker]

For every sample of the bundled real-task runs with failing tests, all its recorded failures
are re-run on one fresh deployment (what `A` does in the sample view) and compared with what was
recorded: still failing with the same error, still failing with another error, or now passing
(a failure that depended on the order or state of the full run, or a flaky one). Prints a row
per sample and the totals; the reproduction rate is still-failing / recorded failures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.model.runs.runformat import load_run  # noqa: E402
from inspector.services.deploy.choose import backend_factory  # noqa: E402
from inspector.services.deploy.warm import DeploymentPool, Target  # noqa: E402
from inspector.services.rerun.runner import rerun, resolve_tests  # noqa: E402

REAL_RUNS = ("repo_readme_1125_atlas_m2-large_Python", "repo_readme_1125_dash_m2-mini_Python",
             "repo_readme_1125_relay_open_coder-7b_Python")


def reproduce(run_dir: Path, pool: DeploymentPool, backend: str) -> list[tuple[str, Counter]]:
    """Per failing sample of the run: counts of same / different error / now passes / not run."""
    run, _ = load_run(run_dir)
    rows = []
    for sample in run.samples:
        if not sample.failing_tests or sample.repo_path is None:
            continue
        task = run.tasks[sample.task]
        target = Target(run.id, task, sample.sample, sample.repo_path, sample)
        ids = resolve_tests(target, ["failures"])
        report = rerun(pool, target, ids, backend)
        counts = Counter(comparison for _, rec, _, comparison in report.results()
                         if rec is not None)
        if not report.deployed:
            # a sample that never deployed: reproduced when the redeployment fails too
            counts = Counter({"deployment failed again" if not sample.deployment.success
                              else "not deployed": 1})
        rows.append((f"{run.id}/{sample.task}/{sample.sample}", counts))
        pool.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="*", default=list(REAL_RUNS))
    ap.add_argument("--backend", default="local", choices=("local", "docker"))
    args = ap.parse_args()
    total: Counter = Counter()
    with tempfile.TemporaryDirectory(prefix="gi-repro-") as tmp:
        pool = DeploymentPool(backend_factory(allow_local=True),
                              work_root=Path(tmp))
        try:
            for name in args.runs:
                for key, counts in reproduce(ROOT / "sample_runs" / "runs" / name, pool,
                                             args.backend):
                    total.update(counts)
                    print(f"{key:70s} " + "  ".join(f"{k}: {v}" for k, v in
                                                     sorted(counts.items())))
        finally:
            pool.close()
    recorded = sum(total.values())
    still = total["same"] + total["different error"]
    recorded -= total["deployment failed again"]
    print(f"\nfailed deployments redeployed: {total['deployment failed again']} failed again")
    print(f"recorded test failures re-run: {recorded}; still failing: {still} "
          f"({still / max(1, recorded):.1%}; same error {total['same']}, other error "
          f"{total['different error']}); now passing: {total['now passes']}; "
          f"not run: {total['not run']}; could not redeploy: {total['not deployed']}")


if __name__ == "__main__":
    main()
