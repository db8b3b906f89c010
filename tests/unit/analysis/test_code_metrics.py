"""Generated-code metrics (radon, complexipy, lizard) on small repos with known figures, a
real bundled Java repo, and hostile files: each skipped with a named reason, never a traceback.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from inspector.services.analysis.code_metrics import code_metrics_for, detect_language
from inspector.services.analysis.oracle import oracle_metrics_for
from inspector.services.analysis.sources import MAX_SOURCE_BYTES, read_source

ROOT = Path(__file__).resolve().parents[3]
JAVA_REPO = (ROOT / "sample_runs/predictions/repo_readme_1125_dash_m2-mini_Java"
             / "spark-dashboard-backend")

PY = '''\
"""A tiny module."""


def f(x):
    # a comment
    if x > 0 and x < 10:
        return 1
    for i in range(x):
        if i % 2:
            pass
    return 0


class A:
    def m(self):
        return 1
'''

JAVA = '''\
/* class Ghost {} in a comment */
public class Calc {
    // class Fake {}
    private final String s = "class Nope {}";

    int sign(int x) {
        if (x > 0) {
            return 1;
        } else if (x < 0) {
            return -1;
        }
        return 0;
    }

    boolean both(boolean a, boolean b) {
        return a && b;
    }

    Class<?> kind() {
        return Calc.class;
    }
}
'''


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_python_known_figures(tmp_path: Path) -> None:
    m = code_metrics_for(_write(tmp_path, {"app.py": PY}), "python")
    # f: 1 + if + `and` + for + if = 5 (McCabe); m: 1
    assert (m.files, m.functions, m.classes) == (1, 2, 1)
    assert (m.cyclomatic, m.max_cyclomatic) == (6, 5)
    # cognitive (SonarSource): if +1, `and` +1, for +1, nested if +2 (nesting 1) = 5
    assert m.cognitive == 5
    # 10 lines of code: the docstring, the comment and the blanks are not code
    assert m.sloc == 10
    assert m.skipped == () and m.notes == ()
    assert "radon" in m.tools and "complexipy" in m.tools


def test_paper_counts_differ_from_radon(tmp_path: Path) -> None:
    o = oracle_metrics_for(_write(tmp_path, {"app.py": PY}), "python")
    # the paper: f = 1 + 2 If + 1 For + 1 BoolOp + 2 Compare (x > 0, x < 10) = 7; m = 1
    assert o.complexity == 8
    # the paper's LOC: non-blank lines not starting with '#': the docstring counts
    assert o.loc == 11
    assert (o.files, o.functions, o.classes) == (1, 2, 1)


def test_java_known_figures(tmp_path: Path) -> None:
    m = code_metrics_for(_write(tmp_path, {"src/Calc.java": JAVA}), "java")
    # sign: 1 + if + else-if = 3; both: 1 + && = 2; kind: 1
    assert (m.functions, m.cyclomatic, m.max_cyclomatic) == (3, 6, 3)
    # only `class Calc`: not the comment's, not the string's, not `Calc.class`
    assert m.classes == 1
    assert m.cognitive is None and "lizard" in m.tools
    o = oracle_metrics_for(tmp_path, "java")
    # the paper: 3 methods + if, if, &&, ? (in Class<?>) = 7
    assert (o.complexity, o.functions, o.classes) == (7, 3, 1)


def test_bundled_java_repo() -> None:
    assert detect_language(JAVA_REPO) == "java"
    m = code_metrics_for(JAVA_REPO)
    assert m.language == "java" and m.files == 1
    # App.java declares `class App`, `static class ApiException`, `static class User`
    assert m.classes == 3
    assert m.functions == 21
    assert m.cyclomatic >= m.functions and m.max_cyclomatic >= 1
    assert 300 < m.sloc < 417  # 417 lines, less blanks and comments


def test_hostile_files_are_skipped_with_reasons(tmp_path: Path) -> None:
    repo = _write(tmp_path / "repo", {"ok.py": "def g():\n    return 1\n",
                                      "broken.py": "def h(:\n    pass\n"})
    (repo / "blob.py").write_bytes(b"x = 1\n\x00\x01\x02" * 10)
    (repo / "huge.py").write_bytes(b"x = 1\n" * (MAX_SOURCE_BYTES // 6 + 10))
    outside = tmp_path / "secret.py"
    outside.write_text("def stolen():\n    return 1\n")
    (repo / "link.py").symlink_to(outside)
    (repo / "linkdir").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(repo / "pipe.py")
    m = code_metrics_for(repo, "python")
    reasons = {s.file: s.reason for s in m.skipped}
    assert reasons["blob.py"] == "binary file (NUL bytes)"
    assert reasons["huge.py"].startswith("larger than 1024 KiB")
    assert reasons["link.py"] == "symlink (not followed)"
    assert reasons["linkdir"] == "symlinked folder (not followed)"
    assert reasons["pipe.py"] == "not a regular file"
    # ok.py and broken.py are measured; the broken one for its SLOC only, and says so
    assert m.files == 2 and m.functions == 1
    assert m.notes == ("broken.py: syntax error at line 1: SLOC only",)
    assert "stolen" not in repr(m)


def test_pathological_nesting_is_a_note_not_a_crash(tmp_path: Path) -> None:
    deep = "def f():\n    x = " + "+".join(["1"] * 150_000) + "\n"  # ~450 KB, legal Python
    repo = _write(tmp_path, {"deep.py": deep, "ok.py": "def g():\n    return 1\n"})
    m = code_metrics_for(repo, "python")
    assert m.notes == ("deep.py: cannot parse (RecursionError): SLOC only",)
    assert m.functions == 1 and m.files == 2
    o = oracle_metrics_for(repo, "python")  # the paper counts nothing for such a file
    assert (o.loc, o.functions) == (2, 1)


def test_java_nesting_too_deep_for_lizard(tmp_path: Path,
                                          capfd: pytest.CaptureFixture[str]) -> None:
    repo = _write(tmp_path, {"A.java": "class { ( ( ( " * 10_000})
    m = code_metrics_for(repo, "java")
    assert m.notes == ("A.java: nesting too deep for lizard: partial figures",)
    assert capfd.readouterr().err == ""  # lizard's own stderr line became the note


def test_unreadable_file_gets_a_reason(tmp_path: Path) -> None:
    # (these tests run as root, where chmod 000 does not stop a read: a file that vanished
    # between the walk and the read takes the same OSError path)
    text, reason = read_source(tmp_path / "gone.py")
    assert text is None and reason.startswith("unreadable (No such file")
    text, reason = read_source(tmp_path)
    assert text is None and reason == "not a regular file"


@pytest.mark.parametrize("language", ["python", "java"])
def test_missing_or_empty_repo(tmp_path: Path, language: str) -> None:
    m = code_metrics_for(tmp_path, language)
    assert (m.files, m.sloc, m.functions, m.cyclomatic) == (0, 0, 0, 0)
