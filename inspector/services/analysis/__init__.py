"""Analyses the papers report: spec complexity and RepoGenesis difficulty per task
(:mod:`.tasks`), generated-code metrics per sample (:mod:`.code_metrics`, :mod:`.samples`) and
the reference implementation's metrics counted as the paper counts them (:mod:`.oracle`).

Generated repositories are untrusted: they are read as text through the safe walker
(:mod:`inspector.services.repo.files`), never imported or executed; see :mod:`.sources`.
"""
