"""Global mechanisms of a generated repo (validation handler, catch-all, unregistered
blueprint) read as architectural failures, named with file:line, grouped under one root."""

from __future__ import annotations

from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.results.outcomes import Outcome, Phase
from inspector.model.results.sample import Deployment, SampleResult, TestCase, TestSummary
from inspector.services.triage.engine import TriageContext, triage_sample


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def _failure(test: str, line: int, statement: str, got: int, want: int) -> TestCase:
    tid = f"tests/test_api.py::{test}"
    message = f"assert {got} == {want}\n +  where {got} = <Response [{got}]>.status_code"
    tb = (f"tests/test_api.py:{line}: in {test}\n    {statement}\nE   assert {got} == {want}\n"
          f"E    +  where {got} = <Response [{got}]>.status_code")
    return TestCase(tid, Outcome.FAILED, message=message, traceback=tb, file="tests/test_api.py")


def _triage(tmp_path: Path, readme: str, suite: str, repo: dict[str, str],
            cases: tuple[TestCase, ...]):  # type: ignore[no-untyped-def]
    task_root = _write(tmp_path / "task", {"README.md": readme, "tests/test_api.py": suite})
    task = Task("task", "python", "any", 8000, readme, task_root, task_root / "tests")
    sample = SampleResult(
        run_id="run", task="task", sample=0, language="python",
        deployment=Deployment(success=True, message="Service started successfully",
                              failed_phase=Phase.TESTS),
        tests=TestSummary(passed=1, failed=len(cases), errors=0, cases=cases, has_cases=True),
        port=8000, repo_path=_write(tmp_path / "repo", repo))
    return triage_sample(sample, TriageContext([], {"task": task}))


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


USERS_README = """# User service

## POST /api/users
Create a user. Body: `{"name": "string", "email": "string"}` (both required).

Responses:
- 201 Created: the user
- 400 Bad Request: invalid input (missing or malformed fields)
- 409 Conflict: the email is taken
"""

USERS_SUITE = """import requests
BASE = "http://localhost:8000"


def test_missing_name():
    r = requests.post(f"{BASE}/api/users", json={"email": "a@b.c"})
    assert r.status_code == 400


def test_bad_email():
    r = requests.post(f"{BASE}/api/users", json={"name": "ann", "email": 3})
    assert r.status_code == 400
"""

FASTAPI_ERRORS = """from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError):
        return JSONResponse(status_code=422, content={"error": "validation failed"})
"""

FASTAPI_MAIN = """from fastapi import FastAPI
from pydantic import BaseModel

from app.errors import install

app = FastAPI()
install(app)


class User(BaseModel):
    name: str
    email: str


@app.post("/api/users", status_code=201)
def create(user: User):
    return user
"""


def test_a_validation_handler_answering_422_where_the_readme_says_400(tmp_path: Path) -> None:
    cases = (_failure("test_missing_name", 7, "assert r.status_code == 400", 422, 400),
             _failure("test_bad_email", 12, "assert r.status_code == 400", 422, 400))
    triage = _triage(tmp_path, USERS_README, USERS_SUITE,
                     {"app/__init__.py": "", "app/errors.py": FASTAPI_ERRORS,
                      "app/main.py": FASTAPI_MAIN}, cases)
    first, second = triage.suggestions
    where = f"app/errors.py:{_line(FASTAPI_ERRORS, '@app.exception_handler')}"
    assert first.is_root and first.category == "architectural", first
    assert where in first.reason and "README.md:" in first.reason
    assert any(a.kind == "file" and a.describe() == where for a in first.anchors)
    # the second test, failing at another line, follows the first: one mechanism, one root
    (group,) = triage.groups
    assert second.root == first.item.key and second.category == "architectural"
    assert where in group.why and group.members == (second.item,)


FLASK_README = """# Items

## GET /api/items/{id}
Returns the item. 404 Not Found when no item has that id.
"""

FLASK_SUITE = """import requests


def test_unknown_item():
    r = requests.get("http://localhost:5000/api/items/999")
    assert r.status_code == 404
"""

FLASK_APP = """from flask import Flask, abort, jsonify

app = Flask(__name__)
ITEMS = {}


@app.errorhandler(Exception)
def everything(exc):
    return jsonify({"error": str(exc)}), 500


@app.route("/api/items/<int:item_id>")
def get_item(item_id):
    if item_id not in ITEMS:
        abort(404)
    return jsonify(ITEMS[item_id])
"""


def test_a_flask_catch_all_turning_404_into_500(tmp_path: Path) -> None:
    case = _failure("test_unknown_item", 6, "assert r.status_code == 404", 500, 404)
    (only,) = _triage(tmp_path, FLASK_README, FLASK_SUITE, {"app.py": FLASK_APP},
                      (case,)).suggestions
    where = f"app.py:{_line(FLASK_APP, 'errorhandler(Exception)')}"
    assert only.category == "architectural" and only.rule == "mechanism/catch-all", only
    assert where in only.reason

    # with an HTTPException handler beside it, Flask never hands the 404 to the catch-all
    passing = FLASK_APP.replace("@app.errorhandler(Exception)", "@app.errorhandler(HTTPException)\n"
                                "def http(exc):\n    return exc\n\n\n@app.errorhandler(Exception)")
    (only,) = _triage(tmp_path / "b", FLASK_README, FLASK_SUITE, {"app.py": passing},
                      (case,)).suggestions
    assert not any(r.rule.startswith("mechanism/") for r in only.competing)


ADMIN_README = """# Admin

## GET /api/admin/stats
Returns `{"users": 3}`.

## GET /api/health
Returns `{"status": "ok"}`.
"""

ADMIN_SUITE = """import requests


def test_stats():
    r = requests.get("http://localhost:5000/api/admin/stats")
    assert r.status_code == 200
"""

ADMIN_ROUTES = """from flask import Blueprint, jsonify

admin_bp = Blueprint("admin", __name__, url_prefix="/api/admin")


@admin_bp.route("/stats", methods=["GET"])
def stats():
    return jsonify({"users": 3})
"""

HEALTH_ROUTES = """from flask import Blueprint, jsonify

bp = Blueprint("health", __name__, url_prefix="/api")


@bp.get("/health")
def health():
    return jsonify({"status": "ok"})
"""

ADMIN_APP = """from flask import Flask

from routes.health import bp as health_bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(health_bp)
    return app
"""


def test_a_blueprint_nobody_registers(tmp_path: Path) -> None:
    case = _failure("test_stats", 6, "assert r.status_code == 200", 404, 200)
    repo = {"app.py": ADMIN_APP, "routes/__init__.py": "", "routes/admin.py": ADMIN_ROUTES,
            "routes/health.py": HEALTH_ROUTES}
    (only,) = _triage(tmp_path, ADMIN_README, ADMIN_SUITE, repo, (case,)).suggestions
    assert only.category == "architectural" and only.rule == "mechanism/unregistered-router"
    assert f"routes/admin.py:{_line(ADMIN_ROUTES, 'Blueprint(')}" in only.reason, only.reason

    # registered (through a loop over the route modules): no such reading
    repo["app.py"] = ADMIN_APP.replace(
        "app.register_blueprint(health_bp)",
        "for module in (admin, health):\n        app.register_blueprint(module.bp)").replace(
        "from routes.health import bp as health_bp", "from routes import admin, health")
    repo["routes/admin.py"] = ADMIN_ROUTES.replace("admin_bp", "bp")
    (only,) = _triage(tmp_path / "b", ADMIN_README, ADMIN_SUITE, repo, (case,)).suggestions
    assert not any(r.rule.startswith("mechanism/") for r in only.competing)


def test_a_clean_repo_gives_no_mechanism_reading(tmp_path: Path) -> None:
    clean = FASTAPI_ERRORS.replace("status_code=422", "status_code=400")
    cases = (_failure("test_missing_name", 7, "assert r.status_code == 400", 409, 400),
             _failure("test_bad_email", 12, "assert r.status_code == 400", 409, 400))
    triage = _triage(tmp_path, USERS_README, USERS_SUITE,
                     {"app/__init__.py": "", "app/errors.py": clean,
                      "app/main.py": FASTAPI_MAIN}, cases)
    assert len(triage.groups) == 2
    assert not any(r.rule.startswith("mechanism/") for s in triage.suggestions
                   for r in s.competing)


NOTES_README = """# Notes

## POST /api/notes
Body: `{"title": "string"}` (required). 400 Bad Request when the body is invalid or malformed.

## GET /api/notes/{id}
404 when no note has that id. Every error answers:

```json
{"error": "message"}
```
"""

NOTES_SUITE = """import requests
BASE = "http://localhost:8000"


def test_missing_title():
    r = requests.post(f"{BASE}/api/notes", json={})
    assert r.status_code == 400


def test_unknown_note_error_body():
    r = requests.get(f"{BASE}/api/notes/999")
    assert "error" in r.json()
"""

NOTES_APP = """from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI()
NOTES = {}


class Note(BaseModel):
    title: str


@app.post("/api/notes", status_code=201)
def create(note: Note):
    return note


@app.get("/api/notes/{note_id}")
def get(note_id: int):
    if note_id not in NOTES:
        raise HTTPException(status_code=404, detail="not found")
    return NOTES[note_id]
"""


def test_fastapi_defaults_never_overridden(tmp_path: Path) -> None:
    body = TestCase(
        "tests/test_api.py::test_unknown_note_error_body", Outcome.FAILED,
        message="AssertionError: assert 'error' in {'detail': 'not found'}",
        traceback=("tests/test_api.py:12: in test_unknown_note_error_body\n"
                   '    assert "error" in r.json()\n'
                   "E   AssertionError: assert 'error' in {'detail': 'not found'}\n"
                   "E    +  where {'detail': 'not found'} = json()"),
        file="tests/test_api.py")
    cases = (_failure("test_missing_title", 7, "assert r.status_code == 400", 422, 400), body)
    status, envelope = _triage(tmp_path, NOTES_README, NOTES_SUITE, {"main.py": NOTES_APP},
                               cases).suggestions
    app = f"main.py:{_line(NOTES_APP, 'FastAPI()')}"
    assert status.rule == "mechanism/framework-default-validation", status
    assert status.category == "architectural" and app in status.reason
    assert envelope.rule == "mechanism/framework-default-error-body", envelope
    assert envelope.category == "architectural" and app in envelope.reason
    assert "README.md:10" in envelope.reason
