"""Write sample_runs/labels/: two annotators (ana, ben) and one adjudication, via the store.

The labels are human judgements of the bundled failures (see sample_runs/README.md); this
script only records them through the same code path the app uses, so the files are exactly
what the inspector writes. Run from the checkout: ``python scripts/make_sample_labels.py``
(it starts from empty files; timestamps are the time of the run).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.model.labels.label_file import Anchor, ItemRef, Label
from inspector.services.labels.store import LabelStore

ROOT = Path(__file__).resolve().parent.parent / "sample_runs" / "labels"
F = "repo_readme_1118_forge_m1-large_Python"
R = "repo_readme_1119_relay_open_coder-7b_Python"

# (sample, test, category, confidence, note, evidence) per annotator
ANA = [
    (f"{F}/quote-board/0", None, "not-model", "high",
     "The golden test imports app.models, which the README never mentions; the API tests pass.",
     [Anchor.for_test("tests/test_quote_model.py"),
      Anchor.log("tests", 23, "E   ModuleNotFoundError: No module named 'app.models'")]),
    (f"{F}/todo-service/0", None, "cross-file", "high",
     "models.py calls the field done, routes.py and the README say completed.",
     [Anchor.file("models.py", 14), Anchor.log("tests", 26, "E   KeyError: 'completed'")]),
    (f"{F}/unit-converter/0", None, "architectural", "high",
     "start.sh has no --port; uvicorn listens on 8000.",
     [Anchor.file("start.sh", 5),
      Anchor.log("start", 6, "INFO:     Uvicorn running on http://127.0.0.1:8000 "
                             "(Press CTRL+C to quit)")]),
    (f"{R}/inventory-api/0", None, "dependency", "high",
     "policy.py imports yaml; PyYAML is not in requirements.txt.",
     [Anchor.file("policy.py", 8),
      Anchor.log("start", 80, "ModuleNotFoundError: No module named 'yaml'")]),
    (f"{R}/notes-api/0", None, "architectural", "medium",
     "get_store() builds a new NoteStore per request, so nothing persists.",
     [Anchor.file("main.py", 13)]),
    (f"{R}/notes-api/0", "tests/test_notes.py::test_get_note_by_id", "architectural", "medium",
     "404 right after a 201: the store is per request.",
     [Anchor.for_test("tests/test_notes.py::test_get_note_by_id")]),
    (f"{R}/quote-board/0", None, "dependency", "high",
     "flask-quotes-toolkit does not exist on PyPI.",
     [Anchor.file("requirements.txt", 2),
      Anchor.log("install", 12,
                 "ERROR: No matching distribution found for flask-quotes-toolkit==1.2.0")]),
    (f"{R}/todo-service/0", None, "cross-file", "high",
     "routes.py imports TodoRepository; storage.py defines TodoStore.",
     [Anchor.file("routes.py", 3),
      Anchor.log("start", 8, "ImportError: cannot import name 'TodoRepository' from 'storage'")]),
    (f"{R}/unit-converter/0", None, "architectural", "high",
     "A Flask (WSGI) app served by uvicorn (ASGI): every request is a 500.",
     [Anchor.file("start.sh", 4),
      Anchor.log("start", 19, "TypeError: Flask.__call__() missing 1 required positional "
                              "argument: 'start_response'")]),
    (f"{R}/url-shortener/0", None, "dependency", "high",
     "Flask 2.0.3 pinned, Werkzeug left unpinned: Werkzeug 3 has no url_quote.",
     [Anchor.file("requirements.txt", 1)]),
]

# ben agrees except on three items
BEN_CHANGES = {
    (f"{F}/quote-board/0", None): ("cross-file", "low",
                                   "The test expects app/models.py; the repo has no such module."),
    (f"{R}/notes-api/0", None): ("other", "medium",
                                 "Handlers work; persistence is simply missing."),
    (f"{R}/unit-converter/0", None): ("dependency", "medium",
                                      "uvicorn in requirements for a Flask app; should be "
                                      "gunicorn."),
}


def main() -> None:
    if ROOT.exists():
        shutil.rmtree(ROOT)
    store = LabelStore(ROOT)
    tax = store.taxonomy()
    for sample, test, cat, conf, note, ev in ANA:
        store.save("ana", Label(ItemRef(sample, test), cat, conf, note, tuple(ev)),
                   taxonomy_id=tax.id)
        change = BEN_CHANGES.get((sample, test))
        if change:
            cat, conf, note = change
        store.save("ben", Label(ItemRef(sample, test), cat, conf, note, tuple(ev)),
                   taxonomy_id=tax.id)
    # ben first said dependency for todo-service, then corrected it: the history shows it
    item = ItemRef(f"{R}/todo-service/0")
    first = store.read("ben").get(item)
    assert first is not None
    from dataclasses import replace
    store.save("ben", replace(first, category="dependency", confidence="low"),
               reason="looked like an import error")
    store.save("ben", first, reason="storage is the repo's own module, not a package")
    store.adjudicate("carla", ItemRef(f"{F}/quote-board/0"), "not-model",
                     reason="test_quote_model.py needs app.models, which the README never asks "
                            "for; the API tests pass", taxonomy_id=tax.id)
    (ROOT / ".locks").exists() and shutil.rmtree(ROOT / ".locks")
    print(f"wrote {ROOT}")


if __name__ == "__main__":
    main()
