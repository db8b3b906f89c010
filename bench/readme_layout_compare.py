"""Compare the README layout (code blocks, headings, numbered items) of two versions of
``readme_layout`` on every README given: a parser rewrite must give the same line ranges.

usage: python bench/readme_layout_compare.py BEFORE.py [README ...]
  BEFORE.py: the earlier module's source (``git show REF:inspector/model/readme/layout.py``);
  READMEs: default the bundled ones (sample_runs/**/README.md) and
  /work/shared/repogenesis-tasks/repo/*/README.md when present.
Prints the layout of each README before and after (with --verbose) and every difference;
exits 1 when there is one.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from inspector.model.readme import layout as after

ROOT = Path(__file__).resolve().parent.parent
TASKS = Path("/work/shared/repogenesis-tasks/repo")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_layout_before", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def layout(mod: Any, text: str) -> dict[str, Any]:
    """What the README contract reads of a layout: every line range and title."""
    lay = mod.Layout.read(text)
    return {
        "code": sorted(lay.code),
        "blocks": [(b.start, b.end, b.first, b.lang, b.fenced, b.body) for b in lay.blocks],
        "headings": list(lay.headings),
        "numbered": list(lay.numbered),
        "in_code": [n for n in range(len(lay.lines) + 2) if lay.in_code(n)],
        "labels": [lay.label(b) for b in lay.blocks],
    }


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    args = [a for a in argv if a != "--verbose"]
    before = _load(Path(args[0]))
    files = [Path(a) for a in args[1:]] or sorted((ROOT / "sample_runs").rglob("README.md"))
    if not args[1:] and TASKS.is_dir():
        files += sorted(TASKS.glob("*/README.md"))
    differing = 0
    totals = {"blocks": 0, "headings": 0, "numbered": 0, "code": 0}
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        old, new = layout(before, text), layout(after, text)
        for k in totals:
            totals[k] += len(new[k])
        if verbose:
            print(f"{f}:\n  before: {_short(old)}\n  after:  {_short(new)}")
        if old != new:
            differing += 1
            for k in old:
                if old[k] != new[k]:
                    gone = [x for x in old[k] if x not in new[k]]
                    added = [x for x in new[k] if x not in old[k]]
                    print(f"DIFF {f}: {k}: only before {gone[:5]}; only after {added[:5]}")
    print(f"{len(files)} READMEs, {differing} with a different layout; after: "
          + ", ".join(f"{n} {k}" for k, n in totals.items()) + " (code: lines in fences)")
    return 1 if differing else 0


def _short(lay: dict[str, Any]) -> str:
    blocks = [(b[0], b[1], b[3] or "-", "fenced" if b[4] else "bare") for b in lay["blocks"]]
    return (f"blocks {blocks}; headings {[(h[0], h[1]) for h in lay['headings']]}; "
            f"numbered {lay['numbered']}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
