"""Time from "re-run" to verdict, cold and warm, Docker and local, next to a whole-suite run.

    python bench/bench_rerun.py [--repeat 5] [--no-image-cache]

Uses the bundled forge todo-service sample (one failing test, ``test_create_defaults``).
Figures printed (seconds, median of --repeat where repeated):

* docker cold, no image: the sample image is built first (pip install in a container, commit);
  only with --no-image-cache (it removes the cached image first; once);
* docker cold: a new sandbox from the cached image (container create, copy, start, port);
* docker warm: the sandbox is already up; only the test runs;
* local cold / warm: the same with a local process and the cached virtualenv;
* whole suite: ``evaluate_sample`` of the sample (deploy + all 12 tests + teardown), which is
  what re-running the benchmark for this one repo costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.services.deploy.backend import SampleJob  # noqa: E402
from inspector.services.deploy.choose import backend_factory, find_target  # noqa: E402
from inspector.services.deploy.warm import DeploymentPool  # noqa: E402
from inspector.services.evaluate.run import evaluate_sample  # noqa: E402
from inspector.services.rerun.runner import rerun, resolve_tests  # noqa: E402


def _median(xs: list[float]) -> str:
    return f"{statistics.median(xs):6.2f}s" + (f"  (min {min(xs):.2f}, max {max(xs):.2f}, "
                                               f"n={len(xs)})" if len(xs) > 1 else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-image-cache", action="store_true")
    ap.add_argument("--backends", default="docker,local")
    args = ap.parse_args()
    target = find_target(ROOT / "sample_runs" / "runs", "todo-service", 0, "forge")
    ids = resolve_tests(target, ["test_create_defaults"])
    work = Path(tempfile.mkdtemp(prefix="gi-bench-rerun-"))
    rows: list[tuple[str, str]] = []
    factory = backend_factory(True)
    for backend in args.backends.split(","):
        pool = DeploymentPool(factory, work_root=work / backend)
        try:
            if backend == "docker" and args.no_image_cache:
                from inspector.services.sandbox.images import SAMPLE_REPO

                client = pool.backend("docker").client  # type: ignore[attr-defined]
                for img in client.images.list(SAMPLE_REPO):
                    client.images.remove(img.id, force=True)
                t0 = time.monotonic()
                r = rerun(pool, target, ids, backend, fresh=True)
                assert r.exit_code == 1, r.to_json()
                rows.append((f"{backend} cold, image built", _median([time.monotonic() - t0])))
            cold, warm = [], []
            for _ in range(args.repeat):
                t0 = time.monotonic()
                r = rerun(pool, target, ids, backend, fresh=True)
                cold.append(time.monotonic() - t0)
                assert r.exit_code == 1 and not r.reused, r.to_json()
                for _ in range(2):
                    t0 = time.monotonic()
                    r = rerun(pool, target, ids, backend)
                    warm.append(time.monotonic() - t0)
                    assert r.exit_code == 1 and r.reused
            rows.append((f"{backend} cold re-run", _median(cold)))
            rows.append((f"{backend} warm re-run", _median(warm)))
            pool.stop_all()
            suite = []
            for i in range(max(1, args.repeat // 2)):
                job = SampleJob(target.run_id, target.task, 0, target.repo,
                                work / f"{backend}-suite-{i}")
                t0 = time.monotonic()
                res = evaluate_sample(pool.backend(backend), job)
                suite.append(time.monotonic() - t0)
                assert res.tests.failed == 3, res.deployment.message
            rows.append((f"{backend} whole-suite evaluation", _median(suite)))
        finally:
            pool.close()
    width = max(len(k) for k, _ in rows)
    print(f"re-run of {ids[0]} ({target.key})")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")


if __name__ == "__main__":
    main()
