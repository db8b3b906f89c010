"""``inspector labels agreement|export|suggest|check|errata``: thin over the label services."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector import paths
from inspector.cli_errors import CliError
from inspector.cli_output import print_json
from inspector.model.figures.percent import NA, pct

if TYPE_CHECKING:
    from inspector.model import Run
    from inspector.model.failures.triage import SampleTriage
    from inspector.model.labels.labelset import LabelSet
    from inspector.model.labels.taxonomy import Taxonomy
    from inspector.services.labels.store import LabelStore, LoadedLabels
    from inspector.services.triage.engine import TriageContext


def _labels_dir(path: str | None, labels: str | None) -> Path:
    from inspector.services.labels.store import find_labels_dir

    if labels:
        return Path(labels)
    root = Path(path) if path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    try:
        if root.name == "labels" or (root / "annotators").is_dir():
            return root
    except OSError:  # a folder we may not enter: the store reports it, naming it
        return root
    return find_labels_dir(root)


def _load(path: str | None, labels: str | None) -> tuple[LabelStore, Taxonomy, LoadedLabels]:
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.labels.store import LabelStore

    store = LabelStore(_labels_dir(path, labels))
    try:
        taxonomy = store.taxonomy()
    except LoadError as exc:
        raise CliError.of(exc) from None
    loaded = store.load()
    for problem in loaded.problems:
        print(f"inspector: error: {problem}", file=sys.stderr)
    return store, taxonomy, loaded


def _runs(path: Path) -> list[Run]:
    from inspector.model import discover_runs

    found = discover_runs(path)
    for issue in found.issues:
        if issue.severity == "error":
            print(f"inspector: warning: {issue}", file=sys.stderr)
    return found.runs


def _view(args: argparse.Namespace, default: str) -> str:
    """``--view`` (``--per-root`` is ``--view root``), else ``default``."""
    if getattr(args, "per_root", False):
        if args.view not in (None, "root"):
            raise CliError(f"--per-root and --view {args.view} disagree (--per-root is "
                           "--view root)")
        return "root"
    return str(args.view or default)


def cmd_agreement(args: argparse.Namespace) -> int:
    from inspector.model.labels.agreement import agreement, format_agreement
    from inspector.model.labels.rollup import DEFAULT_AGREEMENT_VIEW, VIEW_TEXT, view_ratings

    view = _view(args, DEFAULT_AGREEMENT_VIEW)
    store, taxonomy, loaded = _load(args.path, args.labels)
    if not loaded.labels.files:
        raise CliError(f"{store.root}: no label files (expected annotators/<name>.json)")
    ratings = view_ratings(loaded.labels, view, list(taxonomy.ids))
    report = agreement(ratings, list(taxonomy.ids))
    if args.json:
        doc = {"labels": str(store.root), "taxonomy": taxonomy.id, "view": view,
               "view_text": VIEW_TEXT[view], **report.to_json()}
        if view == "root":
            doc["unit"] = "per_root"
        print_json(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(f"Labels: {store.root}  (taxonomy: {taxonomy.name})")
        print(f"View: {VIEW_TEXT[view]} (--view root|sample|test).")
        print(format_agreement(report, {c.id: c.name for c in taxonomy.categories}))
        adjudicated = [i for i in loaded.labels.disagreements()
                       if loaded.labels.adjudicated(i) is not None and i.key in ratings]
        if view == "sample":
            adjudicated = []  # per sample, each annotator's own roll-up is compared
        if report.disagreements:
            print(f"Adjudicated: {len(adjudicated)} of {len(report.disagreements)} "
                  "disagreements (the app's disagreement queue sets the rest).")
    return 1 if loaded.problems else 0


def cmd_export(args: argparse.Namespace) -> int:
    from inspector.model.labels.rollup import DEFAULT_VIEW, VIEW_UNIT
    from inspector.services.labels.export import render, view_line
    from inspector.services.labels.report import export_rows, sample_index, sample_where
    from inspector.services.labels.views import view_rows

    view = _view(args, DEFAULT_VIEW)
    run_dir = Path(args.run_dir)
    if not run_dir.exists():
        raise CliError.missing(run_dir)
    store, taxonomy, loaded = _load(str(run_dir), args.labels)
    runs = _runs(run_dir)
    if not runs:
        raise CliError(f"{run_dir}: no runs found")
    index = sample_index(runs)
    rows, outside = export_rows(loaded.labels, index)
    counted = view_rows(loaded.labels, view, list(taxonomy.ids), sample_where(index))
    if view != "sample":  # the listing: the items behind the counts (roots, or tests)
        rows = counted.rows
    meta = {"runs": sorted(r.id for r in runs), "labels": str(store.root),
            "annotators": loaded.labels.annotators, "view": view}
    if view == "root":
        meta["unit"] = "per_root"
    text = render(rows, taxonomy, args.format, meta, counted=counted.rows, view=view,
                  details=counted.sample_details())
    print(f"inspector: note: {view_line(view)} The tables count {len(counted.rows)} "
          f"{VIEW_UNIT[view]} (--view root|sample|test).", file=sys.stderr)
    if outside:
        print(f"inspector: note: {len(outside)} labelled item(s) belong to runs outside "
              f"{run_dir} and are not in the export", file=sys.stderr)
    if not rows:
        print(f"inspector: note: no labels for the runs in {run_dir} (labels: {store.root})",
              file=sys.stderr)
    if args.output:
        from inspector.services.storage.atomic import shared_file_mode, write_bytes_atomic

        out = Path(args.output)
        write_bytes_atomic(out, text.encode("utf-8"), mode=shared_file_mode(out))
        print(f"wrote {out} ({len(rows)} labelled items; tables: {len(counted.rows)} "
              f"{VIEW_UNIT[view]})", file=sys.stderr)
    elif args.format == "json":
        print_json(text.removesuffix("\n"))
    else:
        sys.stdout.write(text)
    return 1 if loaded.problems else 0


def _progress(done: int, total: int) -> None:
    """``triaging 12/40 samples`` on a terminal's stderr, overwritten in place."""
    end = "\n" if done >= total else ""
    print(f"\rtriaging {done}/{total} samples", end=end, file=sys.stderr, flush=True)


def _triage(root: Path, args: argparse.Namespace | None = None) -> list[SampleTriage]:
    """Every failing sample of the runs under ``root``, triaged (progress on a terminal);
    with ``--confirm``, the root suggestions that carry a remedy are re-decided with a causal
    re-run's outcome."""
    from inspector.services.triage.engine import TriageContext, triage_all

    runs = _runs(root)
    if not runs:
        raise CliError(f"{root}: no runs found")
    ctx = TriageContext.of_runs(runs)
    triages = triage_all(ctx, progress=_progress if sys.stderr.isatty() else None)
    if args is not None and getattr(args, "confirm", False):
        triages = _confirm(args, ctx, triages)
    return triages


def _confirm(args: argparse.Namespace, ctx: TriageContext, triages: list[SampleTriage]
             ) -> list[SampleTriage]:
    """Try the remedies of up to ``--confirm-max`` root suggestions in the sandbox."""
    import time

    from inspector.cli_sandbox import (
        _backend_name,
        _cancel_on_sigint,
        _pool,
        _settings_allow_local,
    )
    from inspector.services.deploy.warm import DeployError, Target
    from inspector.services.triage.engine import confirm_in
    from inspector.services.triage.remedies import SUPPORTED, confirm_suggestions

    roots = [s for t in triages for s in t.suggestions
             if s.is_root and s.remedy is not None and s.remedy.kind in SUPPORTED]
    roots = roots[:args.confirm_max]
    if not roots:
        print("no suggestion has a remedy to confirm", file=sys.stderr)
        return triages
    results = {s.sample_id: s for run in ctx.runs for s in run.samples}
    allow_local = _settings_allow_local(args.allow_local_exec)
    backend = _backend_name(args, allow_local)
    t0 = time.monotonic()

    def say(msg: str) -> None:
        if not args.quiet:
            print(f"[{time.monotonic() - t0:5.1f}s] {msg}", file=sys.stderr, flush=True)

    def target(sample_id: str) -> Target | None:
        result = results.get(sample_id)
        task = ctx.task_of(result) if result is not None else None
        if result is None or task is None:
            return None
        try:
            return Target.from_result(result, task)
        except DeployError as exc:
            say(f"{sample_id}: {exc}")
            return None

    say(f"confirming {len(roots)} suggestion(s) with a remedy on {backend}")
    pool = _pool(args, allow_local)
    try:
        with _cancel_on_sigint() as cancel:
            confirmed = confirm_suggestions(roots, target, pool, backend, say=say,
                                            cancel=cancel)
    except DeployError as exc:
        raise CliError(str(exc)) from None
    finally:
        pool.close()
    by_sample = {t.sample: t for t in triages}
    for s in confirmed:
        if s.confirmation is not None:
            say(f"{s.item.key}: {s.confirmation.outcome}")
            by_sample[s.item.sample] = confirm_in(by_sample[s.item.sample], s.item.key,
                                                  s.confirmation)
    return [by_sample[t.sample] for t in triages]


def cmd_suggest_per_test(args: argparse.Namespace, root: Path) -> int:
    from inspector.services.triage.listing import format_per_test, suggestion_rows

    triages = _triage(root, args)
    if args.json:
        print_json(json.dumps(suggestion_rows(triages), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_per_test(triages))
    return 0


def _scored_against(folder: Path, source: str, labels: LabelSet) -> dict[str, Any]:
    """Which labels a score is against: folder, why it was chosen, annotators, counts."""
    n = sum(len(f.active()) for f in labels.files.values())
    adjudicated = len(labels.adjudication.active()) if labels.adjudication else 0
    return {"folder": str(folder), "source": source, "annotators": labels.annotators,
            "labels": n, "items": len(labels.items()), "adjudicated": adjudicated}


def cmd_suggest_score(args: argparse.Namespace, root: Path) -> int:
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.labels.store import find_reference_labels_dir
    from inspector.services.triage.score import load_split, score_triage
    from inspector.services.triage.score_text import format_score

    labels, source = args.labels, "given with --labels"
    if labels is None:
        reference = find_reference_labels_dir(root)
        labels = str(reference) if reference is not None else None
        source = ("the reference labels found beside the runs; --labels DIR scores against "
                  "others" if reference is not None else
                  "the runs folder's labels: no reference labels (labels-real/) found")
    store, taxonomy, loaded = _load(str(root), labels)
    if not loaded.labels.files and loaded.labels.adjudication is None:
        raise CliError(f"{store.root}: no label files (expected annotators/<name>.json)")
    try:
        split = load_split(store.root)
    except LoadError as exc:
        raise CliError(str(exc)) from None
    report = score_triage(_triage(root, args), loaded.labels, list(taxonomy.ids), split)
    against = _scored_against(store.root, source, loaded.labels)
    if args.json:
        doc = {"labels": str(store.root), "runs": str(root), "taxonomy": taxonomy.id,
               "annotators": loaded.labels.annotators, "scored_against": against,
               **report.to_json()}
        print_json(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        chosen = (f"{source}; {against['labels']} labels of {against['items']} items"
                  + (f", {against['adjudicated']} adjudicated" if against["adjudicated"]
                     else ""))
        sys.stdout.write(format_score(report, store.root, root, loaded.labels.annotators,
                                      chosen))
    return 1 if loaded.problems else 0


def cmd_suggest(args: argparse.Namespace) -> int:
    from inspector.model.results.verdict import verdict_of
    from inspector.services.labels.report import sample_index, suggestion_accuracy

    root = Path(args.path) if args.path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    if args.confirm and not (args.per_test or args.score):
        raise CliError("--confirm needs --per-test or --score")
    if args.per_test:
        return cmd_suggest_per_test(args, root)
    if args.score:
        return cmd_suggest_score(args, root)
    store, taxonomy, loaded = _load(str(root), args.labels)
    index = sample_index(_runs(root))
    rows = []
    found = {}
    for sid, info in sorted(index.items()):
        if not verdict_of(info.result).is_failure:
            continue
        s = found[sid] = info.suggest()
        rows.append({"sample": sid, "category": s.category if s else None,
                     "rule": s.rule if s else None, "reason": s.reason if s else "",
                     "evidence": [a.describe() for a in s.evidence] if s else []})
    acc = suggestion_accuracy(loaded.labels, index, found)
    if args.json:
        print_json(json.dumps({"suggestions": rows, "accuracy": acc.to_json()}, indent=2,
                              ensure_ascii=False))
        return 0
    for r in rows:
        category = r["category"]
        name = taxonomy.name_of(category) if isinstance(category, str) and category \
            else "— (no rule fired)"
        print(f"{r['sample']}\n  {name}" + (f"  [{r['rule']}]" if r["rule"] else ""))
        if r["reason"]:
            print(f"  {r['reason']}")
    j = acc.to_json()
    print()
    print(f"Suggestions on labelled samples: {acc.suggested} of {acc.items} got one "
          f"({pct(j['coverage'], NA)}); matched the final label on {acc.matched_final} of "
          f"{acc.resolved} ({pct(j['accuracy_final'], NA)}).")
    for name, d in j["per_annotator"].items():
        print(f"  vs {name}: {d['matched']} of {d['items']} ({pct(d['accuracy'], NA)})")
    for m in acc.misses:
        print(f"  miss: {m['item']}: suggested {m['suggested']} ({m['rule']}), final "
              f"{m['final']} ({m['status']})")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    store, taxonomy, loaded = _load(args.path, args.labels)
    names = loaded.labels.annotators
    unknown = 0
    for name, f in sorted(loaded.labels.files.items()):
        for lb in f.labels:
            if lb.active and taxonomy.get(lb.category) is None:
                unknown += 1
                print(f"inspector: warning: {store.path_for(name)}: {lb.item.key}: category "
                      f"{lb.category!r} is not in taxonomy {taxonomy.id!r}", file=sys.stderr)
    print(f"{store.root}: {len(names)} annotator file(s) ({', '.join(names) or 'none'}), "
          f"{len(loaded.labels.items())} labelled items, taxonomy {taxonomy.id} "
          f"({store.taxonomy_path}); {len(loaded.problems)} unreadable file(s), {unknown} "
          "unknown categories")
    return 1 if loaded.problems or unknown else 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lb = sub.add_parser("labels", help="failure labels: agreement, export, suggestions, check",
                        description="Work with failure labels (labels/annotators/<name>.json "
                                    "next to the runs).")
    lsub = lb.add_subparsers(dest="action", required=True)
    ag = lsub.add_parser("agreement", help="Cohen's kappa per annotator pair, "
                                           "Krippendorff's alpha overall and per category")
    ag.add_argument("path", nargs="?", help="runs folder or labels folder (default: bundled "
                                            "sample_runs)")
    ag.add_argument("--json", action="store_true", help="machine-readable output")
    ag.add_argument("--view", choices=["root", "sample", "test"], default=None,
                    help="rate each root cause once (default), each sample's primary "
                         "category (each annotator's own labels rolled up), or each test")
    ag.add_argument("--per-root", action="store_true", help="same as --view root")
    ex = lsub.add_parser("export", help="the paper's failure-category table, plus per-run and "
                                        "per-agent breakdowns")
    ex.add_argument("run_dir", help="a run folder, or a folder of runs")
    ex.add_argument("--format", default="md", choices=["md", "csv", "json", "latex"])
    ex.add_argument("-o", "--output", help="write to this file instead of stdout")
    ex.add_argument("--view", choices=["sample", "root", "test"], default=None,
                    help="what the tables count: each labelled sample once under its primary "
                         "category (default), each root cause once, or each labelled test")
    ex.add_argument("--per-root", action="store_true", help="same as --view root")
    sg = lsub.add_parser("suggest", help="the suggested category of every failing sample, and "
                                         "how often it matches the labels")
    sg.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    sg.add_argument("--json", action="store_true")
    mode = sg.add_mutually_exclusive_group()
    mode.add_argument("--per-test", action="store_true",
                      help="one suggestion per failure item (test or sample), with its root")
    mode.add_argument("--score", action="store_true",
                      help="score the per-test suggestions against the labels, per test and "
                           "per root (held-out, dev and all with the labels' split.json); "
                           "without --labels, against the reference labels (labels-real/ "
                           "beside the runs) when there are some; says which labels")
    confirm = sg.add_argument_group(
        "causal confirmation", "with --per-test or --score: try each root suggestion's remedy "
        "(install the missing test or repo package, add the task file the harness does not "
        "copy, run the test alone) on a fresh sandbox deployment and decide again with the "
        "outcome; the recorded run never changes")
    confirm.add_argument("--confirm", action="store_true",
                         help="run the remedies (Docker, or local with --allow-local-exec)")
    confirm.add_argument("--confirm-max", type=int, default=10, metavar="N",
                         help="at most N remedies, in listing order (default 10)")
    from inspector.cli_sandbox import sandbox_options

    sandbox_options(confirm)
    ck = lsub.add_parser("check", help="validate every label file and the taxonomy")
    ck.add_argument("path", nargs="?", help="runs folder or labels folder")
    from inspector.cli_errata import add_errata_parser

    er = add_errata_parser(lsub)
    for p in (ag, ex, sg, ck, er):
        p.add_argument("--labels", metavar="DIR",
                       help="labels folder (default: <path>/labels or the nearest parent's)")


def cmd_labels(args: argparse.Namespace) -> int:
    from inspector.cli_errata import cmd_errata

    handler = {"agreement": cmd_agreement, "export": cmd_export, "suggest": cmd_suggest,
               "check": cmd_check, "errata": cmd_errata}[args.action]
    return handler(args)
