"""Independent hand count of strict API coverage on the bundled generated repos.

Every required endpoint (``task.required_endpoints``) of the 8 real Python tasks in the
three 1125 Python runs (atlas / dash / relay) and of the 3 Java tasks in the dash Java run
was located BY READING THE SOURCE, before running the inspector's coverage code. The data
below records, per repo and endpoint, the ``file:line`` where the route serving it is
declared, or ``None`` when the repo does not serve it.

What counts as "the line where the route is declared":

* Flask / FastAPI: the decorator line (``@bp.get(...)``, ``@app.route(...)``,
  ``@router.post(...)``), with blueprint / router prefixes applied from where they are
  registered (``url_prefix=``, ``include_router(prefix=...)``, ``Blueprint(url_prefix=)``);
* Django: the leaf ``path(...)`` line, or the ``router.register(...)`` line for DRF
  routers (list + detail routes of a ``ModelViewSet``);
* Eve: the resource's entry in ``DOMAIN`` (the ``"people": {`` line);
* Javalin / Spark: the ``app.get(...)`` / ``get(...)`` call line; Spring: the
  ``@GetMapping`` etc. line (class ``@RequestMapping`` prefix applied).

Evidence policy: the inspector may list several routes that serve one endpoint (e.g. the
same handler reachable under two prefixes); the hand-counted line must be AMONG them, and an
endpoint is implemented exactly when a hand-counted line exists. Any further evidence line
must be listed in ``EXTRA_EVIDENCE`` (hand-checked to serve the endpoint too) -- none is
needed for these repos, so a spurious match (e.g. dash StructuredDataConvertor's router also
included WITHOUT the /api/v1 prefix) fails the test. No endpoint of these repos
needs a runtime value to resolve its path, so none may come back ``unresolved``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model.benchmark.tasks import load_tasks
from inspector.services.repo.coverage import compute_coverage

ROOT = Path(__file__).resolve().parents[2] / "sample_runs"
PRED = ROOT / "predictions"

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
JAVA = "repo_readme_1125_dash_m2-mini_Java"

TASKMGR = "src/main/java/com/example/taskmanager/App.java"
DASHB = "src/main/java/com/example/dashboard/App.java"
CHAT = "src/main/java/com/example/chat/ChatController.java"

# Hand-judged "needs a runtime value" cases: (run, task, "METHOD path"). None here.
UNRESOLVED: set[tuple[str, str, str]] = set()

# Further routes that also serve an endpoint: (run, task, "METHOD path") -> lines. None here.
EXTRA_EVIDENCE: dict[tuple[str, str, str], tuple[str, ...]] = {}

HAND: dict[tuple[str, str], dict[str, str | None]] = {
    # ------------------------------------------------------------------ atlas (Python)
    (ATLAS, "Multilingual"): {  # Blueprint url_prefix="/api" (routes.py:9)
        "POST /api/translate": "multilingual/routes.py:17",
        "POST /api/timezone": "multilingual/routes.py:49",
        "POST /api/localize": "multilingual/routes.py:66",
        "GET /api/languages": "multilingual/routes.py:12",
    },
    (ATLAS, "StructuredDataConvertor"): {  # include_router(prefix=settings.api_prefix="/api/v1")
        "GET /api/v1/health": "app/routes.py:27",
        "POST /api/v1/convert": "app/routes.py:34",
        "POST /api/v1/convert/batch": "app/routes.py:39",
    },
    (ATLAS, "UserManagement_2"): {  # APIRouter(prefix="/users") + include prefix "/api/v1"
        "POST /api/v1/users/register": "app/routers/users.py:41",
        "POST /api/v1/users/login": "app/routers/users.py:57",
        "GET /api/v1/users/{user_id}": "app/routers/users.py:77",
        "PUT /api/v1/users/{user_id}": "app/routers/users.py:87",
        "DELETE /api/v1/users/{user_id}": "app/routers/users.py:107",
    },
    (ATLAS, "WebPan"): {  # Blueprint url_prefix on each blueprint; files list is @bp.get("")
        "POST /api/v1/auth/login": "webpan/routes/auth.py:62",
        "POST /api/v1/auth/register": "webpan/routes/auth.py:29",
        "POST /api/v1/files/upload": "webpan/routes/files.py:34",
        "POST /api/v1/files/upload-multiple": "webpan/routes/files.py:57",
        "GET /api/v1/files/{file_id}/download": "webpan/routes/files.py:94",
        "GET /api/v1/files/{file_id}/info": "webpan/routes/files.py:120",
        "GET /api/v1/files": "webpan/routes/files.py:154",
        "DELETE /api/v1/files/{file_id}": "webpan/routes/files.py:199",
        "PUT /api/v1/files/{file_id}/rename": "webpan/routes/files.py:208",
        "POST /api/v1/files/{file_id}/share": "webpan/routes/shares.py:17",
        "GET /api/v1/share/{share_id}": "webpan/routes/shares.py:60",
        "DELETE /api/v1/share/{share_id}": "webpan/routes/shares.py:88",
        "GET /api/v1/storage/quota": "webpan/routes/storage.py:10",
    },
    (ATLAS, "django-rest-framework-crud"): {  # api/v1/ -> auth/ -> accounts.urls; "" -> router
        "POST /api/v1/auth/register/": "accounts/urls.py:9",
        "POST /api/v1/auth/token/": "accounts/urls.py:10",
        "POST /api/v1/auth/refresh/": "accounts/urls.py:11",
        "GET /api/v1/movies/": "movies/urls.py:6",  # SimpleRouter + ModelViewSet
        "POST /api/v1/movies/": "movies/urls.py:6",
        "GET /api/v1/movies/{id}/": "movies/urls.py:6",
        "PUT /api/v1/movies/{id}/": "movies/urls.py:6",
        "DELETE /api/v1/movies/{id}/": "movies/urls.py:6",
    },
    (ATLAS, "eve"): {  # DOMAIN["people"], RESOURCE_METHODS GET/POST, ITEM_METHODS incl. PUT/DELETE
        "GET /people": "people_service/settings.py:35",
        "POST /people": "people_service/settings.py:35",
        "GET /people/{id}": "people_service/settings.py:35",
        "PUT /people/{id}": "people_service/settings.py:35",
        "DELETE /people/{id}": "people_service/settings.py:35",
    },
    (ATLAS, "flask"): {  # Blueprint without prefix
        "GET /health": "app/routes.py:9",
        "POST /echo": "app/routes.py:14",
        "GET /sum": "app/routes.py:21",
    },
    (ATLAS, "synapse"): {  # blueprints registered without prefix (routes/__init__.py)
        "GET /health": "synapse_service/routes/health.py:8",
        "POST /register": "synapse_service/routes/accounts.py:13",
        "POST /login": "synapse_service/routes/accounts.py:36",
        "POST /rooms/{room_id}/messages": "synapse_service/routes/rooms.py:22",
        "GET /rooms/{room_id}/messages": "synapse_service/routes/rooms.py:33",
    },
    # ------------------------------------------------------------------- dash (Python)
    (DASH, "Multilingual"): {
        "POST /api/translate": "app.py:59",
        "POST /api/timezone": "app.py:92",
        "POST /api/localize": "app.py:124",
        "GET /api/languages": "app.py:159",
    },
    (DASH, "StructuredDataConvertor"): {  # router included twice: prefix "/api/v1" and none
        "GET /api/v1/health": "main.py:154",
        "POST /api/v1/convert": "main.py:159",
        "POST /api/v1/convert/batch": "main.py:165",
    },
    (DASH, "UserManagement_2"): {  # <int:user_id>
        "POST /api/v1/users/register": "app.py:105",
        "POST /api/v1/users/login": "app.py:145",
        "GET /api/v1/users/{user_id}": "app.py:176",
        "PUT /api/v1/users/{user_id}": "app.py:185",
        "DELETE /api/v1/users/{user_id}": "app.py:221",
    },
    (DASH, "WebPan"): {
        "POST /api/v1/auth/login": "app.py:156",
        "POST /api/v1/auth/register": "app.py:131",
        "POST /api/v1/files/upload": "app.py:173",
        "POST /api/v1/files/upload-multiple": "app.py:194",
        "GET /api/v1/files/{file_id}/download": "app.py:218",
        "GET /api/v1/files/{file_id}/info": "app.py:249",
        "GET /api/v1/files": "app.py:267",
        "DELETE /api/v1/files/{file_id}": "app.py:307",
        "PUT /api/v1/files/{file_id}/rename": "app.py:325",
        "POST /api/v1/files/{file_id}/share": "app.py:341",
        "GET /api/v1/share/{share_id}": "app.py:373",
        "DELETE /api/v1/share/{share_id}": "app.py:402",
        "GET /api/v1/storage/quota": "app.py:414",
    },
    (DASH, "django-rest-framework-crud"): {  # DefaultRouter registered at core/urls.py:8,
        "POST /api/v1/auth/register/": "core/urls.py:11",  # included under api/v1/ (:14)
        "POST /api/v1/auth/token/": "core/urls.py:12",
        "POST /api/v1/auth/refresh/": "core/urls.py:13",
        "GET /api/v1/movies/": "core/urls.py:8",
        "POST /api/v1/movies/": "core/urls.py:8",
        "GET /api/v1/movies/{id}/": "core/urls.py:8",
        "PUT /api/v1/movies/{id}/": "core/urls.py:8",
        "DELETE /api/v1/movies/{id}/": "core/urls.py:8",
    },
    (DASH, "eve"): {  # plain Flask, not Eve; PUT shares a route with PATCH
        "GET /people": "app.py:69",
        "POST /people": "app.py:96",
        "GET /people/{id}": "app.py:123",
        "PUT /people/{id}": "app.py:143",
        "DELETE /people/{id}": "app.py:167",
    },
    (DASH, "flask"): {  # routes declared inside create_app()
        "GET /health": "app.py:7",
        "POST /echo": "app.py:11",
        "GET /sum": "app.py:21",
    },
    (DASH, "synapse"): {  # <path:room_id>
        "GET /health": "app.py:60",
        "POST /register": "app.py:69",
        "POST /login": "app.py:98",
        "POST /rooms/{room_id}/messages": "app.py:118",
        "GET /rooms/{room_id}/messages": "app.py:150",
    },
    # ------------------------------------------------------------------ relay (Python)
    (RELAY, "Multilingual"): {  # register_blueprint(url_prefix='/api')
        "POST /api/translate": "routes.py:11",
        "POST /api/timezone": "routes.py:42",
        "POST /api/localize": "routes.py:71",
        "GET /api/languages": "routes.py:99",
    },
    (RELAY, "StructuredDataConvertor"): {  # include_router(prefix="/api/v1")
        "GET /api/v1/health": "routes.py:25",
        "POST /api/v1/convert": "routes.py:72",
        "POST /api/v1/convert/batch": "routes.py:80",
    },
    (RELAY, "UserManagement_2"): {  # url_prefix='/api/v1/users'
        "POST /api/v1/users/register": "routes.py:21",
        "POST /api/v1/users/login": "routes.py:62",
        "GET /api/v1/users/{user_id}": "routes.py:91",
        "PUT /api/v1/users/{user_id}": "routes.py:102",
        "DELETE /api/v1/users/{user_id}": "routes.py:141",
    },
    (RELAY, "WebPan"): {  # main.py:18-21 prefixes; share_bp + storage_bp both in share.py
        "POST /api/v1/auth/login": "auth.py:78",
        "POST /api/v1/auth/register": "auth.py:44",
        "POST /api/v1/files/upload": "files.py:64",
        "POST /api/v1/files/upload-multiple": "files.py:92",
        "GET /api/v1/files/{file_id}/download": "files.py:125",
        "GET /api/v1/files/{file_id}/info": "files.py:154",
        "GET /api/v1/files": "files.py:172",
        "DELETE /api/v1/files/{file_id}": "files.py:220",
        "PUT /api/v1/files/{file_id}/rename": "files.py:240",
        "POST /api/v1/files/{file_id}/share": "files.py:260",
        "GET /api/v1/share/{share_id}": "share.py:12",
        "DELETE /api/v1/share/{share_id}": "share.py:41",
        "GET /api/v1/storage/quota": "share.py:51",
    },
    (RELAY, "django-rest-framework-crud"): {  # generic views, no router
        "POST /api/v1/auth/register/": "accounts/urls.py:7",
        "POST /api/v1/auth/token/": "accounts/urls.py:8",
        "POST /api/v1/auth/refresh/": "accounts/urls.py:9",
        "GET /api/v1/movies/": "movies/urls.py:5",  # ListCreateAPIView
        "POST /api/v1/movies/": "movies/urls.py:5",
        "GET /api/v1/movies/{id}/": "movies/urls.py:6",  # RetrieveUpdateDestroyAPIView
        "PUT /api/v1/movies/{id}/": "movies/urls.py:6",
        "DELETE /api/v1/movies/{id}/": "movies/urls.py:6",
    },
    (RELAY, "eve"): {  # plain Flask blueprint, no prefix
        "GET /people": "routes.py:22",
        "POST /people": "routes.py:35",
        "GET /people/{id}": "routes.py:52",
        "PUT /people/{id}": "routes.py:63",
        "DELETE /people/{id}": "routes.py:90",
    },
    (RELAY, "flask"): {
        "GET /health": "routes.py:7",
        "POST /echo": "routes.py:12",
        "GET /sum": "routes.py:25",
    },
    (RELAY, "synapse"): {  # FastAPI router included without prefix
        "GET /health": "routes.py:32",
        "POST /register": "routes.py:38",
        "POST /login": "routes.py:54",
        "POST /rooms/{room_id}/messages": "routes.py:63",
        "GET /rooms/{room_id}/messages": "routes.py:83",
    },
    # ------------------------------------------------------------------- dash (Java)
    (JAVA, "javalin-task-manager"): {
        "POST /users": f"{TASKMGR}:79",
        "POST /users/login": f"{TASKMGR}:80",
        "GET /projects": f"{TASKMGR}:83",
        "POST /projects": f"{TASKMGR}:84",
        "GET /projects/{id}": f"{TASKMGR}:85",
        "PUT /projects/{id}": f"{TASKMGR}:86",
        "DELETE /projects/{id}": f"{TASKMGR}:87",
        "GET /projects/{id}/tasks": f"{TASKMGR}:88",
        "POST /projects/{id}/tasks": f"{TASKMGR}:89",
        "GET /tasks/{id}": f"{TASKMGR}:91",
        "PUT /tasks/{id}": f"{TASKMGR}:92",
        "DELETE /tasks/{id}": f"{TASKMGR}:93",
        "POST /tasks/{id}/comments": f"{TASKMGR}:94",
        "GET /tasks/{id}/comments": f"{TASKMGR}:95",
        "GET /users/{id}/tasks": f"{TASKMGR}:81",
    },
    (JAVA, "spark-dashboard-backend"): {  # static Spark routes, ":id" params
        "POST /api/login": f"{DASHB}:58",
        "GET /api/dashboards": f"{DASHB}:60",
        "POST /api/dashboards": f"{DASHB}:67",
        "GET /api/dashboards/:id": f"{DASHB}:68",
        "PUT /api/dashboards/:id": f"{DASHB}:69",
        "DELETE /api/dashboards/:id": f"{DASHB}:70",
        "POST /api/dashboards/:id/widgets": f"{DASHB}:79",
        "PUT /api/widgets/:id": f"{DASHB}:80",
        "DELETE /api/widgets/:id": f"{DASHB}:81",
        "GET /api/datasources": f"{DASHB}:87",
        "POST /api/datasources": f"{DASHB}:90",
        "GET /api/datasets": f"{DASHB}:92",
        "POST /api/query": f"{DASHB}:96",
        "GET /api/users/me": f"{DASHB}:98",
        "PUT /api/users/me": f"{DASHB}:107",
    },
    (JAVA, "springboot-chat-gateway"): {  # class @RequestMapping("/api")
        "POST /api/users/register": f"{CHAT}:102",
        "POST /api/users/login": f"{CHAT}:129",
        "GET /api/users/{userId}/status": f"{CHAT}:149",
        "PUT /api/users/{userId}/status": f"{CHAT}:159",
        "POST /api/messages/send": f"{CHAT}:175",
        "GET /api/messages/history": f"{CHAT}:202",
        "POST /api/groups/create": f"{CHAT}:232",
        "POST /api/groups/{groupId}/join": f"{CHAT}:257",
        "POST /api/groups/{groupId}/leave": f"{CHAT}:279",
        "POST /api/groups/{groupId}/messages": f"{CHAT}:291",
        "GET /api/groups/{groupId}/members": f"{CHAT}:315",
        "GET /api/system/health": f"{CHAT}:336",
    },
}

# Hand-counted implemented / required per run.
HAND_TOTALS = {ATLAS: (46, 46), DASH: (46, 46), RELAY: (46, 46), JAVA: (42, 42)}


@pytest.fixture(scope="module")
def tasks():
    loaded, _ = load_tasks(ROOT / "tasks")
    return loaded


@pytest.fixture(scope="module")
def coverage(tasks):
    cache: dict[tuple[str, str], object] = {}

    def get(run: str, task: str):
        if (run, task) not in cache:
            t = tasks[task]
            cache[run, task] = compute_coverage(PRED / run / task, t.endpoints,
                                                t.required_endpoints)
        return cache[run, task]
    return get


def _key(method: str, path: str) -> str:
    return f"{method} {path}"


def test_hand_count_covers_every_required_endpoint(tasks):
    runs = {run for run, _ in HAND}
    for run in runs:
        on_disk = {p.name for p in (PRED / run).iterdir() if p.is_dir()}
        assert on_disk == {task for r, task in HAND if r == run}, run
    for (run, task), hand in HAND.items():
        required = [_key(e.method, e.path) for e in tasks[task].required_endpoints]
        assert sorted(required) == sorted(hand), (run, task)
        for where in hand.values():
            if where is not None:  # every hand-counted line exists in the repo
                rel, line = where.rsplit(":", 1)
                lines = (PRED / run / task / rel).read_text(encoding="utf-8").splitlines()
                assert 1 <= int(line) <= len(lines), (run, task, where)


def test_hand_totals():
    for run, (impl, req) in HAND_TOTALS.items():
        rows = [w for (r, _), hand in HAND.items() if r == run for w in hand.values()]
        assert (sum(w is not None for w in rows), len(rows)) == (impl, req), run


RUN_IDS = {ATLAS: "atlas", DASH: "dash", RELAY: "relay", JAVA: "java"}


@pytest.mark.parametrize(("run", "task"), sorted(HAND),
                         ids=[f"{RUN_IDS[r]}-{t}" for r, t in sorted(HAND)])
def test_strict_coverage_matches_hand_count(run, task, coverage):
    hand = HAND[run, task]
    cov = coverage(run, task)
    got = {_key(e.method, e.path): e for e in cov.endpoints}
    assert sorted(got) == sorted(hand)
    problems = []
    for key, where in hand.items():
        ep = got[key]
        lines = [f"{ev.file}:{ev.line}" for ev in ep.evidence]
        if ep.implemented != (where is not None):
            problems.append(f"{key}: hand {where}, inspector implemented={ep.implemented} "
                            f"evidence={lines} unresolved={ep.unresolved!r}")
        elif where is not None and where not in lines:
            problems.append(f"{key}: hand {where} not in inspector evidence {lines}")
        elif where is not None:
            allowed = {where, *EXTRA_EVIDENCE.get((run, task, key), ())}
            if extra := sorted(set(lines) - allowed):
                problems.append(f"{key}: unexpected evidence {extra} besides hand {where}")
        if bool(ep.unresolved) != ((run, task, key) in UNRESOLVED):
            problems.append(f"{key}: unresolved={ep.unresolved!r}, hand-judged "
                            f"{(run, task, key) in UNRESOLVED}")
    assert not problems, "\n".join(problems)


def test_per_run_strict_totals(coverage):
    for run, (impl, req) in HAND_TOTALS.items():
        covs = [coverage(r, t) for r, t in HAND if r == run]
        computed = sum(e.implemented for c in covs for e in c.endpoints)
        assert (computed, sum(len(c.endpoints) for c in covs)) == (impl, req), run
        assert sum(c.implemented_apis for c in covs) == impl, run
        assert sum(c.unresolved_apis for c in covs) == 0, run
        assert sum(c.spec_apis for c in covs) == req, run
