"""Small runs in our format, written by the real writer, for the analysis tests."""

from __future__ import annotations

from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.results.sample import Deployment, Generation, SampleResult, TestSummary
from inspector.services.evaluate.run_writer import write_run_json, write_sample

STAMP = "2026-11-26T09:00:00.000000+00:00"

# task -> (framework, language)
TASKS = {"alpha": ("flask", "python"), "beta": ("fastapi", "python"),
         "gamma": ("flask", "python"), "delta": ("springboot", "java")}


def write_run(root: Path, run_id: str, agent: str, model: str,
              samples: dict[str, list[tuple[int, int]]],
              generation: dict[tuple[str, int], Generation] | None = None) -> Path:
    """A run folder ``root/run_id``: per task, one ``(passed, counted)`` per sample; a sample
    with 0 counted tests did not deploy."""
    run_dir = root / run_id
    kinds = {t: TASKS.get(t, ("flask", "python")) for t in samples}  # other names: flask
    tasks = [Task(t, kinds[t][1], kinds[t][0], 8080, "") for t in samples]
    done = []
    for task, results in samples.items():
        framework, language = kinds[task]
        for n, (passed, total) in enumerate(results):
            s = SampleResult(
                run_id=run_id, task=task, sample=n, language=language,
                deployment=Deployment(success=total > 0),
                tests=TestSummary(passed=passed, failed=total - passed),
                framework=framework,
                generation=(generation or {}).get((task, n)))
            write_sample(run_dir, s, STAMP, STAMP)
            done.append((task, n))
    write_run_json(run_dir, run_id=run_id, agent=agent, model=model, language="python",
                   generation_date=None, created_at=STAMP, finished_at=STAMP,
                   status="complete", predictions=[], tasks_root=root / "tasks", tasks=tasks,
                   samples=done, backend="local", settings={}, elapsed_seconds=1.0)
    return run_dir
