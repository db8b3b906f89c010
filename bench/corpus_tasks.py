"""Synthetic benchmark tasks for the bench corpus: README, golden test suite, test metadata.

A task is planned in two steps. :func:`plan_tasks` draws the skeleton (name, language, port,
framework hint, resources and endpoints, special roles) before the number of tests is known;
:func:`build_suite` then lays out a golden suite with exactly ``n_tests`` test functions and
records, for every test, the lines a failure traceback has to quote (so tracebacks in the
corpus point at real lines of the written test files).

READMEs follow the bundled tasks (``sample_runs/tasks/repo/*/README.md``): ``Port:`` and
``Framework:`` lines and an endpoint table, so :mod:`inspector.model.readme.reader` extracts exactly
the planned endpoints (the generator checks that).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

# ----------------------------------------------------------------------------- catalog

# singular plural domain fields action sub-resource
# fields: name:type with type str | int | float | bool | email | enum(a|b|c)
_RESOURCE_TABLE = """
item items inventory name:str quantity:int location:str reserve history
todo todos todo title:str priority:enum(low|medium|high) completed:bool complete -
note notes notebook title:str body:str pinned:bool pin revisions
book books library title:str author:str year:int borrow loans
member members club name:str email:email tier:enum(basic|gold|platinum) suspend payments
order orders shop customer:str total:float status:enum(new|paid|shipped) cancel events
product products catalog name:str price:float stock:int discontinue reviews
ticket tickets helpdesk subject:str severity:enum(low|high|critical) assignee:str close comments
expense expenses budget description:str amount:float category:str approve -
vehicle vehicles fleet plate:str model:str mileage:int retire trips
patient patients clinic name:str age:int ward:str discharge visits
event events calendar title:str venue:str capacity:int publish attendees
survey surveys feedback title:str question_count:int anonymous:bool close responses
shipment shipments logistics origin:str destination:str weight:float dispatch checkpoints
recipe recipes kitchen title:str servings:int cuisine:str favorite ingredients
playlist playlists music name:str owner:str public:bool share tracks
invoice invoices billing customer:str amount:float due_days:int pay lines
course courses school title:str credits:int level:enum(intro|advanced) enroll sessions
bug bugs tracker title:str severity:enum(minor|major|blocker) component:str resolve history
room rooms hotel number:str floor:int beds:int book bookings
pet pets shelter name:str species:str age:int adopt checkups
bike bikes rental frame:str size:enum(s|m|l) hourly_rate:float rent rentals
quote quotes board text:str author:str votes:int vote -
poll polls vote question:str multiple:bool closes_in:int close options
article articles news headline:str body:str section:str publish revisions
asset assets registry tag:str owner:str value:float transfer audits
job jobs scheduler name:str cron:str enabled:bool trigger runs
sensor sensors weather name:str unit:str interval:int calibrate readings
habit habits tracker name:str target_per_week:int active:bool check checkins
vendor vendors procurement name:str email:email rating:int approve contracts
auction auctions market title:str reserve_price:float minutes:int close bids
parcel parcels locker recipient:str locker:str size:enum(s|m|l) collect -
seed seeds garden variety:str packets:int organic:bool plant plantings
photo photos gallery title:str width:int height:int feature comments
station stations transit name:str line:str platforms:int close departures
badge badges loyalty name:str points:int active:bool award holders
contract contracts legal title:str party:str value:float sign amendments
shift shifts roster worker:str hours:int role:str swap -
reading readings meter meter_id:str value:float unit:str verify -
lesson lessons tutor topic:str minutes:int level:enum(beginner|expert) book -
""".strip()

_SUFFIXES = ("api", "service", "tracker", "board", "manager", "hub", "registry", "desk")
_JAVA_FRAMEWORKS = (("springboot", "Spring Boot"), ("springboot", "Spring Boot"),
                    ("javalin", "Javalin"))
_PY_FRAMEWORKS = (("fastapi", "FastAPI"), ("flask", "Flask"), ("fastapi", "FastAPI"),
                  ("flask", "Flask"), ("django", "Django"), ("any", "any"))
DEFECT_KINDS = ("wrong_port", "missing_fixture", "missing_module")


@dataclass(frozen=True)
class Field:
    """One field of a resource and the literals tests and docs use for it."""

    name: str
    type: str  # str | int | float | bool | email | enum
    choices: tuple[str, ...] = ()

    def py_value(self, variant: int = 0) -> str:
        """A valid Python literal (str fields use the suite's ``_unique`` helper)."""
        if self.type == "str":
            return f'_unique("{self.name}")'
        return _LITERALS[self.type](self, variant)

    def json_value(self, variant: int = 0) -> str:
        if self.type == "str":
            return f'"sample {self.name.replace("_", " ")}"'
        return _JSON_LITERALS[self.type](self, variant)

    def invalid(self) -> str:
        return {"int": '"three"', "float": '"cheap"', "bool": '"maybe"',
                "email": '"not-an-email"', "enum": '"bogus"', "str": "123"}[self.type]

    def java_type(self) -> str:
        return {"int": "int", "float": "double", "bool": "boolean"}.get(self.type, "String")

    def py_type(self) -> str:
        return {"int": "int", "float": "float", "bool": "bool"}.get(self.type, "str")


_LITERALS = {
    "int": lambda f, v: str(3 + 4 * v),
    "float": lambda f, v: f"{9.5 + 2.75 * v}",
    "bool": lambda f, v: "True" if v % 2 == 0 else "False",
    "email": lambda f, v: f'"user{v}@example.com"',
    "enum": lambda f, v: f'"{f.choices[v % len(f.choices)]}"',
}
_JSON_LITERALS = {
    "int": lambda f, v: str(3 + 4 * v),
    "float": lambda f, v: f"{9.5 + 2.75 * v}",
    "bool": lambda f, v: "true" if v % 2 == 0 else "false",
    "email": lambda f, v: f'"user{v}@example.com"',
    "enum": lambda f, v: f'"{f.choices[v % len(f.choices)]}"',
}


@dataclass(frozen=True)
class Resource:
    singular: str
    plural: str
    domain: str
    fields: tuple[Field, ...]
    action: str | None
    sub: str | None

    @property
    def cls(self) -> str:
        return "".join(p.capitalize() for p in self.singular.split("_"))

    @property
    def numeric(self) -> Field | None:
        return next((f for f in self.fields if f.type in ("int", "float", "enum")), None)


def _parse_resources() -> list[Resource]:
    out = []
    for row in _RESOURCE_TABLE.splitlines():
        parts = row.split()
        singular, plural, domain = parts[:3]
        action, sub = parts[-2], parts[-1]
        fields = []
        for spec in parts[3:-2]:
            name, typ = spec.split(":")
            m = re.fullmatch(r"enum\((.*)\)", typ)
            if m:
                fields.append(Field(name, "enum", tuple(m.group(1).split("|"))))
            else:
                fields.append(Field(name, typ))
        out.append(Resource(singular, plural, domain, tuple(fields),
                            None if action == "-" else action, None if sub == "-" else sub))
    return out


RESOURCES = _parse_resources()


@dataclass(frozen=True)
class EndpointSpec:
    """One README endpoint and what it does to which resource."""

    method: str
    path: str  # README form, e.g. /books/{id}/borrow
    role: str  # health | create | list | get | update | delete | action | sub | stats
    resource: Resource | None
    description: str

    @property
    def key(self) -> str:
        return f"{self.method}:{self.path}"


@dataclass
class TestSpec:
    """One golden test and the lines its failures quote."""

    id: str
    name: str
    file: str  # relative to the task root (tests/test_books.py)
    line: int  # 1-based line of the ``def`` (what the harness records)
    kind: str  # api | model | schema | defect
    template: str  # health | create | create_missing | create_invalid | list | ...
    endpoint: EndpointSpec | None = None
    expect: int = 200  # expected status code
    method: str = "GET"
    url_path: str = "/"  # concrete path requested, e.g. /books/17
    req_line: int = 0
    req_text: str = ""
    status_line: int = 0
    status_text: str = ""
    status_has_msg: bool = False
    body_line: int = 0
    body_text: str = ""
    body_key: str = ""
    helper_call_line: int = 0  # line of ``created = _create_x(base_url)`` (0: none)
    helper_call_text: str = ""
    helper_req_line: int = 0  # the request inside the helper (python)
    helper_req_text: str = ""
    helper_status_line: int = 0  # the status check inside the helper
    hardness: float = 0.5
    java_class: str = ""
    java_method: str = ""


@dataclass
class TaskPlan:
    """A task skeleton plus, once :func:`build_suite` ran, its suite."""

    index: int
    name: str
    title: str
    language: str
    framework: str  # extracted form, e.g. fastapi / springboot / any
    framework_display: str
    port: int
    resources: list[Resource]
    endpoints: list[EndpointSpec]
    difficulty: float
    defect: str | None = None  # one of DEFECT_KINDS: one test fails in every sample
    broken_suite: bool = False  # a test file fails to collect in every sample
    model_tests: int = 0  # white-box tests in tests/test_<x>_model.py (python)
    schema_tests: int = 0  # tests in the file that never collects (broken_suite)
    n_tests: int = 0
    tests: list[TestSpec] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)

    @property
    def coll_file(self) -> str | None:
        """The test file a collection-error sample loses (python only)."""
        if self.language != "python":
            return None
        r = self.resources[0]
        if self.broken_suite:
            return f"tests/test_{r.singular}_schema.py"
        return f"tests/test_{r.singular}_model.py"

    @property
    def coll_file_tests(self) -> int:
        return self.schema_tests if self.broken_suite else self.model_tests

    @property
    def defect_test(self) -> TestSpec | None:
        return next((t for t in self.tests if t.kind == "defect"), None)

    @property
    def package(self) -> str:
        return self.name.replace("-", "")


# ----------------------------------------------------------------------------- skeletons

def _endpoints_for(rng: random.Random, r: Resource, param: str) -> list[EndpointSpec]:
    base = f"/{r.plural}"
    item = f"{base}/{{{param}}}"
    a = "an" if r.singular[0] in "aeiou" else "a"
    eps = [EndpointSpec("POST", base, "create", r, f"Create {a} {r.singular}")]
    if rng.random() < 0.9:
        eps.append(EndpointSpec("GET", base, "list", r, f"List {r.plural}"))
    eps.append(EndpointSpec("GET", item, "get", r, f"Get one {r.singular}"))
    if rng.random() < 0.7:
        method = rng.choice(("PUT", "PATCH"))
        eps.append(EndpointSpec(method, item, "update", r,
                                f"{'Replace' if method == 'PUT' else 'Partially update'} "
                                f"{a} {r.singular}"))
    if rng.random() < 0.7:
        eps.append(EndpointSpec("DELETE", item, "delete", r, f"Delete {a} {r.singular}"))
    if r.action and rng.random() < 0.45:
        eps.append(EndpointSpec("POST", f"{item}/{r.action}", "action", r,
                                f"{r.action.capitalize()} {a} {r.singular}"))
    if r.sub and rng.random() < 0.3:
        eps.append(EndpointSpec("GET", f"{item}/{r.sub}", "sub", r,
                                f"List the {r.sub} of {a} {r.singular}"))
    return eps


def plan_tasks(rng: random.Random, n_tasks: int, n_java: int, n_defect: int) -> list[TaskPlan]:
    """``n_tasks`` task skeletons; the last ``n_java`` are Java tasks. Among the Python ones,
    ``n_defect`` carry a broken golden test and one more has a test file that never collects."""
    used: set[str] = set()
    plans: list[TaskPlan] = []
    pool = list(RESOURCES)
    for i in range(n_tasks):
        java = i >= n_tasks - n_java
        primary = pool[i % len(pool)] if i < len(pool) else rng.choice(pool)
        name = ""
        for _ in range(100):
            name = f"{primary.domain}-{rng.choice(_SUFFIXES)}"
            if name not in used:
                break
        n = 2
        while name in used:
            name = f"{primary.domain}-{rng.choice(_SUFFIXES)}-{n}"
            n += 1
        used.add(name)
        others = [r for r in pool if r is not primary]
        extra = rng.choices((0, 1, 2), weights=(5, 4, 1))[0]
        resources = [primary, *rng.sample(others, extra)]
        seen_plurals: set[str] = set()
        resources = [r for r in resources
                     if not (r.plural in seen_plurals or seen_plurals.add(r.plural))]
        endpoints = [EndpointSpec("GET", "/health", "health", None, "Liveness check")]
        for r in resources:
            param = "id" if rng.random() < 0.8 else f"{r.singular}_id"
            endpoints += _endpoints_for(rng, r, param)
        if rng.random() < 0.15:
            endpoints.append(EndpointSpec("GET", "/stats", "stats", None, "Counts per resource"))
        fw, fw_display = rng.choice(_JAVA_FRAMEWORKS if java else _PY_FRAMEWORKS)
        title = " ".join("API" if w == "api" else w.capitalize()
                         for w in name.split("-") if not w.isdigit())
        plans.append(TaskPlan(
            index=i, name=name, title=title, language="java" if java else "python",
            framework=fw, framework_display=fw_display, port=18000 + i,
            resources=resources, endpoints=endpoints,
            difficulty=rng.uniform(0.1, 0.85),
            model_tests=0 if java else rng.randint(2, 4),
        ))
    py = [p for p in plans if p.language == "python"]
    special = rng.sample(py, min(len(py), n_defect + 1))
    for k, p in enumerate(special[:n_defect]):
        p.defect = DEFECT_KINDS[k % len(DEFECT_KINDS)]
    if len(special) > n_defect:
        broken = special[n_defect]
        broken.broken_suite = True
        broken.schema_tests = rng.randint(3, 5)
    return plans


def min_tests(t: TaskPlan, floor: int = 10) -> int:
    """Fewest tests a suite may have: every endpoint mostly covered, plus the side files."""
    side = t.model_tests + t.schema_tests + (1 if t.defect else 0)
    return min(45, max(floor, side + (len(t.endpoints) * 3 + 4) // 5))


# ----------------------------------------------------------------------------- README

def _wrap(text: str, width: int = 78) -> str:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return "\n".join(lines)


def render_readme(t: TaskPlan) -> str:
    r0 = t.resources[0]
    names = ", ".join(r.plural for r in t.resources)
    intro = (f"A REST service for the {r0.domain} team: it keeps {names} in memory and lets "
             f"clients create, list, read, change and remove them over HTTP. Every response "
             f"body is JSON. Keeping data in memory is fine; no persistence is required.")
    if t.language == "java":
        run = (f"The service must be started by `bash start.sh` from the repository root and "
               f"listen on `127.0.0.1:{t.port}`. Build it with Maven (`pom.xml`, Java 17).")
    else:
        run = (f"The service must be started by `bash start.sh` from the repository root and "
               f"listen on `127.0.0.1:{t.port}`. Dependencies go in `requirements.txt`.")
    out = [f"# {t.title}", "", _wrap(intro), "", f"Port: {t.port}",
           f"Framework: {t.framework_display}", "", _wrap(run), "", "## Endpoints", "",
           "| Method | Path | Description |", "| ------ | ---- | ----------- |"]
    out += [f"| {e.method} | {e.path} | {e.description} |" for e in t.endpoints]
    out += ["", "## Schemas", "", "`GET /health` returns:", "", "```json",
            '{"status": "ok"}', "```", ""]
    for r in t.resources:
        req = r.fields[0]
        body = ", ".join(f'"{f.name}": {f.json_value()}' for f in r.fields)
        out += [_wrap(f"`POST /{r.plural}` request (`{req.name}` required, non-empty; the other "
                      f"fields are optional):"), "", "```json", "{" + body + "}", "```", ""]
        out += [_wrap(f"A {r.singular}, as returned by create (status `201`), by get and inside "
                      f"the list:"), "", "```json", '{"id": 1, ' + body + "}", "```", ""]
        enums = [f for f in r.fields if f.type == "enum"]
        for f in enums:
            out += [_wrap(f"`{f.name}` is one of " + ", ".join(f'`"{c}"`' for c in f.choices)
                          + f" and defaults to `\"{f.choices[0]}\"`."), ""]
    out += ["## Errors", "", "| Status | When | Body |", "| ------ | ---- | ---- |",
            '| 400 | Missing or invalid field on create or update | `{"error": "<message>"}` |',
            '| 404 | No object with that id | `{"error": "<message>"}` |', ""]
    return "\n".join(out)


# ----------------------------------------------------------------------------- suites

_VARIANTS = ("twice", "with_unicode", "with_extra_fields", "after_update", "is_json",
             "idempotent", "large_payload", "whitespace", "boundary", "repeated", "fresh_store",
             "ordering", "trailing_data", "mixed_case", "second_client", "after_restart_safe")

# templates per endpoint role, primary first
_ROLE_TEMPLATES = {
    "health": ("health",),
    "create": ("create", "create_missing", "create_invalid"),
    "list": ("list", "list_contains"),
    "get": ("get", "get_unknown"),
    "update": ("update", "update_unknown", "update_invalid"),
    "delete": ("delete", "delete_then_get", "delete_unknown"),
    "action": ("action", "action_unknown"),
    "sub": ("sub", "sub_unknown"),
    "stats": ("stats",),
}


def _test_name(tpl: str, ep: EndpointSpec) -> str:
    r = ep.resource
    s = r.singular if r else ""
    p = r.plural if r else ""
    first = r.fields[0].name if r else ""
    return {
        "health": "health", "stats": "stats_counts",
        "create": f"create_{s}", "create_missing": f"create_{s}_missing_{first}_is_400",
        "create_invalid": f"create_{s}_invalid_is_400",
        "list": f"list_{p}", "list_contains": f"list_contains_created_{s}",
        "get": f"get_{s}", "get_unknown": f"get_unknown_{s}_is_404",
        "update": f"update_{s}", "update_unknown": f"update_unknown_{s}_is_404",
        "update_invalid": f"update_{s}_invalid_is_400",
        "delete": f"delete_{s}", "delete_then_get": f"get_deleted_{s}_is_404",
        "delete_unknown": f"delete_unknown_{s}_is_404",
        "action": f"{r.action if r else ''}_{s}",
        "action_unknown": f"{r.action if r else ''}_unknown_{s}_is_404",
        "sub": f"{r.sub if r else ''}_of_{s}",
        "sub_unknown": f"{r.sub if r else ''}_of_unknown_{s}_is_404",
    }[tpl]


def _select_templates(rng: random.Random, t: TaskPlan, n_api: int
                      ) -> list[tuple[EndpointSpec, str, str]]:
    """(endpoint, template, test name) for ``n_api`` black-box tests, in suite order."""
    primary = [(e, _ROLE_TEMPLATES[e.role][0]) for e in t.endpoints]
    secondary = [(e, tpl) for e in t.endpoints for tpl in _ROLE_TEMPLATES[e.role][1:]]
    chosen = primary[:n_api]
    rng.shuffle(secondary)
    chosen += secondary[:max(0, n_api - len(chosen))]
    used: set[str] = set()

    def unique(name: str) -> str:
        n, out_name = 2, name
        while out_name in used:
            out_name, n = f"{name}_{n}", n + 1
        used.add(out_name)
        return out_name

    out = [(e, tpl, unique(_test_name(tpl, e))) for e, tpl in chosen]
    base = [x for x in primary + secondary if x[1] not in ("health", "stats")] or primary
    k = 0
    while len(out) < n_api:
        e, tpl = base[k % len(base)]
        variant = _VARIANTS[(k // len(base)) % len(_VARIANTS)]
        out.append((e, tpl, unique(f"{_test_name(tpl, e)}_{variant}")))
        k += 1
    order = {e.key: i for i, e in enumerate(t.endpoints)}
    out.sort(key=lambda x: order[x[0].key])
    return out


class SourceFile:
    """Lines of a file being written, with 1-based line numbers."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, *lines: str) -> int:
        """Append lines; returns the number of the first one."""
        first = len(self.lines) + 1
        self.lines.extend(lines)
        return first

    @property
    def next(self) -> int:
        return len(self.lines) + 1

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _payload(r: Resource, variant: int = 0, skip: str | None = None) -> str:
    return "{" + ", ".join(f'"{f.name}": {f.py_value(variant)}' for f in r.fields
                           if f.name != skip) + "}"


def _py_api_test(f: SourceFile, spec: TestSpec, e: EndpointSpec, tpl: str, variant: int) -> None:
    """Write one black-box test function and fill in the spec's line references."""
    r = e.resource
    spec.line = f.add(f"def test_{spec.name}(base_url):")
    helper = f"_create_{r.singular}" if r else ""
    coll = f"/{r.plural}" if r else ""
    item_expr = f"{coll}/{{created['id']}}"

    def helper_call() -> None:
        text = f"created = {helper}(base_url)"
        spec.helper_call_line, spec.helper_call_text = f.add("    " + text), text

    def request(method: str, path_expr: str, url_path: str, body: str | None = None) -> None:
        js = f", json={body}" if body else ""
        text = f'resp = requests.{method.lower()}(f"{{base_url}}{path_expr}"{js}, timeout=TIMEOUT)'
        spec.req_line, spec.req_text = f.add("    " + text), text
        spec.method, spec.url_path = method, url_path

    def status(code: int, msg: bool = False) -> None:
        text = f"assert resp.status_code == {code}" + (", resp.text" if msg else "")
        spec.status_line, spec.status_text = f.add("    " + text), text
        spec.expect, spec.status_has_msg = code, msg

    def body(text: str, key: str) -> None:
        spec.body_line, spec.body_text, spec.body_key = f.add("    " + text), text, key

    num = r.numeric if r else None
    item_path = f"{coll}/1"
    if tpl == "health":
        request("GET", "/health", "/health")
        status(200)
        body('assert resp.json() == {"status": "ok"}', "status")
    elif tpl == "stats":
        request("GET", "/stats", "/stats")
        status(200)
        body('assert "count" in resp.json()', "count")
    elif tpl == "create":
        f.add(f"    payload = {_payload(r, variant)}")
        request("POST", coll, coll, "payload")
        status(201, msg=True)
        f.add("    body = resp.json()")
        body('assert isinstance(body["id"], int)', "id")
        first = r.fields[0].name
        f.add(f'    assert body["{first}"] == payload["{first}"]')
    elif tpl in ("create_missing", "create_invalid"):
        if tpl == "create_missing":
            payload = _payload(r, variant, skip=r.fields[0].name)
        else:
            bad = num or r.fields[-1]
            payload = "{" + f'"{r.fields[0].name}": {r.fields[0].py_value(variant)}, ' \
                f'"{bad.name}": {bad.invalid()}' + "}"
        request("POST", coll, coll, payload)
        status(400)
        body('assert "error" in resp.json()', "error")
    elif tpl in ("list", "list_contains"):
        helper_call()
        request("GET", coll, coll)
        status(200)
        if tpl == "list":
            body("assert isinstance(resp.json(), list)", "")
        else:
            f.add('    ids = [obj["id"] for obj in resp.json()]')
            body('assert created["id"] in ids', "id")
    elif tpl == "get":
        helper_call()
        request("GET", item_expr, item_path)
        status(200)
        first = r.fields[0].name
        body(f'assert resp.json()["{first}"] == created["{first}"]', first)
    elif tpl in ("get_unknown", "update_unknown", "delete_unknown", "action_unknown",
                 "sub_unknown"):
        unknown = f"{coll}/999999"
        method = {"get_unknown": "GET", "update_unknown": e.method, "delete_unknown": "DELETE",
                  "action_unknown": "POST", "sub_unknown": "GET"}[tpl]
        suffix = e.path.rsplit("}", 1)[-1] if tpl in ("action_unknown", "sub_unknown") else ""
        payload = None
        if tpl == "update_unknown":
            payload = "{" + f'"{r.fields[0].name}": {r.fields[0].py_value(variant)}' + "}"
        request(method, unknown + suffix, unknown + suffix, payload)
        status(404)
        body('assert "error" in resp.json()', "error")
    elif tpl in ("update", "update_invalid"):
        helper_call()
        fld = num or r.fields[0]
        value = fld.invalid() if tpl == "update_invalid" else fld.py_value(variant + 1)
        if tpl == "update" and fld.type == "str":
            value = '"changed"'
        request(e.method, item_expr, item_path, "{" + f'"{fld.name}": {value}' + "}")
        if tpl == "update":
            status(200)
            body(f'assert resp.json()["{fld.name}"] == {value}', fld.name)
        else:
            status(400)
            body('assert "error" in resp.json()', "error")
    elif tpl == "delete":
        helper_call()
        request("DELETE", item_expr, item_path)
        status(204)
    elif tpl == "delete_then_get":
        helper_call()
        f.add(f'    requests.delete(f"{{base_url}}{item_expr}", timeout=TIMEOUT)')
        request("GET", item_expr, item_path)
        status(404)
    elif tpl in ("action", "sub"):
        helper_call()
        suffix = e.path.rsplit("}", 1)[-1]
        request(e.method, item_expr + suffix, item_path + suffix)
        status(200)
        if tpl == "action":
            body('assert resp.json()["id"] == created["id"]', "id")
        else:
            body("assert isinstance(resp.json(), list)", "")
    else:  # pragma: no cover - every template is handled above
        raise ValueError(tpl)
    f.add("", "")


def _py_defect_test(f: SourceFile, spec: TestSpec, t: TaskPlan) -> None:
    r = t.resources[0]
    if t.defect == "wrong_port":
        spec.line = f.add(f"def test_{spec.name}(base_url):")
        text = 'resp = requests.get("http://127.0.0.1:8080/health", timeout=TIMEOUT)'
        spec.req_line, spec.req_text = f.add("    " + text), text
        spec.method, spec.url_path = "GET", "/health"
        spec.status_line = f.add("    assert resp.status_code == 200")
        spec.status_text = "assert resp.status_code == 200"
    elif t.defect == "missing_fixture":
        spec.line = f.add(f"def test_{spec.name}(base_url, admin_token):")
        f.add(f"    created = _create_{r.singular}(base_url)",
              "    headers = {\"Authorization\": f\"Bearer {admin_token}\"}")
        text = (f'resp = requests.delete(f"{{base_url}}/{r.plural}/{{created[\'id\']}}", '
                f"headers=headers, timeout=TIMEOUT)")
        spec.req_line, spec.req_text = f.add("    " + text), text
        spec.method, spec.url_path = "DELETE", f"/{r.plural}/1"
        spec.status_line = f.add("    assert resp.status_code in (204, 404)")
        spec.status_text = "assert resp.status_code in (204, 404)"
    else:  # missing_module
        spec.line = f.add(f"def test_{spec.name}(base_url):")
        text = "import jwt"
        spec.req_line, spec.req_text = f.add("    " + text), text
        f.add('    token = jwt.encode({"sub": "tester"}, "secret", algorithm="HS256")')
        spec.status_line = f.add(
            f'    resp = requests.get(f"{{base_url}}/{r.plural}", '
            'headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)')
        spec.status_text = "resp"
        f.add("    assert resp.status_code == 200")
        spec.method, spec.url_path = "GET", f"/{r.plural}"
    f.add("", "")


_DEFECT_NAMES = {"wrong_port": "health_on_documented_port",
                 "missing_fixture": "delete_requires_admin_token",
                 "missing_module": "list_with_bearer_token"}


def build_suite(rng: random.Random, t: TaskPlan, n_tests: int) -> None:
    """Lay out the golden suite with exactly ``n_tests`` tests; fills ``t.tests``/``t.files``."""
    t.n_tests = n_tests
    if t.language == "java":
        _build_java_suite(rng, t, n_tests)
        return
    n_side = t.model_tests + t.schema_tests + (1 if t.defect else 0)
    n_api = n_tests - n_side
    if n_api < 1:
        raise ValueError(f"{t.name}: {n_tests} tests are too few")
    chosen = _select_templates(rng, t, n_api)
    by_res: dict[str, list[tuple[EndpointSpec, str, str]]] = {}
    for e, tpl, name in chosen:
        r = e.resource or t.resources[0]
        by_res.setdefault(r.plural, []).append((e, tpl, name))
    files: dict[str, str] = {
        "tests/conftest.py": (
            "import os\n\nimport pytest\n\n\n@pytest.fixture\ndef base_url():\n"
            f'    return os.environ.get("API_BASE_URL", "http://127.0.0.1:{t.port}")'
            '.rstrip("/")\n'),
        "tests/requirements.txt": "requests>=2.31\n",
    }
    tests: list[TestSpec] = []
    for k, r in enumerate(t.resources):
        group = by_res.get(r.plural, [])
        if not group and not (k == 0 and t.defect):
            continue
        rel = f"tests/test_{r.plural}.py"
        f = SourceFile()
        f.add(f'"""Black-box tests for the /{r.plural} endpoints of the {t.title} service."""',
              "import uuid", "", "import requests", "", "TIMEOUT = 5", "", "",
              "def _unique(prefix):", '    return f"{prefix}-{uuid.uuid4().hex[:8]}"', "", "",
              f"def _create_{r.singular}(base_url, **fields):",
              f"    payload = {_payload(r)}", "    payload.update(fields)")
        helper_req = (f'resp = requests.post(f"{{base_url}}/{r.plural}", json=payload, '
                      "timeout=TIMEOUT)")
        h_req_line = f.add("    " + helper_req)
        h_status = "assert resp.status_code == 201, resp.text"
        h_status_line = f.add("    " + h_status)
        f.add("    return resp.json()", "", "")
        for v, (e, tpl, name) in enumerate(group):
            spec = TestSpec(id="", name=name, file=rel, line=0, kind="api", template=tpl,
                            endpoint=e, hardness=rng.betavariate(2, 3))
            _py_api_test(f, spec, e, tpl, v % 3)
            spec.id = f"{rel}::test_{name}"
            spec.helper_req_line, spec.helper_status_line = h_req_line, h_status_line
            spec.helper_req_text = helper_req
            tests.append(spec)
        if k == 0 and t.defect:
            name = _DEFECT_NAMES[t.defect]
            spec = TestSpec(id=f"{rel}::test_{name}", name=name, file=rel, line=0,
                            kind="defect", template="defect",
                            helper_req_line=h_req_line, helper_status_line=h_status_line,
                            helper_req_text=helper_req)
            _py_defect_test(f, spec, t)
            tests.append(spec)
        files[rel] = f.text().rstrip("\n") + "\n"
    r0 = t.resources[0]
    if t.model_tests:
        rel = f"tests/test_{r0.singular}_model.py"
        f = SourceFile()
        f.add(f'"""White-box tests: the {r0.cls} model of the generated repo."""',
              f"from models import {r0.cls}", "", "")
        for j in range(t.model_tests):
            name = ("model_to_dict", "model_defaults", "model_equality", "model_roundtrip")[j]
            name = f"{r0.singular}_{name}"
            spec = TestSpec(id=f"{rel}::test_{name}", name=name, file=rel, line=0,
                            kind="model", template="model")
            spec.line = f.add(f"def test_{name}():")
            args = ", ".join(f'"{fl.name}": {fl.py_value(j).replace("_unique(", "str(")}'
                             for fl in r0.fields)
            text = f'obj = {r0.cls}.from_dict({{"id": {j + 1}, {args}}})'
            spec.req_line, spec.req_text = f.add("    " + text), text
            text = f'assert obj.to_dict()["id"] == {j + 1}'
            spec.status_line, spec.status_text = f.add("    " + text), text
            f.add("", "")
            tests.append(spec)
        files[rel] = f.text().rstrip("\n") + "\n"
    if t.schema_tests:
        rel = f"tests/test_{r0.singular}_schema.py"
        f = SourceFile()
        f.add(f'"""Responses of /{r0.plural} validate against the published JSON Schema."""',
              "import jsonschema", "import requests", "", "TIMEOUT = 5",
              f'SCHEMA = {{"type": "object", "required": ["id", "{r0.fields[0].name}"]}}', "", "")
        for j in range(t.schema_tests):
            name = f"{r0.singular}_schema_{('create', 'list', 'get', 'update', 'error')[j]}"
            spec = TestSpec(id=f"{rel}::test_{name}", name=name, file=rel, line=0,
                            kind="schema", template="schema")
            spec.line = f.add(f"def test_{name}(base_url):")
            f.add(f'    resp = requests.get(f"{{base_url}}/{r0.plural}", timeout=TIMEOUT)',
                  "    for obj in resp.json():", "        jsonschema.validate(obj, SCHEMA)", "", "")
            tests.append(spec)
        files[rel] = f.text().rstrip("\n") + "\n"
    tests.sort(key=lambda s: (s.file, s.line))
    t.tests = tests
    t.files = files
    if len(tests) != n_tests:  # pragma: no cover - layout bug
        raise AssertionError(f"{t.name}: laid out {len(tests)} tests, wanted {n_tests}")


def _camel(name: str) -> str:
    parts = name.split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def _build_java_suite(rng: random.Random, t: TaskPlan, n_tests: int) -> None:
    chosen = _select_templates(rng, t, n_tests)
    pkg = t.package
    by_res: dict[str, list[tuple[EndpointSpec, str, str]]] = {}
    for e, tpl, name in chosen:
        r = e.resource or t.resources[0]
        by_res.setdefault(r.plural, []).append((e, tpl, name))
    files: dict[str, str] = {"pom.xml": _test_pom(t)}
    tests: list[TestSpec] = []
    for r in t.resources:
        group = by_res.get(r.plural, [])
        if not group:
            continue
        cls = f"{r.cls}ApiTest"
        rel = f"src/test/java/com/example/{pkg}/{cls}.java"
        f = SourceFile()
        f.add(f"package com.example.{pkg};", "",
              "import static io.restassured.RestAssured.given;",
              "import static org.hamcrest.Matchers.notNullValue;", "",
              "import io.restassured.RestAssured;", "import io.restassured.http.ContentType;",
              "import java.util.Map;", "import org.junit.jupiter.api.BeforeAll;",
              "import org.junit.jupiter.api.Test;", "", f"class {cls} {{", "",
              "    @BeforeAll", "    static void configure() {",
              "        RestAssured.baseURI = System.getenv().getOrDefault(",
              f'            "API_BASE_URL", "http://127.0.0.1:{t.port}");', "    }", "")
        body = ", ".join(f'"{fl.name}", {_java_value(fl)}' for fl in r.fields)
        f.add(f"    private static int create{r.cls}() {{",
              "        return given().contentType(ContentType.JSON)",
              f"            .body(Map.of({body}))", f'            .when().post("/{r.plural}")')
        h_line = f.add("            .then().statusCode(201)")
        f.add('            .extract().path("id");', "    }", "")
        for e, tpl, name in group:
            method = _camel(name)
            spec = TestSpec(id=f"{rel}::{cls}::{method}", name=name, file=rel, line=0,
                            kind="api", template=tpl, endpoint=e, java_class=cls,
                            java_method=method, hardness=rng.betavariate(2, 3),
                            helper_status_line=h_line)
            f.add("    @Test")
            spec.line = f.add(f"    void {method}() {{")
            uses_helper = tpl not in ("health", "stats", "create", "create_missing",
                                      "create_invalid") and not tpl.endswith("_unknown")
            if uses_helper:
                spec.helper_call_text = f"int id = create{r.cls}();"
                spec.helper_call_line = f.add("        " + spec.helper_call_text)
            expect = {"create": 201, "create_missing": 400, "create_invalid": 400,
                      "delete": 204, "delete_then_get": 404}.get(tpl, 200)
            if tpl.endswith("_unknown"):
                expect = 404
            if tpl == "update_invalid":
                expect = 400
            verb = {"GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch",
                    "DELETE": "delete"}
            path = e.path.replace("{id}", "{0}").replace(
                f"{{{r.singular}_id}}", "{0}") if e.path != "/health" else "/health"
            method_name = e.method
            if tpl == "delete_then_get":
                method_name = "GET"
            url = path.replace("{0}", "999999" if tpl.endswith("_unknown") else "1")
            call = (f'.when().{verb[method_name]}("{path}"' +
                    (", id)" if "{0}" in path and uses_helper else ")"))
            if "{0}" in path and not uses_helper:
                call = f'.when().{verb[method_name]}("{url}")'
            f.add("        given().contentType(ContentType.JSON)")
            spec.req_line = f.add(f"            {call}")
            spec.req_text = call
            spec.status_line = f.add(f"            .then().statusCode({expect});")
            spec.status_text = f".then().statusCode({expect});"
            spec.expect, spec.method, spec.url_path = expect, method_name, url
            f.add("    }", "")
            tests.append(spec)
        f.add("}")
        files[rel] = f.text()
    tests.sort(key=lambda s: (s.file, s.line))
    t.tests = tests
    t.files = files


def _java_value(f: Field) -> str:
    if f.type in ("int", "float"):
        return "3" if f.type == "int" else "9.5"
    if f.type == "bool":
        return "true"
    if f.type == "enum":
        return f'"{f.choices[0]}"'
    return f'"sample {f.name}"'


def _test_pom(t: TaskPlan) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>{t.name}-tests</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>io.rest-assured</groupId>
      <artifactId>rest-assured</artifactId>
      <version>5.4.0</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"""


def write_task(root: Path, t: TaskPlan) -> int:
    """Write ``<root>/repo/<task>/``; returns the number of files written."""
    base = root / "repo" / t.name
    files = {"README.md": render_readme(t), **t.files}
    for rel, text in files.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return len(files)
