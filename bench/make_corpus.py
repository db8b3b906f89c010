"""Generate a synthetic evaluation corpus at the scale of the RepoGenesis paper's full grid.

Usage::

    python bench/make_corpus.py OUT_DIR [--samples 10000] [--tests 300000] [--tasks 100]
                                [--runs 20] [--seed 1] [--jobs N] [--force]

Writes, in Genesis Inspector's run format (``docs/run-format.md``)::

    OUT_DIR/
      corpus.json                         what was generated (parameters, totals, special tasks)
      tasks/repo/<task>/                  README.md + golden suite (tests/ or src/test/java/)
      predictions/<run_id>/<task>[--<variant>]/   generated repos (one base repo per run x task,
                                          plus variants for code-caused deployment failures)
      runs/<run_id>/run.json, report.json, samples/<task>/<n>/{result.json, logs/*.log}

``result.json`` is exactly :func:`inspector.model.runs.runformat.sample_to_json` of a real
:class:`inspector.model.SampleResult`; ``run.json`` is written by
:func:`inspector.services.evaluate.run_writer.write_run_json`; API coverage and repo digests come
from
:mod:`inspector.services.repo.coverage` and :mod:`inspector.services.repo.files`. The number of test
results (test cases over all ``result.json`` files) equals ``--tests`` exactly when the task
sizes allow it (always at the defaults); the exact figures are printed either way.

Deterministic for a given ``--seed`` (and independent of ``--jobs``).
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import json
import multiprocessing as mp
import os
import random
import shutil
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(HERE), str(ROOT)):
    if p not in sys.path:
        sys.path.insert(0, p)

from corpus_repos import NO_REPO_CHANGE, VARIANTS, RepoTraits, build_repo  # noqa: E402
from corpus_samples import (  # noqa: E402
    PairPlan,
    RepoInfo,
    RunPlan,
    SamplePlan,
    SampleRenderer,
    case_count,
)
from corpus_tasks import TaskPlan, build_suite, min_tests, plan_tasks, write_task  # noqa: E402

from inspector.model import Task  # noqa: E402
from inspector.model.benchmark.tasks import load_tasks  # noqa: E402
from inspector.model.runs.runformat import rel, sample_to_json  # noqa: E402
from inspector.services.evaluate.run_writer import stock_report, write_run_json  # noqa: E402
from inspector.services.repo.coverage import compute_coverage  # noqa: E402
from inspector.services.repo.files import repo_digest  # noqa: E402

MARKER = "corpus.json"
AGENTS = (("forge", "Forge", 0.15), ("relay", "Relay", -0.05), ("lattice", "Lattice", 0.05),
          ("cinder", "Cinder", -0.1), ("quill", "Quill", 0.1), ("harbor", "Harbor", 0.0))
MODELS = (("m1-large", 0.2), ("m1-mini", -0.05), ("open_coder-7b", -0.2),
          ("open_coder-32b", 0.0), ("nova-pro", 0.15), ("atlas-70b", 0.05))
SETTINGS = {"jobs": 4, "install_timeout": 600.0, "startup_timeout": 15.0, "test_timeout": 300.0}
EVAL_SLOTS = 4  # samples evaluated in parallel by the (simulated) harness, for timestamps
TEST_RANGE = (10, 50)


# ----------------------------------------------------------------------------- planning

@dataclasses.dataclass
class Plan:
    tasks: list[TaskPlan]
    runs: list[RunPlan]
    tests_target: int
    tests_planned: int


def _choose_impl(rng: random.Random, t: TaskPlan) -> str:
    if t.language == "java":
        return "javalin" if t.framework == "javalin" else "spring"
    if t.framework in ("fastapi", "flask"):
        return t.framework if rng.random() < 0.95 else ("flask" if t.framework == "fastapi"
                                                         else "fastapi")
    return rng.choice(("flask", "fastapi"))


def _traits(rng: random.Random, t: TaskPlan, skill: float) -> RepoTraits:
    impl = _choose_impl(rng, t)
    missing: frozenset[str] = frozenset()
    candidates = [e.key for e in t.endpoints if e.role not in ("health", "create")]
    if candidates and rng.random() < 0.4 * (1.15 - skill):
        k = min(len(candidates), rng.choice((1, 1, 1, 2, 2, 3)))
        missing = frozenset(rng.sample(candidates, k))
    return RepoTraits(
        impl=impl, missing=missing,
        prefix=("/api/v1" if impl != "spring" else "/api") if rng.random() < 0.035 else "",
        conforming=impl != "fastapi" or rng.random() < 0.45 + 0.45 * skill,
        model_mismatch=t.language == "python" and rng.random() < 0.06,
        html_404=impl == "flask" and rng.random() < 0.3,
        route_style=rng.choice(("verb", "route")),
    )


def _kinds(rng: random.Random, t: TaskPlan, skill: float, traits: RepoTraits) -> tuple[str, str]:
    special = bool(t.defect or t.broken_suite)
    u = rng.random()
    weak = 1.3 - skill
    p_harness = 0.0 if special else 0.003
    p_install, p_start, p_health = 0.12 * weak, 0.2 * weak, 0.08 * weak
    if u < p_harness:
        return "harness", "none"
    u -= p_harness
    if u < p_install:
        deploy = "install"
    elif u < p_install + p_start:
        deploy = "start"
    elif u < p_install + p_start + p_health:
        deploy = "health"
    else:
        deploy = "ok"
    if t.broken_suite:
        return deploy, "coll"
    if deploy != "ok":
        return deploy, "fail"
    if not special and rng.random() < (0.035 if t.language == "python" else 0.06):
        return deploy, "notrun"
    if not t.defect and traits.pass_eligible and \
            rng.random() < 0.95 * (skill * (1 - t.difficulty)) ** 0.7:
        return deploy, "pass"
    return deploy, "fail"


def _solve_sizes(rng: random.Random, tasks: list[TaskPlan], weights: dict[str, int],
                 colls: dict[str, int], target: int) -> dict[str, int]:
    """Tests per task so that the test cases over all samples add up to ``target``."""
    offset = sum(colls[t.name] * (t.coll_file_tests - 1) for t in tasks)
    want = target + offset
    total_w = sum(weights.values())
    mean = want / total_w if total_w else 30.0
    lo = {t.name: min_tests(t, TEST_RANGE[0]) for t in tasks}
    n: dict[str, int] = {}
    for t in tasks:
        raw = rng.triangular(TEST_RANGE[0], TEST_RANGE[1], 30) * mean / 30
        n[t.name] = max(lo[t.name], min(TEST_RANGE[1], round(raw)))
    active = [t.name for t in tasks if weights[t.name] > 0]

    def diff() -> int:
        return want - sum(weights[k] * n[k] for k in active)

    for _ in range(100_000):
        d = diff()
        if d == 0:
            break
        step = 1 if d > 0 else -1
        best: tuple[int, list[tuple[str, int]]] | None = None
        for k in active:
            if lo[k] <= n[k] + step <= TEST_RANGE[1]:
                score = abs(d - step * weights[k])
                if best is None or score < best[0]:
                    best = (score, [(k, step)])
        if best is None or best[0] >= abs(d):
            # no single move helps: try +1 on one task and -1 on another
            for a in active:
                if n[a] + 1 > TEST_RANGE[1]:
                    continue
                for b in active:
                    if a == b or n[b] - 1 < lo[b]:
                        continue
                    score = abs(d - weights[a] + weights[b])
                    if best is None or score < best[0]:
                        best = (score, [(a, 1), (b, -1)])
            if best is None or best[0] >= abs(d):
                break
        for k, s in best[1]:
            n[k] += s
    return n


def make_plan(args: argparse.Namespace) -> Plan:
    rng = random.Random(f"corpus:{args.seed}")
    k_tasks, k_runs = args.tasks, args.runs
    n_java_tasks = round(0.2 * k_tasks) if k_tasks >= 5 and k_runs >= 3 else 0
    n_java_runs = max(1, round(0.2 * k_runs)) if n_java_tasks else 0
    n_py = k_tasks - n_java_tasks
    n_defect = max(1, round(n_py / 27)) if n_py >= 3 else 0
    tasks = plan_tasks(rng, k_tasks, n_java_tasks, n_defect)

    combos = [(a, m) for a in AGENTS for m in MODELS]
    runs: list[RunPlan] = []
    base = datetime(2026, 11, 20, 1, 0, tzinfo=UTC).timestamp()
    for lang, count in (("python", k_runs - n_java_runs), ("java", n_java_runs)):
        picks = rng.sample(combos, min(count, len(combos)))
        while len(picks) < count:
            picks.append(rng.choice(combos))
        seen: Counter[str] = Counter()
        for (agent, model) in picks:
            i = len(runs)
            date = ("1117", "1118", "1119")[i % 3]
            model_tok = model[0]
            seen[agent[0] + model_tok] += 1
            if seen[agent[0] + model_tok] > 1:
                model_tok += f"-r{seen[agent[0] + model_tok]}"
            run_id = f"repo_readme_{date}_{agent[0]}_{model_tok}_{lang.capitalize()}"
            skill = max(0.2, min(0.92, 0.55 + agent[2] + model[1] + rng.uniform(-0.08, 0.08)))
            runs.append(RunPlan(index=i, run_id=run_id, agent_token=agent[0], agent=agent[1],
                                model=model_tok, language=lang, date=date, skill=skill,
                                created=base + i * 9000 + rng.uniform(0, 600)))
    pairs: list[tuple[RunPlan, TaskPlan]] = [(r, t) for r in runs for t in tasks
                                             if t.language == r.language]
    per, extra = divmod(args.samples, len(pairs))
    lucky = set(rng.sample(range(len(pairs)), extra))
    for i, (run, task) in enumerate(pairs):
        count = per + (1 if i in lucky else 0)
        if count == 0:
            continue
        traits = _traits(rng, task, run.skill)
        pp = PairPlan(task=task.name, traits=traits)
        for n in range(count):
            deploy, suite = _kinds(rng, task, run.skill, traits)
            pp.samples.append(SamplePlan(n, deploy, suite))
        # The samples of a (run, task) share their generated code, so they fail to deploy
        # the same way, and a repo whose layout breaks the white-box tests breaks them in
        # every sample: at most one failure variant and one white-box variant per pair.
        fail_kind = next((sp.deploy for sp in pp.samples
                          if sp.deploy in ("install", "start", "health")), None)
        whitebox = task.language == "python" and not task.broken_suite and \
            rng.random() < 0.05
        for sp in pp.samples:
            if fail_kind and sp.deploy in ("install", "start", "health"):
                sp.deploy = fail_kind
            if whitebox and sp.suite in ("pass", "fail"):
                sp.suite = "coll"
        run.pairs.append(pp)
    _force_coverage(rng, runs, {t.name: t for t in tasks})
    for run in runs:
        for pp in run.pairs:
            lang = next(t for t in tasks if t.name == pp.task).language
            for kind in sorted({sp.deploy for sp in pp.samples} - {"harness"}):
                pp.variants[kind] = rng.choice(VARIANTS[lang][kind])
    ok_py = [(pp, sp) for r in runs if r.language == "python" for pp in r.pairs
             for sp in pp.samples if sp.deploy == "ok" and pp.variants.get("ok") == "plain"]
    for _pp, sp in rng.sample(ok_py, min(len(ok_py), max(1, args.samples // 2000))):
        sp.big_log = True

    by_name = {t.name: t for t in tasks}
    weights = dict.fromkeys(by_name, 0)
    colls = dict.fromkeys(by_name, 0)
    for run in runs:
        for pp in run.pairs:
            for sp in pp.samples:
                if sp.suite in ("pass", "fail", "coll"):
                    weights[pp.task] += 1
                if sp.suite == "coll":
                    colls[pp.task] += 1
    sizes = _solve_sizes(rng, tasks, weights, colls, args.tests)
    suite_rng = random.Random(f"suites:{args.seed}")
    for t in tasks:
        build_suite(suite_rng, t, sizes[t.name])
    planned = sum(case_count(by_name[pp.task].n_tests, by_name[pp.task].coll_file_tests,
                             sp.suite)
                  for r in runs for pp in r.pairs for sp in pp.samples)
    return Plan(tasks, runs, args.tests, planned)


def _force_coverage(rng: random.Random, runs: list[RunPlan], tasks: dict[str, TaskPlan]) -> None:
    """Make sure a small corpus still holds every kind of outcome at least once."""
    needed = [("ok", "pass"), ("ok", "fail"), ("install", "fail"), ("start", "fail"),
              ("health", "fail"), ("ok", "notrun")]
    pool = [(pp, sp) for r in runs for pp in r.pairs for sp in pp.samples
            if tasks[pp.task].language == "python" and not tasks[pp.task].defect
            and not tasks[pp.task].broken_suite]
    have = Counter((sp.deploy, sp.suite) for r in runs for pp in r.pairs for sp in pp.samples)
    used: set[int] = set()
    rng.shuffle(pool)
    for kind in needed:
        if have[kind]:
            continue
        for pp, sp in pool:
            current = (sp.deploy, sp.suite)
            if id(sp) in used or (current in needed and have[current] <= 1):
                continue
            used.add(id(sp))
            have[current] -= 1
            have[kind] += 1
            sp.deploy, sp.suite = kind
            if kind == ("ok", "pass"):
                pp.traits = dataclasses.replace(pp.traits, missing=frozenset(), prefix="",
                                                conforming=True, model_mismatch=False)
            break


# ----------------------------------------------------------------------------- workers

_G: dict[str, Any] = {}


def _write(path: Path, data: str) -> int:
    raw = data.encode("utf-8")
    with open(path, "wb") as fh:
        fh.write(raw)
    return len(raw)


def _repo(run: RunPlan, task: TaskPlan, mtask: Task, pp: PairPlan, variant: str,
          whitebox: bool, cache: dict[tuple[str, bool], RepoInfo], stats: Counter[str]
          ) -> RepoInfo:
    phys = "plain" if variant in NO_REPO_CHANGE else variant
    key = (phys, whitebox)
    if key not in cache:
        repo = build_repo(task, pp.traits, phys, whitebox)
        suffix = "+".join(x for x in (phys if phys != "plain" else "",
                                      "whitebox" if whitebox else "") if x)
        path = _G["out"] / "predictions" / run.run_id / (
            task.name + (f"--{suffix}" if suffix else ""))
        for relpath, text in repo.files.items():
            f = path / relpath
            f.parent.mkdir(parents=True, exist_ok=True)
            stats["bytes"] += _write(f, text)
            stats["files"] += 1
        if "start.sh" in repo.files:
            os.chmod(path / "start.sh", 0o755)
        stats["repos"] += 1
        cache[key] = RepoInfo(path=path, digest=repo_digest(path),
                              coverage=compute_coverage(path, mtask.endpoints), variant=phys,
                              handler_lines=repo.handler_lines, server_port=repo.server_port,
                              requirements=repo.requirements,
                              bad_requirement=repo.bad_requirement,
                              broken_module=repo.broken_module, whitebox_broken=whitebox)
    info = cache[key]
    return info if info.variant == variant else dataclasses.replace(info, variant=variant)


def _run_worker(index: int) -> dict[str, Any]:
    """Generate one run folder; returns its figures."""
    t_start = time.perf_counter()
    out: Path = _G["out"]
    run: RunPlan = _G["runs"][index]
    tasks: dict[str, TaskPlan] = _G["tasks"]
    mtasks: dict[str, Task] = _G["mtasks"]
    counter = _G["counter"]
    run_dir = out / "runs" / run.run_id
    pred_dir = out / "predictions" / run.run_id
    stats: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    slots = [run.created + 1.5 + k * 0.01 for k in range(EVAL_SLOTS)]
    heapq.heapify(slots)
    index_rows: list[tuple[str, int]] = []
    first: list[Any] = []
    max_n = 1
    for pp in run.pairs:
        task, mtask = tasks[pp.task], mtasks[pp.task]
        cache: dict[tuple[str, bool], RepoInfo] = {}
        for sp in pp.samples:
            variant = pp.variants.get(sp.deploy, "plain") if sp.deploy != "harness" else "plain"
            whitebox = sp.suite == "coll" and not task.broken_suite
            info = _repo(run, task, mtask, pp, variant, whitebox, cache, stats)
            sdir = run_dir / "samples" / task.name / str(sp.n)
            start = heapq.heappop(slots)
            r = SampleRenderer(seed=_G["seed"], run=run, task=task, pair=pp, sp=sp, repo=info,
                               sample_dir=sdir, start=start, tasks_root=out / "tasks").render()
            heapq.heappush(slots, r.end + 0.01)
            expected = case_count(task.n_tests, task.coll_file_tests, sp.suite)
            if r.cases != expected:  # pragma: no cover - generator bug
                raise AssertionError(f"{run.run_id}/{task.name}/{sp.n}: {r.cases} cases, "
                                     f"planned {expected}")
            (sdir / "logs").mkdir(parents=True, exist_ok=True)
            for ph, text in r.logs.items():
                stats["bytes"] += _write(sdir / "logs" / f"{ph.value}.log", text)
            doc = sample_to_json(r.result, sdir, r.started, r.finished)
            tmp = sdir / ".result.json.tmp"
            stats["bytes"] += _write(tmp, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            os.replace(tmp, sdir / "result.json")
            stats["files"] += 5
            stats["samples"] += 1
            stats["tests"] += r.cases
            stats["log_lines"] += r.lines
            outcomes[_outcome_kind(r.result)] += 1
            index_rows.append((task.name, sp.n))
            max_n = max(max_n, sp.n + 1)
            if sp.n == 0:
                first.append(r.result)
            with counter.get_lock():
                counter.value += 1
    finished = max(slots)
    created_iso = datetime.fromtimestamp(run.created, UTC).isoformat(timespec="microseconds")
    finished_iso = datetime.fromtimestamp(finished, UTC).isoformat(timespec="microseconds")
    elapsed = round(finished - run.created, 2)
    run_tasks = [mtasks[pp.task] for pp in run.pairs]
    write_run_json(run_dir, run_id=run.run_id, agent=run.agent, model=run.model,
                   language=run.language, generation_date=run.date, created_at=created_iso,
                   finished_at=finished_iso, status="complete", predictions=[pred_dir] * max_n,
                   tasks_root=out / "tasks", tasks=run_tasks, samples=index_rows,
                   backend="docker", settings={**SETTINGS, "generator": "bench/make_corpus.py",
                                               "seed": _G["seed"]},
                   elapsed_seconds=elapsed)
    report = stock_report(first, rel(pred_dir, run_dir), elapsed,
                          datetime.fromtimestamp(finished, UTC), run.agent, run.model, 15.0,
                          "docker")
    stats["bytes"] += _write(run_dir / "report.json",
                             json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    stats["bytes"] += (run_dir / "run.json").stat().st_size
    stats["files"] += 2
    return {"run_id": run.run_id, "stats": dict(stats), "outcomes": dict(outcomes),
            "seconds": round(time.perf_counter() - t_start, 2)}


def _outcome_kind(s: Any) -> str:
    d = s.deployment
    if s.error:
        return "harness error"
    if not d.success:
        return f"not deployed ({d.failed_phase.value if d.failed_phase else '?'})"
    if s.tests.status.value == "not_run":
        return "suite not run"
    if s.passed:
        return "passed"
    if s.tests.collection_errors:
        return "collection error"
    return "tests failed"


def _init_worker(counter: Any) -> None:
    _G["counter"] = counter


# ----------------------------------------------------------------------------- main

def _prepare_out(out: Path, force: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SystemExit(f"{out}: not empty (use --force to replace a corpus)")
        if not (out / MARKER).is_file():
            raise SystemExit(f"{out}: not empty and not a corpus written by this script "
                             f"(no {MARKER}); refusing to delete it")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def _disk_usage(path: Path) -> tuple[int, int]:
    files = blocks = 0
    for dirpath, _dirs, names in os.walk(path):
        for name in names:
            st = os.lstat(os.path.join(dirpath, name))
            files += 1
            blocks += st.st_blocks * 512
    return files, blocks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="output folder (created)")
    ap.add_argument("--samples", type=int, default=10_000, help="samples in total")
    ap.add_argument("--tests", type=int, default=300_000, help="test results in total")
    ap.add_argument("--tasks", type=int, default=100, help="benchmark tasks")
    ap.add_argument("--runs", type=int, default=20, help="runs (agent x model x language)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--force", action="store_true", help="replace OUT_DIR if it holds a corpus")
    args = ap.parse_args(argv)
    if args.tasks < 3 or args.runs < 1 or args.samples < 1 or args.tests < 0:
        ap.error("need --tasks >= 3, --runs >= 1, --samples >= 1")
    t0 = time.perf_counter()
    out = args.out.resolve()
    _prepare_out(out, args.force)
    plan = make_plan(args)
    n_task_files = sum(write_task(out / "tasks", t) for t in plan.tasks)
    mtasks, issues = load_tasks(out / "tasks")
    for t in plan.tasks:
        m = mtasks[t.name]
        if m.expected_tests != t.n_tests or {e.key for e in m.endpoints} != \
                {e.key for e in t.endpoints}:
            raise SystemExit(f"internal error: task {t.name} does not load as planned")
    if issues:
        raise SystemExit(f"internal error: tasks load with issues: {issues[:3]}")
    print(f"planned {len(plan.runs)} runs x {len(plan.tasks)} tasks: "
          f"{sum(len(pp.samples) for r in plan.runs for pp in r.pairs)} samples, "
          f"{plan.tests_planned} test results (asked for {args.tests}); "
          f"{sum(t.language == 'java' for t in plan.tasks)} java tasks, "
          f"{sum(r.language == 'java' for r in plan.runs)} java runs", flush=True)
    _G.update(out=out, runs=plan.runs, tasks={t.name: t for t in plan.tasks}, mtasks=mtasks,
              seed=args.seed)
    ctx = mp.get_context("fork")
    counter = ctx.Value("i", 0)
    total = sum(len(pp.samples) for r in plan.runs for pp in r.pairs)
    step = 1000 if total >= 5000 else max(1, total // 5)
    order = sorted(range(len(plan.runs)), key=lambda i: -sum(len(pp.samples)
                                                             for pp in plan.runs[i].pairs))
    with ctx.Pool(max(1, args.jobs), initializer=_init_worker, initargs=(counter,)) as pool:
        async_result = pool.map_async(_run_worker, order, chunksize=1)
        shown = 0
        while not async_result.ready():
            async_result.wait(0.2)
            done = counter.value
            if done // step > shown // step:
                shown = done
                print(f"  {done:>6}/{total} samples  {time.perf_counter() - t0:6.1f}s",
                      flush=True)
        results = async_result.get()
    gen_seconds = time.perf_counter() - t0
    stats: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for r in results:
        stats.update(r["stats"])
        outcomes.update(r["outcomes"])
    files, disk = _disk_usage(out)
    specials = {
        "defect_tests": [{"task": t.name, "kind": t.defect, "test_id": t.defect_test.id}
                         for t in plan.tasks if t.defect and t.defect_test],
        "broken_suite": [{"task": t.name, "file": t.coll_file} for t in plan.tasks
                         if t.broken_suite],
    }
    summary = {
        "generator": "bench/make_corpus.py", "seed": args.seed,
        "requested": {"samples": args.samples, "tests": args.tests, "tasks": args.tasks,
                      "runs": args.runs},
        "totals": {"samples": stats["samples"], "tests": stats["tests"],
                   "runs": len(results), "tasks": len(plan.tasks), "repos": stats["repos"],
                   "log_lines": stats["log_lines"], "files": files + 1,
                   "bytes_written": stats["bytes"], "disk_bytes": disk,
                   "seconds": round(gen_seconds, 1)},
        "outcomes": dict(sorted(outcomes.items())),
        "special_tasks": specials,
        "runs": sorted(r["run_id"] for r in results),
    }
    (out / MARKER).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"done: {stats['samples']} samples, {stats['tests']} test results, "
          f"{len(results)} runs, {len(plan.tasks)} tasks, {stats['repos']} repos")
    print(f"      {files + 1} files ({n_task_files} task files), "
          f"{stats['bytes'] / 1e6:.1f} MB written, {disk / 1e6:.1f} MB on disk, "
          f"{stats['log_lines']} log lines, {gen_seconds:.1f}s")
    print("      outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    for d in specials["defect_tests"]:
        print(f"      benchmark defect: {d['test_id']} in {d['task']} ({d['kind']})")
    for b in specials["broken_suite"]:
        print(f"      never collects: {b['file']} in {b['task']}")
    if stats["tests"] != args.tests:
        print(f"      note: {stats['tests']} test results, not {args.tests} "
              f"({100 * (stats['tests'] - args.tests) / max(1, args.tests):+.2f}%): the task "
              "sizes (10-50 tests) cannot add up exactly", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
