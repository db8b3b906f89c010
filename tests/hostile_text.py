"""The hostile-text data set (issue 14, part 3), shared by the app and CLI tests.

``tests/fixtures/hostile/text`` is a real run (``inspector evaluate``, local backend) of a
service written to attack the terminal of whoever inspects it, with a hostile run id, agent and
model (markup, OSC 52, OSC 0, CSI, BEL, a zero-width joiner, a right-to-left override); see its
README. :func:`hostile_root` copies it and adds what is made rather than checked in: file,
symlink and folder names holding control characters, a folder the loader reports as a problem,
and label files (notes, evidence, a category name) written through the label store.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from inspector.model.labels.label_file import Anchor, ItemRef, Label
from inspector.services.labels.store import LabelStore

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "hostile" / "text"
PREDICTIONS = "predictions/repo_readme_0101_hostile_evil_Python/echo-svc"
RUN = json.loads((FIXTURE / "runs" / "hostile-run" / "run.json").read_text("utf-8"))
RUN_ID = RUN["run_id"]
SAMPLE_0 = f"{RUN_ID}/echo-svc/0"
SAMPLE_1 = f"{RUN_ID}/echo-svc/1"  # its repo path (missing[/x]) does not exist
GREET = "tests/test_echo.py::test_greet"
#: The run id as shown (it holds no C0 control: the loader refuses those in ids).
SHOWN_RUN_ID = "run[bold]R[link=x]Z<U+200D>W<U+202E>R<U+2066>I\\x9bC"

#: What must never be written to the terminal: OSC 52 (clipboard), OSC 0 (title), CSI 2J,
#: BEL, the C1 CSI, a zero-width joiner, a right-to-left override and an isolate.
RAW = ("\x1b]52", "\x1b]0;", "\x1b[2J", "\x07", "\x9b", "\u200d", "\u202e", "\u2066")

HOSTILE = "EVIL[/x][bold]B[@click=app.quit]Q\x1b]52;c;cHduZWQ=\x07\x1b]0;TITLE\x07Z\u200dW\u202eR"
CONTROL_FILE = "evil\x1b]0;T\x07\u200d\u202e.py"
CONTROL_LINK = "ln\x1b]52;c;cHduZWQ=\x07"
CONTROL_DIR = "d\x1b[2J["  # holds a file "x]": the path reads d<ESC>[2J[/x]
BAD_FOLDER = "bad\x1b]0;T\x07\u200d"


def hostile_root(tmp_path: Path) -> Path:
    """A copy of the fixture with the names and label files that are made, not checked in."""
    root = tmp_path / "data"
    shutil.copytree(FIXTURE, root, symlinks=True)
    repo = root / PREDICTIONS
    (repo / CONTROL_FILE).write_text("x = 1  # \x1b]52;c;cHduZWQ=\x07\n", encoding="utf-8")
    (repo / CONTROL_LINK).symlink_to("server.py")
    (repo / CONTROL_DIR).mkdir()
    (repo / CONTROL_DIR / "x]").write_text("inside\n")
    (root / BAD_FOLDER).mkdir()
    (root / BAD_FOLDER / "run.json").write_text("{ not json", encoding="utf-8")
    write_labels(root / "labels")
    return root


def write_labels(folder: Path) -> None:
    """Two annotators who disagree on sample 0, with hostile notes and evidence; a hostile
    category name in the project's taxonomy; an adjudication of sample 1 with a hostile why."""
    folder.mkdir(parents=True)
    taxonomy = json.loads((Path(__file__).resolve().parents[1] / "inspector" / "data"
                           / "taxonomy.json").read_text("utf-8"))
    taxonomy["categories"][2]["name"] = "Cross-file [/x]\x1b]0;T\x07\u200d"
    (folder / "taxonomy.json").write_text(json.dumps(taxonomy), encoding="utf-8")
    store = LabelStore(folder)
    tax = store.taxonomy().id
    evidence = (Anchor.file("b[/x]", 1), Anchor.log("tests", 3, HOSTILE),
                Anchor.for_test(GREET + "[/x]\x1b]0;T\x07"))
    store.save("ana", Label(ItemRef(SAMPLE_0), "cross-file", "high", "ana: " + HOSTILE,
                            evidence), taxonomy_id=tax)
    store.save("bob", Label(ItemRef(SAMPLE_0), "dependency", "low", "bob: " + HOSTILE,
                            evidence[:1]), taxonomy_id=tax)
    store.save("ana", Label(ItemRef(SAMPLE_1), "other", "medium", HOSTILE), taxonomy_id=tax)
    store.save("bob", Label(ItemRef(SAMPLE_1), "dependency", "medium", ""), taxonomy_id=tax)
    store.adjudicate("carla", ItemRef(SAMPLE_1), "other", reason="why " + HOSTILE,
                     taxonomy_id=tax)
