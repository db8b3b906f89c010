"""The score report (:class:`~.score.ScoreReport`) as plain text for a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspector.cli.tables import aligned_table as table
from inspector.model.figures.percent import NA, pct
from inspector.model.labels.score_stats import BOOT_LEVEL, BOOT_RESAMPLES, BootInterval
from inspector.services.triage.score import NONE, ScoreReport, UnitScore

SPLIT_TITLES = {"held_out": "held-out", "dev": "dev", "all": "all"}
UNIT_TITLES = {"per_test": "per test", "per_root": "per root"}
LIST_LIMIT = 25


def _num(x: float | None) -> str:
    return NA if x is None else f"{x:.3f}"


def _with_ci(figure: str, ci: BootInterval | None) -> str:
    """``0.312 (0.12–0.51)`` or ``64.3% (40.0–85.7%)``; the figure alone without an interval."""
    if ci is None:
        return figure
    if figure.endswith("%"):
        return f"{figure} {ci.text(percent=True)}"
    return f"{figure} ({ci.low:.2f}–{ci.high:.2f})"


def _summary_row(split: str, unit: str, s: UnitScore) -> list[str]:
    nm = s.not_model
    return [f"{SPLIT_TITLES[split]} {UNIT_TITLES[unit]}", str(s.n), str(s.covered),
            pct(s.coverage, NA), pct(s.accuracy_covered, NA), pct(s.accuracy_all, NA),
            _num(s.kappa_covered),
            _with_ci(_num(s.kappa_with_abstention), s.kappa_with_abstention_ci),
            pct(nm.precision, NA), pct(nm.recall, NA)]


def _details(s: UnitScore) -> list[str]:
    out = ["  Confusion (rows: label, columns: suggestion)"]
    out += table(["", *s.columns], [[r, *(str(v) for v in row)]
                                   for r, row in zip(s.rows, s.matrix, strict=True)], "    ")
    out.append("  Per category (recall counts abstentions as misses)")
    out += table(["category", "label", "suggested", "right", "precision", "recall", "F1"],
                 [[c.category, str(c.reference), str(c.suggested), str(c.tp),
                   _with_ci(pct(c.precision, NA), c.precision_ci),
                   _with_ci(pct(c.recall, NA), c.recall_ci), _num(c.f1)]
                  for c in s.categories],
                 "    ")
    nm, md = s.not_model, s.model
    out.append(f"  not-model vs a model category: not-model precision {pct(nm.precision, NA)} "
               f"({nm.tp} of {nm.suggested}), recall {pct(nm.recall, NA)} ({nm.tp} of "
               f"{nm.reference}); model precision {pct(md.precision, NA)}, recall "
               f"{pct(md.recall, NA)}; binary kappa (covered) {_num(s.binary_kappa)}")
    out.append("  Reliability (covered units)")
    out += table(["confidence", "n", "right", "accuracy", "mean conf"],
                 [[f"{b.low:.2f}-{b.high:.2f}", str(b.n), str(b.correct), pct(b.accuracy, NA),
                   _num(b.mean_confidence)] for b in s.reliability], "    ")
    out.append(f"  Calibration: ECE {_num(s.ece)} (mean |accuracy - mean conf| over the bins "
               f"above, weighted by n; {s.covered} covered units); Brier {_num(s.brier)}")
    out += _prevalence(s)
    out.append(f"  Abstained: {s.abstained} ({s.unsure} unsure; the best competing reading "
               f"was the label's category on {s.unsure_top_right})")
    if s.rules:
        out.append("  Rules (fired on covered units / right)")
        out += table(["rule", "fired", "right"],
                     [[r, str(f), str(c)] for r, (f, c) in sorted(s.rules.items())], "    ")
    return out


def _prevalence(s: UnitScore) -> list[str]:
    rows = s.prevalence_rows()
    if not rows:
        return []
    out = [f"  Prevalence (share of the {s.n} units): suggested (naive), corrected for the "
           "confusion above (on these units it should give back the label share), label"]
    out += table(["category", "suggested", "corrected", "label"],
                 [[c, pct(sug, NA), pct(cor, NA) if c != NONE else "",
                   pct(ref, NA) if c != NONE else ""] for c, sug, cor, ref in rows], "    ")
    if s.prevalence is not None:
        out += [f"    note: {n}" for n in s.prevalence.notes]
    return out


def format_score(report: ScoreReport, labels_dir: Path, runs_dir: Path,
                 annotators: Sequence[str], chosen: str = "") -> str:
    """The whole report: summary, details per split and unit, misses, and every labelled
    item that could not be scored; ``chosen`` says why these labels were scored against."""
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(report.statuses.items()))
    total = sum(report.statuses.values())
    lines = [f"Labels: {labels_dir} (annotators: {', '.join(annotators) or 'none'}; "
             f"{total} labelled items" + (f": {statuses}" if statuses else "") + ")"]
    if chosen:
        lines.append(f"Scored against these labels: {chosen}.")
    lines.append(f"Runs: {runs_dir}")
    if report.split is not None:
        lines.append(f"Split: {report.split.path}; held-out tasks: "
                     f"{', '.join(report.split.held_out_tasks) or 'none'}.")
        lines.append("Held-out figures are on tasks never used to write or tune a rule; dev "
                     "figures are on the tasks the rules were tuned on.")
    else:
        lines.append(f"Split: none ({labels_dir / 'split.json'} not found); every figure is "
                     "on all labelled tasks, including any the rules were tuned on.")
    lines += ["", "Summary (accuracy(all) counts abstentions as wrong; kappa +none treats no "
                  "suggestion as its own class)"]
    rows = []
    scores = {}
    for split in report.splits():
        for unit in ("per_root", "per_test"):
            s = scores[(split, unit)] = report.score(split, unit)
            rows.append(_summary_row(split, unit, s))
    lines += table(["", "n", "covered", "coverage", "acc(covered)", "acc(all)", "kappa",
                    "kappa +none", "nm prec", "nm recall"], rows)
    lines.append(f"kappa +none (lo–hi), and precision and recall below: {BOOT_LEVEL * 100:.0f}% "
                 "percentile bootstrap interval, "
                 f"{BOOT_RESAMPLES} resamples of whole tasks (the units of one task move "
                 "together: they are not independent); none with fewer than two tasks")
    for split in report.splits():
        g = report.grouping(split)
        lines += ["", f"== {SPLIT_TITLES[split]} ==",
                  f"  Grouping: the engine also calls {g.engine_also_root} of "
                  f"{g.label_roots} labelled roots a root; it ties {g.same_root} of "
                  f"{g.label_followers} labelled followers to the labelled root"]
        for unit in ("per_root", "per_test"):
            lines += ["", f" {SPLIT_TITLES[split]}, {UNIT_TITLES[unit]}:"]
            lines += _details(scores[(split, unit)])
    misses = scores[("all", "per_test")].misses
    lines += ["", f"Misses ({len(misses)}, per test; * = a labelled root)"]
    for m in misses:
        tag = "[held-out] " if m.split == "held_out" else ""
        star = "*" if m.is_root else " "
        said = (f"suggested {m.suggested} [{m.rule}, {m.confidence:.2f}]"
                if m.suggested is not None else
                (f"unsure (best reading {m.top_reading})" if m.unsure else
                 f"no suggestion [{m.rule or '-'}]"))
        lines.append(f" {star}{tag}{m.key}: label {m.reference}, {said}")
    if not misses:
        lines.append("  none")
    lines += ["", f"Unmatched labels ({len(report.unmatched)}: labelled, but the triage has "
                  "no failure item for them)"]
    lines += [f"  {u.key}: label {u.reference or 'unresolved'}; {u.reason}"
              for u in report.unmatched] or ["  none"]
    lines += ["", f"Unresolved labels ({len(report.unresolved)}: annotators disagree, not "
                  "adjudicated; not scored)"]
    lines += [f"  {k}: " + ", ".join(f"{a}={c}" for a, c in r.items())
              for k, r, _ in report.unresolved] or ["  none"]
    lines += ["", f"Unlabelled failure items of labelled samples ({len(report.unlabelled)})"]
    lines += [f"  {k}" for k in report.unlabelled[:LIST_LIMIT]] or ["  none"]
    if len(report.unlabelled) > LIST_LIMIT:
        lines.append(f"  … {len(report.unlabelled) - LIST_LIMIT} more (--json lists all)")
    if report.dangling_follows:
        lines += ["", f"Labels following an item nobody labelled ({len(report.dangling_follows)})"]
        lines += [f"  {k} follows {f}" for k, f in report.dangling_follows]
    lines += ["", f"{NA}: undefined (nothing to divide by, or kappa's chance agreement already "
                  f"perfect); '{NONE}' = no suggestion"]
    return "\n".join(lines) + "\n"
