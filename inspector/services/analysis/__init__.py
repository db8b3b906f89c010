"""Analyses the papers report (issue 17).

* across samples and runs: paired run comparison (:mod:`.compare`), breakdowns
  (:mod:`.breakdown`), costs (:mod:`.cost`), over light per-sample records (:mod:`.outcomes`,
  :mod:`.source`);
* per task: spec complexity and RepoGenesis difficulty (:mod:`.tasks`), with the reference
  implementation's metrics counted as the paper counts them (:mod:`.oracle`);
* per sample: generated-code metrics (:mod:`.code_metrics`, :mod:`.samples`, :mod:`.cache`).

Generated repositories are untrusted: they are read as text through the safe walker
(:mod:`inspector.services.repo.files`), never imported or executed; see :mod:`.sources`.
"""
