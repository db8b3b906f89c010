"""Corrected figures in ``inspector summary`` and ``inspector labels errata``: thin over
:mod:`inspector.services.figures.corrected` and :mod:`inspector.services.labels.errata`
(``docs/errata.md``)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector import paths
from inspector.cli_errors import CliError
from inspector.cli_output import print_json

if TYPE_CHECKING:
    from inspector.model import Run
    from inspector.model.labels.errata import Errata
    from inspector.services.figures.corrected import Corrections
    from inspector.services.figures.metrics import RunMetrics


@dataclass
class Source:
    """Where the exclusions came from, as ``summary`` names it."""

    kind: str  # "labels" or "errata"
    path: Path
    annotators: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": str(self.path), "annotators": list(self.annotators)}


def add_options(p: argparse.ArgumentParser) -> None:
    """``summary``'s ``--labels`` / ``--errata``."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--labels", metavar="DIR", help="labels folder whose final test labels "
                     "'not-model' give the corrected figures (default: PATH/labels, or the "
                     "nearest parent's)")
    src.add_argument("--errata", metavar="FILE", help="an errata file (`inspector labels "
                     "errata`) to correct with, instead of the labels folder")


def _load_labels(folder: Path) -> tuple[Any, str] | None:
    """The folder's label set and taxonomy id; None when it holds no label file."""
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.labels.store import LabelStore

    store = LabelStore(folder)
    loaded = store.load()
    import os

    # a folder this user cannot enter: the runs' discovery has said so already (one message)
    if os.access(folder, os.R_OK | os.X_OK):
        for problem in loaded.problems:
            print(f"inspector: warning: {problem} (its labels are not in the corrected "
                  "figures)", file=sys.stderr)
    if not loaded.labels.files and loaded.labels.adjudication is None:
        return None
    try:
        taxonomy = store.taxonomy().id
    except LoadError:
        taxonomy = ""
    return loaded.labels, taxonomy


def read_errata_arg(value: str) -> Errata:
    """``--errata FILE`` read, or one clear error naming the file."""
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.labels.errata import read_errata

    path = Path(value)
    if not path.exists():
        raise CliError.missing(path)
    try:
        return read_errata(path)
    except LoadError as exc:
        raise CliError(str(exc)) from None


def corrections(args: argparse.Namespace, runs: list[Run]
                ) -> tuple[Corrections, Source] | None:
    """The corrected figures of ``runs`` from ``--errata`` or the labels folder; None when
    there is no labels folder with labels (and no ``--errata``)."""
    from inspector.services.figures.corrected import apply_errata
    from inspector.services.labels.errata import errata_from_labels
    from inspector.services.labels.store import find_labels_dir

    if getattr(args, "errata", None):
        errata = read_errata_arg(args.errata)
        return apply_errata(runs, errata), Source("errata", Path(args.errata),
                                                  errata.annotators)
    root = Path(args.path) if args.path else paths.sample_runs()
    folder = Path(args.labels) if getattr(args, "labels", None) else find_labels_dir(root)
    if getattr(args, "labels", None) and not folder.is_dir():
        raise CliError(f"{folder}: no such labels folder")
    found = _load_labels(folder)
    if found is None:
        return None
    labels, taxonomy = found
    errata = errata_from_labels(labels, runs, taxonomy=taxonomy, created="")
    return apply_errata(runs, errata), Source("labels", folder, tuple(labels.annotators))


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:5.1f}%"


def print_section(found: tuple[Corrections, Source], metrics: list[RunMetrics],
                  table: Any, shown: Any) -> None:
    """The corrected figures beside the official ones (``table``: the CLI's table layout;
    ``shown``: a path as printed)."""
    c, src = found
    who = f" ({', '.join(src.annotators)})" if src.annotators else ""
    where = f"{'errata file' if src.kind == 'errata' else 'labels'} {shown(src.path)}{who}"
    if not c.entries:
        print(f"\nCorrected figures: no test has the final label 'not-model' in {where} "
              "(a sample-level label leaves out only the tests grouped under it); the official "
              "figures stand.")
        return
    print("\nCorrected figures: the tests labelled 'not-model' (not a model failure) left out "
          "of every run of their task; the official figures above stand.")
    dropped = f"; whole suite left out (task dropped): {', '.join(c.dropped_tasks)}" \
        if c.dropped_tasks else ""
    print(f"From {where}: {c.entries} test(s){dropped}")
    by_run = c.by_run()
    rows = []
    for m in metrics:
        cm = by_run[m.run_id]
        official = m.samples > 0  # no evaluable sample: no official figure either
        rows.append([m.run_id, f"{cm.tasks} of {m.tasks}", f"{cm.samples} of {m.samples}",
                     _pct(m.pass_at_1 if official else None), _pct(cm.pass_at_1),
                     _pct(m.test_pass_ratio if official else None),
                     _pct(cm.test_pass_ratio),
                     f"{cm.tests_left_out} ({cm.failures_left_out} failing)"])
    print(table(["run", "tasks", "samples", "pass@1", "corrected", "test pass", "corrected",
                 "tests left out"], rows))
    for cm in c.runs:
        if cm.note:
            print(f"  {cm.run_id}: {cm.note}")
    if c.disputed:
        print(f"  {c.disputed} left-out test(s) have a model-failure label in another sample "
              "(`inspector labels errata` lists every sample's label)")
    if c.tasks_not_in_runs or c.tests_not_seen:
        print(f"  not in these runs: {len(c.tasks_not_in_runs)} task(s) "
              f"({', '.join(c.tasks_not_in_runs) or '—'}), {len(c.tests_not_seen)} test(s) "
              "no result of their task holds" +
              (f" (first: {c.tests_not_seen[0]})" if c.tests_not_seen else ""))


def json_block(found: tuple[Corrections, Source] | None, run_id: str) -> dict[str, Any] | None:
    """A run's ``corrected`` field of ``summary --json``."""
    if found is None:
        return None
    c, src = found
    return {**c.by_run()[run_id].to_json(), "source": {**src.to_json(), **c.to_json()}}


def cmd_errata(args: argparse.Namespace) -> int:
    """``inspector labels errata [PATH] [--labels DIR] [--out FILE]``."""
    from inspector.cli_labels import _load, _runs
    from inspector.services.labels.errata import (
        dumps_errata,
        errata_from_labels,
        unresolved_items,
    )

    root = Path(args.path) if args.path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    store, taxonomy, loaded = _load(str(root), args.labels)
    if not loaded.labels.files and loaded.labels.adjudication is None:
        raise CliError(f"{store.root}: no label files (expected annotators/<name>.json)")
    errata = errata_from_labels(loaded.labels, _runs(root), taxonomy=taxonomy.id)
    text = dumps_errata(errata)
    whole = [t.task for t in errata.tasks if t.whole_suite]
    unresolved = unresolved_items(loaded.labels)
    if args.out:
        from inspector.services.storage.atomic import shared_file_mode, write_bytes_atomic

        out = Path(args.out)
        try:
            write_bytes_atomic(out, text.encode("utf-8"), mode=shared_file_mode(out))
        except OSError as exc:
            raise CliError(f"{out}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {out}: {len(errata.entries)} test(s) of {len(errata.tasks)} task(s)"
              + (f"; whole suite: {', '.join(whole)}" if whole else ""), file=sys.stderr)
    else:
        print_json(text.removesuffix("\n"))
    if unresolved:
        print(f"inspector: note: {len(unresolved)} test item(s) labelled 'not-model' by someone "
              "are unresolved (annotators disagree, no adjudication) and are not in the errata",
              file=sys.stderr)
    return 1 if loaded.problems else 0


def add_errata_parser(lsub: argparse._SubParsersAction[argparse.ArgumentParser]
                      ) -> argparse.ArgumentParser:
    er = lsub.add_parser("errata", help="the tests labelled 'not-model' as an errata file "
                                        "another lab can apply (`summary --errata FILE`)")
    er.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    er.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    return er
