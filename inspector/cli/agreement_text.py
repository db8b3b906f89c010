"""An :class:`~inspector.model.labels.agreement.AgreementReport` as plain text for a terminal."""

from __future__ import annotations

from collections.abc import Mapping

from inspector.cli.tables import aligned_table
from inspector.model.figures.percent import NA, pct
from inspector.model.labels.agreement import NA_NOTE, AgreementReport


def _stat(value: float | None) -> str:
    return NA if value is None else f"{value:.3f}"


def format_agreement(report: AgreementReport, names: Mapping[str, str] | None = None) -> str:
    """The report as plain text (no colours), columns aligned; ``names`` maps category ids
    to display names for the per-category table. Undefined figures read ``n/a``."""
    names = names or {}
    who = ", ".join(f"{name} ({count})" for name, count in report.annotators.items())
    k = len(report.annotators)
    header = (f"{report.items} shared items ({report.total_items} labelled by anyone), "
              f"{k} annotator{'' if k == 1 else 's'}" + (f": {who}" if who else ""))
    lines = [header, ""]
    na = False

    lines.append("Cohen's kappa")
    if report.pairs:
        rows = []
        for p in report.pairs:
            na |= p.observed is None or p.kappa is None
            rows.append([f"{p.a} / {p.b}", str(p.items), str(p.agreed),
                         pct(p.observed, NA), _stat(p.kappa)])
        lines += aligned_table(["pair", "items", "agreed", "observed", "kappa"], rows)
    else:
        lines.append("  (fewer than two annotators)")
    lines.append("")

    na |= report.alpha is None
    lines.append(f"Krippendorff's alpha: {_stat(report.alpha)} "
                 f"({report.alpha_values} values)")
    lines.append("")

    lines.append("Per category")
    rows = []
    for c in report.per_category:
        na |= c.alpha is None
        rows.append([names.get(c.category, c.category), str(c.labels), str(c.items),
                     str(c.agreed), _stat(c.alpha)])
    if rows:
        lines += aligned_table(["category", "labels", "items", "all agree", "alpha"], rows)
    else:
        lines.append("  (no categories)")
    lines.append("")

    if report.disagreements:
        lines.append(f"Disagreements ({len(report.disagreements)})")
        for d in report.disagreements:
            said = ", ".join(f"{name}={category}" for name, category in d.ratings.items())
            lines.append(f"  {d.item}: {said}")
    else:
        lines.append("Disagreements: none")

    if na:
        lines += ["", NA_NOTE]
    return "\n".join(lines) + "\n"
