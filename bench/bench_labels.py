"""How the label store, agreement and export hold up at the scale of a labelling campaign.

    python bench/bench_labels.py [--items 2000] [--annotators 3]

Prints: the time of one save (a label added, or changed, each a locked, fsynced, atomic
rewrite of the annotator's file) as the file grows; the file size; loading every file; the
agreement figures and the export over all items.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from inspector.model.labels.agreement import agreement
from inspector.model.labels.label_file import Anchor, ItemRef, Label
from inspector.services.labels.export import ExportRow, render
from inspector.services.labels.store import LabelStore


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(len(values) * 0.95) - 1] if len(values) >= 20 else values[-1]
    return f"median {statistics.median(values) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--annotators", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(1)
    cats = ["architectural", "dependency", "cross-file", "not-model", "other"]
    with tempfile.TemporaryDirectory() as tmp:
        store = LabelStore(Path(tmp) / "labels")
        tax = store.taxonomy()
        items = [ItemRef(f"run-{i % 20:02d}@x/task-{i // 20:03d}/0") for i in range(args.items)]
        names = [f"ann{k}" for k in range(args.annotators)]
        checkpoints = {100, 500, 1000, 2000, 5000} & set(range(1, args.items + 1))
        timings: dict[int, list[float]] = {}
        for name in names:
            window: list[float] = []
            for n, item in enumerate(items, 1):
                truth = cats[hash(item.sample) % len(cats)]
                cat = truth if rng.random() < 0.8 else rng.choice(cats)
                label = Label(item, cat, "medium", "note " * 5,
                              (Anchor.log("start", n % 300 + 1, "ImportError: x"),))
                t0 = time.perf_counter()
                store.save(name, label, taxonomy_id=tax.id)
                window.append(time.perf_counter() - t0)
                if name == names[0] and n in checkpoints:
                    timings[n] = window[-50:]
        size = store.path_for(names[0]).stat().st_size
        print(f"{args.items} items x {len(names)} annotators")
        for n, w in sorted(timings.items()):
            print(f"  save, file holding {n:>5} labels: {_ms(w)}")
        changes = []
        for item in rng.sample(items, 50):
            old = store.read(names[0]).get(item)
            assert old is not None
            new_cat = cats[(cats.index(old.category) + 1) % len(cats)]
            t0 = time.perf_counter()
            store.save(names[0], Label(item, new_cat, old.confidence, old.note, old.evidence),
                       reason="second look")
            changes.append(time.perf_counter() - t0)
        print(f"  change an existing label ({args.items} in the file): {_ms(changes)}")
        print(f"  file size: {size / 1024:.0f} KiB ({size / args.items:.0f} bytes per label)")
        t0 = time.perf_counter()
        loaded = store.load()
        t_load = time.perf_counter() - t0
        print(f"  load all {len(names)} files: {t_load * 1000:.0f} ms")
        t0 = time.perf_counter()
        report = agreement(loaded.labels.ratings(), cats)
        t_agree = time.perf_counter() - t0
        print(f"  agreement over {report.items} shared items: {t_agree * 1000:.0f} ms "
              f"(alpha {report.alpha:.3f})")
        rows = []
        for item in loaded.labels.items():
            final = loaded.labels.final(item)
            rows.append(ExportRow(item.sample, None, final.category, final.status,
                                  final.ratings, item.sample.split("/")[0], "agent", "model",
                                  "python" if hash(item.sample) % 5 else "java",
                                  item.sample.split("/")[1]))
        for fmt in ("md", "latex", "json", "csv"):
            t0 = time.perf_counter()
            text = render(rows, tax, fmt)
            print(f"  export {fmt:>5}: {(time.perf_counter() - t0) * 1000:.0f} ms, "
                  f"{len(text) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
