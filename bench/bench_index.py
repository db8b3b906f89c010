"""Index build: this tree against a baseline (default: ``main``), side by side, in one run.

    python bench/bench_index.py /tmp/gi-corpus                  # 5 rounds against main
    python bench/bench_index.py /tmp/gi-corpus --repeat 3 --base HEAD~2

The baseline is checked out into a temporary ``git worktree`` (removed afterwards). Each
round builds the index cold (``Catalog(root, fresh_db).refresh()``) once with the baseline's
code and once with this tree's, each in a fresh Python process whose ``PYTHONPATH`` names that
tree; the order alternates between rounds so page-cache and machine-load drift hit both
alike. Printed: every round's seconds, the medians, the ratio, and whether both builds wrote
the same index (a digest of every run, sample, test and load-problem row).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

CHILD = r"""
import hashlib, json, sys, time
from pathlib import Path
import inspector
from inspector.services.catalog.index import Catalog

root, db, tree = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]).resolve()
assert Path(inspector.__file__).resolve().is_relative_to(tree), inspector.__file__
t0 = time.perf_counter()
catalog = Catalog(root, db)
catalog.refresh()
seconds = time.perf_counter() - t0
h = hashlib.sha1()
for query in ("SELECT * FROM runs ORDER BY key",
              "SELECT * FROM samples ORDER BY run_key, sample_id",
              "SELECT s.run_key, s.sample_id, t.* FROM tests t JOIN samples s ON s.id = t.sample"
              " ORDER BY s.run_key, s.sample_id, t.ord",
              "SELECT path, kind, issues FROM locations ORDER BY path"):
    for row in catalog._db.execute(query):
        cells = row if not query.startswith("SELECT * FROM samples") else row[1:]
        h.update(repr(cells).encode("utf-8", "surrogateescape"))
runs, samples, tests = catalog.counts()
print(json.dumps({"seconds": seconds, "runs": runs, "samples": samples, "tests": tests,
                  "issues": len(catalog.issues()), "digest": h.hexdigest()}))
"""


def _build(tree: Path, corpus: Path, scratch: Path) -> dict:
    """One cold index build with ``tree``'s code, in a fresh process."""
    db = Path(tempfile.mkdtemp(dir=scratch)) / "index.sqlite"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(corpus), str(db), str(tree)],
                         env=env, cwd=tree, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"index build with {tree} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="a corpus made by bench/make_corpus.py")
    ap.add_argument("--base", default="main", help="git ref of the baseline (default: main)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds (default: 5)")
    args = ap.parse_args(argv)
    if not (args.corpus / "runs").is_dir():
        ap.error(f"{args.corpus}: not a corpus (no runs/ folder); see bench/make_corpus.py")
    with tempfile.TemporaryDirectory(prefix="gi-bench-index-") as tmp:
        scratch = Path(tmp)
        base = scratch / "base"
        subprocess.run(["git", "-C", str(TREE), "worktree", "add", "--detach", "-q",
                        str(base), args.base], check=True)
        try:
            trees = {"base": base, "this": TREE}
            times: dict[str, list[float]] = {"base": [], "this": []}
            seen: dict[str, dict] = {}
            for i in range(args.repeat):
                order = ("base", "this") if i % 2 == 0 else ("this", "base")
                for name in order:
                    res = _build(trees[name], args.corpus, scratch)
                    times[name].append(res["seconds"])
                    seen[name] = res
                    print(f"round {i + 1}: {name:4} {res['seconds']:6.2f} s", flush=True)
        finally:
            subprocess.run(["git", "-C", str(TREE), "worktree", "remove", "--force",
                            str(base)], check=False)
    b, t = (statistics.median(times[k]) for k in ("base", "this"))
    print(f"\nindex build on {args.corpus} ({seen['this']['runs']} runs, "
          f"{seen['this']['samples']} samples, {seen['this']['tests']} tests), "
          f"{args.repeat} rounds, medians:")
    print(f"  base ({args.base}): {b:6.2f} s   (min {min(times['base']):.2f}, "
          f"max {max(times['base']):.2f})")
    print(f"  this tree:  {t:6.2f} s   (min {min(times['this']):.2f}, "
          f"max {max(times['this']):.2f})")
    print(f"  speed-up: {b / t:.2f}x")
    same = seen["base"]["digest"] == seen["this"]["digest"]
    print(f"  same index written: {'yes' if same else 'NO'} "
          f"(issues: base {seen['base']['issues']}, this {seen['this']['issues']})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
