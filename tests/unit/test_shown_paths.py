"""The report's one path filter (:mod:`inspector.model.untrusted.shown_paths`) on hostile text."""

from __future__ import annotations

import pytest

from inspector.model.untrusted.shown_paths import PathScope, shown_path, shown_paths

SCOPE = PathScope.of(roots=[("/tmp/my copy/sample_runs", "sample_runs")],
                     anchors=["repo_readme_1125_dash_m2-mini_Python"],
                     machine=["/home/Jane Doe", "/tmp"])


@pytest.mark.parametrize(("text", "shown"), [
    # a traceback frame in a venv of the temp folder: from site-packages on
    ('File "/tmp/pytest-of-root/xyz/venv/lib/python3.11/site-packages/flask/app.py", line 3',
     'File "…/site-packages/flask/app.py", line 3'),
    ("/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module",
     "…/importlib/__init__.py:126: in import_module"),
    # under the runs folder (whose path has a space): relative, behind its name
    ("inspector replay '/tmp/my copy/sample_runs' t --sample 0",
     "inspector replay 'sample_runs' t --sample 0"),
    ("read /tmp/my copy/sample_runs/runs/r/result.json: bad",
     "read sample_runs/runs/r/result.json: bad"),
    # a run as recorded on the machine that evaluated it: from the run's folder
    ("xml file: /work/main/sample_runs/runs/repo_readme_1125_dash_m2-mini_Python/samples/x/0/"
     "junit.xml -", "xml file: repo_readme_1125_dash_m2-mini_Python/samples/x/0/junit.xml -"),
    # the harness's staged repository, the sandbox's /repo: relative to the repository
    ("(/tmp/gi-springboot-chat-gateway-y7_97vl3/repo/pom.xml) has 1 error",
     "(pom.xml) has 1 error"),
    ("rootdir: /tmp/gi-quote-board-ri7ebp6w/repo", "rootdir: repo"),
    ("/repo/app/main.py:3: AssertionError", "app/main.py:3: AssertionError"),
    # home folders: never the user's name, even with a space in it
    ("/home/Jane Doe/proj/app.py failed", "…/proj/app.py failed"),
    ('"/home/bob smith/x.py"', '"…/x.py"'),
    ("/home/bob", "…"),
    ("PATH=/usr/local/bin:/home/bob/bin", "PATH=…/local/bin:…/bin"),
    # Windows: drive, escaped backslashes in a repr, spaces in quotes, UNC, forward slashes
    (r"open C:\Users\bob\AppData\Local\Temp\x\app.py failed", r"open …\x\app.py failed"),
    (r"'C:\\Program Files\\App\\x.py'", r"'…\App\x.py'"),
    (r'"D:\My Documents\proj\app.py", line 2', r'"…\proj\app.py", line 2'),
    (r"\\fileserver\share\builds\x.py", r"…\builds\x.py"),
    ("C:/Users/bob/x/y.py", "…/x/y.py"),
    # file:// URLs
    ("see file:///home/bob/report.html.", "see …/report.html."),
    ("file://localhost/C:/Users/bob/x.txt", "…/x.txt"),
    ("file:///tmp/my%20dir/a/b.log", "…/a/b.log"),
])
def test_machine_paths_are_shown_relative_or_by_their_last_components(text: str,
                                                                       shown: str) -> None:
    assert shown_paths(text, SCOPE) == shown


@pytest.mark.parametrize("text", [
    "GET /api/users/1 -> 404", "http://localhost:8000/api/x and https://a.b/tmp/d",
    "10/20 tests passed", "a/b/c relative", "/", "POST /items", "ratio 1/2",
    "see ~/notes", "x = a / b", "/todos/3?x=/tmp",
])
def test_other_text_is_left_alone(text: str) -> None:
    assert shown_paths(text, SCOPE) == text


def test_a_root_is_not_a_prefix_of_a_sibling() -> None:
    scope = PathScope.of(roots=[("/tmp/runs", "runs")])
    assert shown_path("/tmp/runs", scope) == "runs"
    assert shown_path("/tmp/runs/a", scope) == "runs/a"
    assert shown_path("/tmp/runs2/a/b.json", scope) == "…/a/b.json"


def test_no_machine_prefix_survives_hostile_text() -> None:
    text = "\n".join([
        "Traceback: '/tmp/x/y z/app.py' \"/home/u/.cache/a.py\" (/root/a/b/c.py)",
        "[/work/main/x.py] {/var/folders/ab/T/tmp1/z.py} <C:\\Users\\u\\z.py>",
        "/tmp/a,/tmp/b;/tmp/c|/tmp/d`/tmp/e` =/tmp/f", "\t/tmp/g\r/tmp/h",
    ])
    out = shown_paths(text)
    for prefix in ("/tmp/", "/home/", "/root/", "/work/", "/var/", "Users"):
        assert prefix not in out, out
