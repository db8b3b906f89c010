"""The report as one self-contained HTML page: a pure function of a :class:`ReportInput`.

No network at view time: the styles are inline, the figures are inline SVG, one small inline
script (the filter box, allowed by its hash) is the only script, and a Content-Security-Policy
forbids loading anything. Without the script the page shows everything (the box is the
script's own). Tables wrap long cells and keep their first column in view when they scroll;
a dark scheme and print styles come with the CSS. Every untrusted string
(run ids, task names, test messages, tracebacks, log lines) goes through
:func:`~.markup.esc`, which also takes the evaluating machine's absolute paths out of it
(relative to the input's ``paths`` scope, see :mod:`inspector.model.untrusted.shown_paths`). The
output is deterministic: no clock, stable ordering.
"""

from __future__ import annotations

import base64
import hashlib

from inspector import __version__
from inspector.model.figures.stats import NO_SCORED, figure_with_interval
from inspector.model.results.unreadable import unreadable_line
from inspector.model.results.verdict import Verdict
from inspector.services.labels.export import Breakdown, percent
from inspector.services.report.caps import Cut
from inspector.services.report.data import (
    CellSample,
    Labels,
    Plot,
    ReportInput,
    SampleDetail,
)
from inspector.services.report.markup import code, esc, note, path_scope, pct, table

GLYPH = {Verdict.PASSED: "✔", Verdict.TESTS_FAILED: "✘", Verdict.SUITE_NOT_RUN: "∅",
         Verdict.NOT_DEPLOYED: "⊘", Verdict.NOT_EVALUABLE: "?"}
"""As the app's matrix shows them."""
_WORST = [Verdict.NOT_DEPLOYED, Verdict.SUITE_NOT_RUN, Verdict.TESTS_FAILED, Verdict.PASSED,
          Verdict.NOT_EVALUABLE]
CSS = """
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--bg:#fff;--line:#d9dde5;
--pass:#1a7f37;--fail:#c62828;--skip:#8a6d00;--dep:#6f42c1;--head:#f3f5f9;--hl:#fff6d6;
--link:#0b57d0;--code:#f6f8fa;--warn:#9a3412;--suspect:#b45309;--bad:#fff5f5;--good:#f2fbf4;
--mark:#ffe08a}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#a3acbb;--bg:#15181e;
--line:#363c48;--pass:#5cc878;--fail:#ff7b72;--skip:#e3b341;--dep:#c3a6ff;--head:#222731;
--hl:#3a3218;--link:#8ab4f8;--code:#1c2029;--warn:#f0a36b;--suspect:#f0a36b;--bad:#2d1d1f;
--good:#17281d;--mark:#5c4a12}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{scroll-padding-top:44px}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1500px;padding:0 20px 40px}
h1{font-size:22px;margin:18px 0 4px;overflow-wrap:anywhere}h2{font-size:18px;margin:28px 0 8px;
border-bottom:2px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px;
overflow-wrap:anywhere}
nav{position:sticky;top:0;background:var(--bg);padding:6px 0;border-bottom:1px solid var(--line);
z-index:3;display:flex;flex-wrap:wrap;align-items:center;gap:4px 14px}
nav input{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);
border-radius:4px;padding:2px 6px;width:22em;max-width:100%}
a{color:var(--link)}code,pre{font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
code{overflow-wrap:anywhere}
pre{background:var(--code);border:1px solid var(--line);padding:8px;overflow:auto;max-height:420px;
white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
mark{background:var(--mark);color:inherit}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:separate;border-spacing:0;margin:6px 0;border-top:1px solid var(--line);
border-left:1px solid var(--line)}
th,td{border-right:1px solid var(--line);border-bottom:1px solid var(--line);padding:3px 7px;
vertical-align:top;text-align:left;overflow-wrap:anywhere}
th{background:var(--head)}td.n,th.n{text-align:right;overflow-wrap:normal}
.scroll>table>*>tr>:first-child{position:sticky;left:0;z-index:1;background:var(--bg)}
.scroll>table>thead>tr>:first-child{background:var(--head)}
.note{color:var(--muted);font-size:13px;margin:4px 0;overflow-wrap:anywhere}
th,td{min-width:5em}
.warn{color:var(--warn)}table.health{table-layout:auto;width:100%}
table.health td:nth-child(-n+2),table.health td:nth-child(7){min-width:8em}
table.health td:nth-child(3),table.health td:nth-child(n+8){min-width:15em}
table.matrix td{white-space:nowrap;text-align:center;font-size:12px;padding:2px 5px}
table.matrix th{font-size:11px;font-weight:600;max-width:110px;min-width:60px;white-space:normal}
table.matrix th .run{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;
overflow:hidden;overflow-wrap:anywhere}
table.matrix a{color:inherit}table.summary{font-size:13px}
table.matrix td.task{text-align:left;font-family:ui-monospace,monospace;white-space:normal;
max-width:22em;overflow-wrap:anywhere}
.v-passed{color:var(--pass)}.v-tests_failed{color:var(--fail)}
.v-suite_not_run{color:var(--skip)}.v-not_deployed{color:var(--dep)}.v-not_evaluable{color:var(--muted)}
td.v-tests_failed,td.v-not_deployed,td.v-suite_not_run{background:var(--bad)}
td.v-passed{background:var(--good)}
.suspect{color:var(--suspect);font-weight:700}
section.sample{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:12px 0;
content-visibility:auto;contain-intrinsic-size:auto 400px}
section.sample:target{outline:3px solid #f0b400;background:var(--hl)}
.test{margin:8px 0 10px;overflow-wrap:anywhere}.test .id{font-weight:600}
ul.labels{margin:4px 0;padding-left:20px;overflow-wrap:anywhere}ul.labels li{margin:2px 0}
svg.plot{max-width:100%;height:auto;display:block;margin:6px 0;background:#fff}
svg.plot *{stroke-linejoin:round;stroke-linecap:butt}
figure{margin:0}
footer{margin-top:30px;color:var(--muted);font-size:12px}
@media print{:root{color-scheme:light;--fg:#000;--muted:#444;--bg:#fff;--head:#eee;--code:#fff;
--link:#000;--bad:#fff;--good:#fff;--hl:#fff}
body{max-width:none;padding:0;font-size:11px}
nav,nav input,#filter,#filter-count{display:none}
.scroll{overflow:visible}
.scroll>table>*>tr>:first-child{position:static}
pre{max-height:none;overflow:visible}
section.sample{content-visibility:visible;break-inside:avoid-page}
details::details-content{content-visibility:visible;display:block}
details>summary{list-style:none}
a{text-decoration:none}}
"""

SCRIPT = """(function(){
var nav=document.querySelector('nav');if(!nav)return;
var box=document.createElement('input');box.type='search';box.id='filter';
box.placeholder='Filter runs, tasks, samples, tests';box.setAttribute('aria-label','Filter');
var count=document.createElement('span');count.id='filter-count';count.className='note';
count.setAttribute('aria-live','polite');nav.appendChild(box);nav.appendChild(count);
var secs=[].slice.call(document.querySelectorAll('section.sample'));
var rows=[].slice.call(document.querySelectorAll('table tbody tr'));
var st=null,rt=null;
function words(e){var t=[e.textContent];[].forEach.call(e.querySelectorAll('[title]'),
function(x){t.push(x.getAttribute('title'));});return t.join(' ').toLowerCase();}
function apply(){var q=box.value.trim().toLowerCase(),hit={},ns=0,nr=0;
if(st===null){st=secs.map(words);rt=rows.map(words);}
secs.forEach(function(s,i){var ok=!q||st[i].indexOf(q)>=0;s.hidden=!ok;
if(ok){hit['#'+s.id]=1;ns++;}});
rows.forEach(function(r,i){var ok=!q||rt[i].indexOf(q)>=0||[].some.call(
r.querySelectorAll('a[href^="#"]'),function(a){return hit[a.getAttribute('href')];});
r.hidden=!ok;if(ok)nr++;});
count.textContent=q?ns+' of '+secs.length+' failing samples, '+nr+' of '+rows.length+
' table rows match':'';}
box.addEventListener('input',apply);
box.addEventListener('keydown',function(e){if(e.key==='Escape'){box.value='';apply();}});
})();"""
"""The filter box: inserted by the script itself, so without scripts there is none and
everything shows; allowed by the CSP by its hash (:data:`CSP`), nothing else may run."""


def script_hash(script: str) -> str:
    """The CSP source allowing exactly ``script`` inline (``'sha256-…'``)."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


CSP = (f"default-src 'none'; script-src {script_hash(SCRIPT)}; style-src 'unsafe-inline'; "
       "img-src data:; form-action 'none'; base-uri 'none'")


def _cell(samples: list[CellSample]) -> str:
    """One matrix cell (as the app's matrix shows it), linking to the first failing sample
    that has a section."""
    if not samples:
        return '<td class="empty">·</td>'
    if len(samples) == 1:
        e = samples[0]
        v = e.verdict
        if v is Verdict.SUITE_NOT_RUN:
            label = "did not run: collection error" if e.collection_errors else "did not run"
        elif v is Verdict.TESTS_FAILED and e.collection_errors:
            label = f"collection error, {e.passed}/{e.total - e.collection_errors}"
        elif v is Verdict.NOT_DEPLOYED:
            label = e.failed_phase or "deploy"
        elif v is Verdict.NOT_EVALUABLE:
            label = "n/e"
        else:
            label = f"{e.passed}/{e.total}"
        text = f"{GLYPH[v]} {label}"
    else:
        passed = sum(e.verdict is Verdict.PASSED for e in samples)
        worst = next(v for v in _WORST if any(e.verdict is v for e in samples))
        n = sum(e.verdict is not Verdict.NOT_EVALUABLE for e in samples)  # n/e: in no count
        v = Verdict.PASSED if n and passed == n else worst
        text = f"{GLYPH[v]} {passed}/{n} pass"
    failing = [e for e in samples if e.verdict.is_failure]
    target = next((e for e in failing if e.anchor), None)
    if target is not None:
        inner = f'<a href="#{target.anchor}" title="{esc(target.sample_id)}">{esc(text)}</a>'
    elif failing:
        inner = f'<span title="no section here (report caps): {esc(failing[0].sample_id)}">' \
                f"{esc(text)}</span>"
    else:
        inner = esc(text)
    return f'<td class="v-{v.value}">{inner}</td>'


def _summary(r: ReportInput) -> str:
    rows = []
    for i, c in enumerate(r.runs):
        m = c.metrics
        k = ", ".join(f"@{k} {pct(v)}" for k, v in m.pass_at_k.items())
        # no evaluable sample: no figure (a 0 % would blame the model)
        fig = pct if m.samples else (lambda _: pct(None))
        rows.append([str(i + 1), esc(m.run_id), esc(m.agent), esc(m.model), esc(m.language),
                     "ours" if m.format != "repogenesis" else "stock", str(m.tasks),
                     esc(m.samples_cell), fig(m.pass_at_1), fig(m.test_pass_ratio),
                     esc(k) or "—", fig(m.api_coverage), fig(m.dsr), str(m.suites_not_run),
                     str(c.failing), str(c.labelled)])
    out = ['<h2 id="summary">Summary</h2>\n',
           table(["#", "run", "agent", "model", "lang", "format", "tasks", "samples",
                  "Pass@1 (strict)", "Pass@1 (stock)", "pass@k", "AC", "DSR",
                  "suites not run", "failing samples", "labelled"], rows, cls="summary",
                 numeric_from=6),
           _intervals(r),
           note("Pass@1 (strict): a sample passes only if all its tests pass (the paper's "
                "definition); Pass@1 (stock): the stock harness's avg_pass_at_1, the test "
                "pass ratio. 'stock' runs are RepoGenesis reports: counts only, no per-test "
                "results or logs; their DSR and AC are the stock harness's lenient figures. "
                "Labelled: failing samples with at least one label.")]
    out.append(_not_evaluable(r))
    diffs = [(m.run_id, d) for m in (c.metrics for c in r.runs) for d in m.differences
             if not d.startswith("Pass@1")]
    if diffs:
        out.append(f"<details><summary>Where our strict figures differ from the stock "
                   f"harness's ({len(diffs)} notes)</summary><ul>" +
                   "".join(f"<li>{esc(run)}: {esc(d)}</li>" for run, d in diffs) +
                   "</ul></details>\n")
    bad = [(c.metrics.run_id, u) for c in r.runs for u in c.metrics.unreadable_samples]
    if bad:
        out.append(f'<h3 class="warn">Unreadable files: not in any figure ({len(bad)})</h3><ul>'
                   + "".join(f"<li>{esc(run)}: {esc(unreadable_line(u))}</li>"
                             for run, u in bad) + "</ul>\n")
    warns = [(c.metrics.run_id, w) for c in r.runs for w in c.metrics.summary_warnings]
    if warns:
        out.append('<h3 class="warn">Reports whose own summary disagrees with their results'
                   "</h3><ul>" + "".join(f"<li>{esc(run)}: {esc(w)}</li>" for run, w in warns)
                   + "</ul>\n")
    if r.notes:
        out.append("<h3>Problems met while loading</h3><ul>" +
                   "".join(f"<li>{esc(n)}</li>" for n in r.notes) + "</ul>\n")
    return "".join(out)


def _corrected(r: ReportInput) -> str:
    """The corrected figures beside the official ones (docs/errata.md)."""
    c = r.corrected
    if c is None or not c.entries:
        return ""
    by_run = c.by_run()
    rows = []
    for i, col in enumerate(r.runs):
        m, cm = col.metrics, by_run[col.metrics.run_id]
        rows.append([str(i + 1), esc(m.run_id), f"{cm.tasks} of {m.tasks}",
                     f"{cm.samples} of {m.samples}",
                     pct(m.pass_at_1 if m.samples else None), pct(cm.pass_at_1),
                     pct(m.test_pass_ratio if m.samples else None), pct(cm.test_pass_ratio),
                     f"{cm.tests_left_out} ({cm.failures_left_out} failing)"])
    dropped = (f" Tasks dropped (every test left out): {esc(', '.join(c.dropped_tasks))}."
               if c.dropped_tasks else "")
    notes = [f"{esc(m.run_id)}: {esc(m.note)}" for m in c.runs if m.note]
    return ('<h3 id="corrected">Corrected figures (beside the official ones)</h3>\n' +
            table(["#", "run", "tasks", "samples", "Pass@1 (strict)", "corrected",
                   "Pass@1 (stock)", "corrected", "tests left out"], rows, cls="summary",
                  numeric_from=2) +
            note(f"{c.entries} test(s) whose final label is 'not-model' (not a model failure) "
                 f"left out of every run of their task.{dropped} A sample-level label leaves "
                 f"out only the tests grouped under it. "
                 f"{code('inspector labels errata')} exports them; "
                 f"{code('inspector summary --errata FILE')} applies them to other runs." +
                 (" " + "; ".join(notes) if notes else "")))


def _intervals(r: ReportInput) -> str:
    """Each run's Pass@1 (strict) and Pass@1 (stock, the test pass ratio) with its 95%
    interval."""
    rows = [[str(i + 1), esc(m.run_id),
             esc(figure_with_interval(m.pass_at_1, m.pass_at_1_ci)) if m.samples else "—",
             esc(figure_with_interval(m.test_pass_ratio, m.test_pass_ci, NO_SCORED))
             if m.samples else "— (no evaluable sample)"]
            for i, m in enumerate(c.metrics for c in r.runs)]
    return ('<h3 id="intervals">With 95% intervals</h3>\n'
            + table(["#", "run", "Pass@1 (strict)", "Pass@1 (stock)"], rows, numeric=())
            + note("Pass@1 (strict): the Wilson score interval when each task has one "
                   "sample, else a percentile bootstrap over tasks (each resampled task "
                   "carries all its samples); Pass@1 (stock): the same bootstrap over tasks. "
                   "Seeded, so the same runs give the same intervals."))


def _not_evaluable(r: ReportInput) -> str:
    """The samples the infrastructure left without a verdict: counted and listed apart."""
    rows = [[esc(row["sample_id"]), esc(row["kind"]),
             "inferred" if row["inferred"] else "recorded", esc(row["reason"])]
            for c in r.runs for row in c.metrics.not_evaluable_samples]
    if not rows:
        return ""
    total = sum(c.metrics.samples_total for c in r.runs)
    return (f'<h3 class="warn" id="not-evaluable">{len(rows):,} of {total:,} samples not '
            "evaluable</h3>\n" + note(
                "The infrastructure, not the model, left these without a verdict (n/e in the "
                "table above): they are in no figure of the summary (samples, Pass@1, pass@k, "
                "AC, DSR are over the others); the stock report.json's summary counts them, as "
                "the stock harness would. 'inferred': read back from an older result's "
                "messages; `inspector evaluate` on the same run evaluates them again.")
            + table(["sample", "kind", "how known", "reason"], rows, numeric=()))


def _matrix(r: ReportInput) -> str:
    suspect = r.health.suspect_tasks() if r.health else set()
    heads = "".join(
        f'<th title="{esc(c.metrics.run_id)}"><span class="run">{i + 1}. '
        f'{esc(c.metrics.agent)}·{esc(c.metrics.model)}'
        f'{" ·stock" if c.metrics.format == "repogenesis" else ""}</span></th>'
        for i, c in enumerate(r.runs))
    rows = []
    for t in r.tasks:
        flag = ' <span class="suspect" title="suspected benchmark defect">⚠</span>' \
            if t in suspect else ""
        cells = "".join(_cell(r.cells.get((t, i), [])) for i in range(len(r.runs)))
        rows.append(f'<tr><td class="task">{esc(t)}{flag}</td>{cells}</tr>\n')
    legend = ("cells: " + " ".join(
        f'<span class="v-{v.value}">{GLYPH[v]} {label}</span> &nbsp;'
        for v, label in ((Verdict.PASSED, "passed (tests passed/total)"),
                         (Verdict.TESTS_FAILED, "tests failed"),
                         (Verdict.SUITE_NOT_RUN, "suite did not run"),
                         (Verdict.NOT_DEPLOYED, "did not deploy (phase)"),
                         (Verdict.NOT_EVALUABLE, "not evaluable (infrastructure)")))
              + '<span class="suspect">⚠</span> suspected benchmark defect. A failing cell '
                "links to its first failing sample's section.")
    return ('<h2 id="matrix">Run × task matrix</h2>\n' + note(legend) +
            f'<div class="scroll"><table class="matrix"><thead><tr><th>task</th>{heads}</tr>'
            f"</thead><tbody>\n{''.join(rows)}</tbody></table></div>\n")


def _health(r: ReportInput) -> str:
    out = ['<h2 id="health">Benchmark health</h2>\n']
    h = r.health
    if h is None:
        return out[0] + note("Not analysed.")
    out.append(note(f"{h.samples:,} samples ({h.deployed_samples:,} deployed) and "
                    f"{h.test_records:,} test results analysed: {len(h.findings):,} candidate "
                    f"benchmark defects, {len(h.tampering):,} samples with tampering attempts "
                    f"({h.deliberate_tampering:,} deliberate)."))
    anchors = {d.sample_id: d.anchor for d in r.details}

    def sample_link(sid: str) -> str:
        a = anchors.get(sid)
        return f'<a href="#{a}">{esc(sid)}</a>' if a else esc(sid)

    cap = r.caps.findings
    if h.findings:
        rows = [[esc(f.task), esc(f.kind.replace("_", " ")), esc(f.test_id or "—"),
                 str(f.samples), str(f.runs), pct(f.share), esc(f.suspected_cause or "—"),
                 esc(f.detail), "<br>".join(sample_link(x) for x in f.examples)]
                for f in h.findings[:cap]]
        out.append("<h3>Candidate benchmark defects</h3>\n" + table(
            ["task", "kind", "test or file", "samples", "runs", "same error", "suspected cause",
             "detail", "examples"], rows, cls="health", numeric=(3, 4, 5)))
        if len(h.findings) > cap:
            out.append(note(f"Showing {cap:,} of {len(h.findings):,} findings; the app's "
                            f"Health tab lists them all: {code('inspector ' + r.path)}"))
    if h.tampering:
        rows = [[sample_link(t.sample_id), "deliberate" if t.deliberate else "could influence",
                 "<br>".join(esc(f"{f.kind}: {f.path + ': ' if f.path else ''}{f.detail}")
                             for f in t.findings)] for t in h.tampering[:cap]]
        out.append("<h3>Tampering attempts</h3>\n" + note(
            "Kept out of the golden test runs: verdicts stand, but read these results with "
            "care.") + table(["sample", "kind", "findings"], rows, numeric=()))
        if len(h.tampering) > cap:
            out.append(note(f"Showing {cap:,} of {len(h.tampering):,}; all of them: "
                            f"{code('inspector failures ' + r.path)}"))
    return "".join(out)


def _breakdown(b: Breakdown, names: dict[str, str]) -> str:
    headers = ["category"]
    for g in [*b.group_names, "total"]:
        headers += [f"{g} n", "%"]
    rows = []
    for cat, counts, total in b.rows:
        cells = [esc(names.get(cat, cat))]
        for n, d in zip([*counts, total], [*b.group_totals, b.total], strict=True):
            cells += [str(n), f"{percent(n, d)}%"]
        rows.append(cells)
    rows.append(["<b>total</b>"] + [c for d in [*b.group_totals, b.total]
                                    for c in (str(d), f"{percent(d, d)}%")])
    out = f"<h3>{esc(b.title)}</h3>\n" + table(headers, rows)
    if b.has_unresolved:
        parts = ", ".join(f"{g} {n}" for g, n in zip(b.group_names, b.unresolved, strict=False))
        out += note(esc(f"Unresolved (annotators disagree, not adjudicated): {parts}; total "
                        f"{b.unresolved[-1]}"))
    return out


def _labels(r: ReportInput) -> str:
    out = ['<h2 id="labels">Failure labels</h2>\n']
    lab: Labels | None = r.labels
    if lab is None:
        return out[0] + note("No labels: label failures in the app (the Labels queue), or "
                             f"see {code('inspector labels --help')}.")
    out.append(note(f"Labels folder: {code(lab.folder)}"))
    for p in lab.problems:
        out.append(f'<p class="warn">{esc(p)}</p>\n')
    names = {c.id: c.name for c in lab.taxonomy.categories} if lab.taxonomy else {}
    if lab.categories is not None:
        cats = lab.categories
        out.append(note(esc(f"Counted {cats.view_text}: {cats.labelled:,} {cats.unit} of these "
                            "runs' samples"
                            + (f" ({cats.outside:,} more of samples elsewhere)"
                               if cats.outside else "") + "; final labels "
                            "(adjudicated, agreed or majority).")))
        for name in sorted(lab.categories.tables):
            out.append(_breakdown(lab.categories.tables[name], names))
    a = lab.agreement
    out.append('<h3 id="agreement">Inter-annotator agreement</h3>\n')
    if a is None:
        out.append(note("No label files."))
        return "".join(out)
    out.append(note(esc("Per root cause (items every annotator marked as following another "
                        f"item's cause left out): {a.items:,} items rated by two annotators or "
                        "more, of "
                        f"{a.total_items:,} rated; annotators: " + ", ".join(
                            f"{n} ({c})" for n, c in a.annotators.items()))))
    if a.pairs:
        out.append(table(["annotator A", "annotator B", "shared items", "agreed", "observed",
                          "Cohen's κ"],
                         [[esc(p.a), esc(p.b), str(p.items), str(p.agreed), pct(p.observed),
                           "—" if p.kappa is None else f"{p.kappa:.3f}"] for p in a.pairs],
                         numeric_from=2))
    alpha = "—" if a.alpha is None else f"{a.alpha:.3f}"
    out.append(note(f"Krippendorff's α (nominal): {alpha} over {a.alpha_values:,} values."))
    used = [c for c in a.per_category if c.labels]
    if used:
        out.append(table(["category", "labels", "items", "agreed", "α"],
                         [[esc(names.get(c.category, c.category)), str(c.labels), str(c.items),
                           str(c.agreed), "—" if c.alpha is None else f"{c.alpha:.3f}"]
                          for c in used]))
    if a.disagreements:
        cap = r.caps.disagreements
        out.append(f"<h3>Disagreements ({len(a.disagreements):,})</h3>\n" + table(
            ["item", "ratings"],
            [[esc(d.item), esc(", ".join(f"{k}: {names.get(v, v)}"
                                         for k, v in d.ratings.items()))]
             for d in a.disagreements[:cap]], numeric=()))
        if len(a.disagreements) > cap:
            out.append(note(f"Showing {cap} of {len(a.disagreements):,}; all of them: "
                            f"{code('inspector labels agreement ' + r.path)}"))
    return "".join(out)


def _plots(plots: list[Plot], tier_source: str) -> str:
    out = ['<h2 id="plots">Run analysis</h2>\n']
    if tier_source:
        out.append(note(esc(f"Tiers: {tier_source}.")))
    for p in plots:
        out.append(f'<figure id="plot-{esc(p.name)}"><h3>{esc(p.description)}</h3>\n')
        out.append(p.svg + "\n" if p.svg else note(esc(f"Not drawn: {p.skipped}")))
        out.append("</figure>\n")
    return "".join(out)


def _cut_note(text: str) -> str:
    return f' <span class="note">({esc(text)})</span>' if text else ""


def _labels_of(d: SampleDetail, names: dict[str, str]) -> str:
    """The sample's labels: who said which category, why, the suggestion and the re-run."""
    if not d.labels:
        return ""
    items = []
    for lb in d.labels:
        what = f"test {code(lb.test)}: " if lb.test else ""
        final = ""
        if lb.final is not None:
            cat, status = lb.final
            final = (f' <span class="note">(final: '
                     f'{esc(names.get(cat, cat) if cat else "none")}, {esc(status)})</span>')
        line = (f"{what}<b>{esc(lb.who)}</b>: {esc(names.get(lb.category, lb.category))} "
                f"({esc(lb.confidence)}){final}")
        if lb.reason:
            line += f" — {esc(lb.reason)}"
        if lb.suggestion is not None:
            cat, conf, why = lb.suggestion
            line += (f'<br><span class="note">suggested: {esc(names.get(cat, cat))}'
                     f"{' (' + esc(conf) + ')' if conf else ''}"
                     f"{' — ' + esc(why) if why else ''}</span>")
        if lb.confirmation:
            line += f'<br><span class="note">causal re-run: {esc(lb.confirmation)}</span>'
        items.append(f"<li>{line}</li>")
    return f'<h4>Labels</h4>\n<ul class="labels">{"".join(items)}</ul>\n'


def _log(log: Cut) -> str:
    """The log excerpt, its first error line marked."""
    lines = log.text.split("\n")
    if 0 <= log.mark < len(lines):
        lines[log.mark] = f'<mark class="first-error">{esc(lines[log.mark])}</mark>'
        text = "\n".join(line if i == log.mark else esc(line) for i, line in enumerate(lines))
    else:
        text = esc(log.text)
    return f"<h4>Deployment log{_cut_note(log.note)}</h4>\n<pre class=\"log\">{text}</pre>\n"


def _detail(d: SampleDetail, path: str, names: dict[str, str] | None = None) -> str:
    counts = f"{d.passed}/{d.total} tests passed" if d.total else "no test counted"
    out = [f'<section class="sample" id="{d.anchor}"><h3>{esc(d.sample_id)}</h3>\n',
           f'<p><span class="v-{d.verdict.value}">{GLYPH[d.verdict]} {esc(d.verdict.label)}'
           f"</span> · {counts}</p>\n"]
    if d.headline:
        out.append(f"<pre>{esc(d.headline)}</pre>\n")
    out.append(_labels_of(d, names or {}))
    if d.tests:
        out.append("<h4>Failing tests</h4>\n")
    for t in d.tests:
        out.append(f'<div class="test"><span class="id">{esc(t.test_id)}</span> — '
                   f'<span class="v-tests_failed">{esc(t.outcome)}</span>')
        if t.message.text:
            out.append(f"<pre>{esc(t.message.text)}</pre>{_cut_note(t.message.note)}")
        if t.traceback.text:
            out.append(f"<details><summary>traceback{_cut_note(t.traceback.note)}</summary>"
                       f"<pre>{esc(t.traceback.text)}</pre></details>")
        out.append("</div>\n")
    if d.tests_left_out:
        out.append(note(f"{d.tests_left_out:,} more failing tests not shown: "
                        f"{code('inspector failures ' + path)} lists them all."))
    if d.log is not None:
        out.append(_log(d.log))
    elif d.log_missing:
        out.append(note(esc(d.log_missing)))
    out.append(note(f"Whole log: {code(d.replay)}"))
    out.append("</section>\n")
    return "".join(out)


def _details(r: ReportInput) -> str:
    out = ['<h2 id="samples">Failing samples</h2>\n']
    left = r.failing_samples - len(r.details)
    c = r.caps
    if left > 0:
        out.append(f'<p class="note warn" id="left-out">{left:,} of {r.failing_samples:,} '
                   f"failing samples have no section here (caps: at most {c.sections:,} "
                   f"sections and {c.detail_chars:,} characters of messages, tracebacks and "
                   f"logs; per sample {c.tests_per_sample} failing tests, "
                   f"{c.log_lines} log lines around the first error). Every failure: "
                   f"{code('inspector failures ' + r.path)}; the app: "
                   f"{code('inspector ' + r.path)}.</p>\n")
    else:
        out.append(note(f"All {r.failing_samples:,} failing samples (per sample at most "
                        f"{c.tests_per_sample} failing tests and {c.log_lines} log lines "
                        "around the first error, else the last ones)."))
    tax = r.labels.taxonomy if r.labels else None
    names = {c.id: c.name for c in tax.categories} if tax else {}
    out.extend(_detail(d, r.path, names) for d in r.details)
    return "".join(out)


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def render(r: ReportInput) -> str:
    """The whole page."""
    with path_scope(r.paths):
        return _render(r)


def _render(r: ReportInput) -> str:
    samples = sum(c.metrics.samples for c in r.runs)
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="genesis-inspector">\n'
            f"<title>Genesis Inspector report: {esc(r.title)}</title>\n"
            f"<style>{CSS}</style></head>\n<body>\n")
    top = (f"<h1>Genesis Inspector report: {esc(r.title)}</h1>\n" +
           note(f"{_n(len(r.runs), 'run')}, {_n(len(r.tasks), 'task')}, "
                f"{_n(samples, 'sample')}, {r.failing_samples:,} failing. Runs folder: "
                f"{code(r.path)}") +
           '<nav><a href="#summary">Summary</a><a href="#matrix">Matrix</a>'
           '<a href="#health">Health</a><a href="#labels">Labels</a>'
           '<a href="#plots">Plots</a><a href="#samples">Failing samples</a></nav>\n')
    body = "".join([_summary(r), _corrected(r), _matrix(r), _health(r), _labels(r),
                    _plots(r.plots, r.tier_source), _details(r)])
    foot = (f"<footer>genesis-inspector {esc(__version__)} · self-contained: nothing loaded "
            "from the network; one inline script (the filter box), allowed by its hash."
            f"</footer>\n<script>{SCRIPT}</script>\n</body></html>\n")
    return head + top + body + foot
