"""Generated repositories for the bench corpus: small but realistic Flask, FastAPI, Spring Boot
and Javalin services implementing (most of) a task's endpoints.

One *base* repo is written per (run, task); samples whose deployment fails because of the code
point at a *variant* of it (``<task>--<variant>``: a bad pin in ``requirements.txt``, an import
between the repo's own modules that does not resolve, a server that ignores ``PORT``, …), so the
repo a sample points at is consistent with its logs. API coverage and digests are computed on the
written files with the real :mod:`inspector.services` functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from corpus_tasks import EndpointSpec, Field, Resource, SourceFile, TaskPlan

PY_REQUIREMENTS = {
    "flask": ["flask==3.0.3"],
    "fastapi": ["fastapi==0.110.0", "uvicorn==0.29.0", "pydantic==2.7.1"],
}


@dataclass
class RepoTraits:
    """Per (run, task) properties of the generated code that decide deterministic failures."""

    impl: str  # flask | fastapi | spring | javalin
    missing: frozenset[str] = frozenset()  # endpoint keys not implemented
    prefix: str = ""  # router prefix the README does not ask for ("/api/v1")
    conforming: bool = True  # fastapi: 400 for validation errors, {"error": …} bodies
    model_mismatch: bool = False  # the model class lacks to_dict (white-box tests fail)
    html_404: bool = False  # flask: no JSON 404 handler
    route_style: str = "verb"  # flask: @bp.post vs @bp.route(..., methods=[...])

    @property
    def pass_eligible(self) -> bool:
        return not (self.missing or self.prefix or not self.conforming or self.model_mismatch)


@dataclass
class Repo:
    """Files of one generated repo plus where its handlers' bodies are."""

    files: dict[str, str]
    handler_lines: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    entry: str = "start.sh"
    server_port: int | None = None  # the port the server really binds (None: the task's)
    requirements: list[str] = field(default_factory=list)
    bad_requirement: str = ""
    broken_module: str = ""


def handler_name(e: EndpointSpec) -> str:
    r = e.resource
    assert r is not None
    return {
        "create": f"create_{r.singular}", "list": f"list_{r.plural}", "get": f"get_{r.singular}",
        "update": f"update_{r.singular}", "delete": f"delete_{r.singular}",
        "action": f"{r.action}_{r.singular}", "sub": f"{r.sub}_of_{r.singular}",
    }[e.role]


# ----------------------------------------------------------------------------- python models

def _py_models(t: TaskPlan, tr: RepoTraits) -> str:
    f = SourceFile()
    f.add(f'"""Domain model and in-memory storage for the {t.title} service."""',
          "from __future__ import annotations", "", "import threading",
          "from dataclasses import asdict, dataclass, field",
          "from datetime import datetime, timezone")
    if tr.impl == "fastapi":
        f.add("", "from pydantic import BaseModel, Field")
    f.add("", "", "class ValidationError(ValueError):",
          '    """Raised when a request body does not describe a valid object."""', "", "",
          "def _now() -> str:", "    return datetime.now(timezone.utc).isoformat()", "", "")
    for r in t.resources:
        _py_model_class(f, r, tr)
        if tr.impl == "fastapi":
            _py_pydantic(f, r)
        _py_store(f, r)
    return f.text().rstrip("\n") + "\n"


def _default(fl: Field) -> str:
    return {"int": "0", "float": "0.0", "bool": "False"}.get(
        fl.type, f'"{fl.choices[0]}"' if fl.type == "enum" else '""')


def _py_model_class(f: SourceFile, r: Resource, tr: RepoTraits) -> None:
    f.add("@dataclass", f"class {r.cls}:", f'    """One {r.singular}."""', "", "    id: int")
    for fl in r.fields:
        f.add(f"    {fl.name}: {fl.py_type()} = {_default(fl)}")
    f.add("    created_at: str = field(default_factory=_now)",
          "    history: list[dict] = field(default_factory=list)", "")
    f.add("    def to_dict(self) -> dict:", "        data = asdict(self)",
          '        data.pop("history", None)', "        return data", "")
    if not tr.model_mismatch:
        f.add("    @classmethod", f"    def from_dict(cls, data: dict) -> {r.cls}:",
              "        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}",
              "        return cls(**known)", "")
    f.add("")


def _py_pydantic(f: SourceFile, r: Resource) -> None:
    first = r.fields[0]
    f.add(f"class {r.cls}In(BaseModel):")
    for fl in r.fields:
        if fl is first and fl.type == "str":
            f.add(f"    {fl.name}: str = Field(min_length=1)")
        else:
            f.add(f"    {fl.name}: {fl.py_type()} = {_default(fl)}")
    f.add("", "", f"class {r.cls}Patch(BaseModel):")
    for fl in r.fields:
        f.add(f"    {fl.name}: {fl.py_type()} | None = None")
    f.add("", "")


def _py_store(f: SourceFile, r: Resource) -> None:
    c = r.cls
    f.add(f"class {c}Store:", f'    """Thread-safe in-memory storage of {r.plural}."""', "",
          "    def __init__(self) -> None:", f"        self._items: dict[int, {c}] = {{}}",
          "        self._next_id = 1", "        self._lock = threading.Lock()", "",
          "    def _validate(self, data: dict, partial: bool = False) -> dict:",
          "        clean = {}")
    first = r.fields[0]
    f.add(f'        if not partial and not str(data.get("{first.name}", "")).strip():',
          f'            raise ValidationError("{first.name} is required")')
    for fl in r.fields:
        f.add(f'        if "{fl.name}" in data:', f'            value = data["{fl.name}"]')
        if fl.type in ("int", "float"):
            f.add("            if isinstance(value, bool) or not isinstance(value, (int, float)):",
                  f'                raise ValidationError("{fl.name} must be a number")')
        elif fl.type == "bool":
            f.add("            if not isinstance(value, bool):",
                  f'                raise ValidationError("{fl.name} must be a boolean")')
        elif fl.type == "enum":
            f.add(f"            if value not in {fl.choices!r}:",
                  f'                raise ValidationError("{fl.name} must be one of '
                  f'{", ".join(fl.choices)}")')
        elif fl.type == "email":
            f.add('            if not isinstance(value, str) or "@" not in value:',
                  f'                raise ValidationError("{fl.name} must be an email address")')
        else:
            f.add("            if not isinstance(value, str):",
                  f'                raise ValidationError("{fl.name} must be a string")')
        f.add(f'            clean["{fl.name}"] = value')
    f.add("        return clean", "",
          f"    def create(self, data: dict) -> {c}:", "        clean = self._validate(data)",
          "        with self._lock:", f"            obj = {c}(id=self._next_id, **clean)",
          "            self._items[obj.id] = obj", "            self._next_id += 1",
          "        return obj", "",
          f"    def get(self, obj_id: int) -> {c} | None:",
          "        return self._items.get(obj_id)",
          "", f"    def list(self) -> list[{c}]:",
          "        return sorted(self._items.values(), key=lambda o: o.id)", "",
          f"    def update(self, obj_id: int, data: dict, partial: bool = True) -> {c} | None:",
          "        clean = self._validate(data, partial=partial)", "        with self._lock:",
          "            obj = self._items.get(obj_id)", "            if obj is None:",
          "                return None", "            for key, value in clean.items():",
          "                setattr(obj, key, value)",
          '            obj.history.append({"at": _now(), "changed": sorted(clean)})',
          "        return obj", "", "    def delete(self, obj_id: int) -> bool:",
          "        with self._lock:",
          "            return self._items.pop(obj_id, None) is not None",
          "", "    def mark(self, obj_id: int, event: str) -> None:",
          "        obj = self._items.get(obj_id)", "        if obj is not None:",
          '            obj.history.append({"at": _now(), "event": event})', "",
          "    def history(self, obj_id: int) -> list[dict]:",
          "        obj = self._items.get(obj_id)",
          "        return list(obj.history) if obj else []",
          "", "")


# ----------------------------------------------------------------------------- flask

def _flask_routes(t: TaskPlan, tr: RepoTraits, repo: Repo) -> str:
    f = SourceFile()
    classes = ", ".join(sorted({f"{r.cls}Store" for r in t.resources} | {"ValidationError"}))
    f.add(f'"""HTTP handlers of the {t.title} service."""',
          "from flask import Blueprint, jsonify, request",
          "", f"from models import {classes}", "")
    prefix = f', url_prefix="{tr.prefix}"' if tr.prefix else ""
    f.add(f'bp = Blueprint("api", __name__{prefix})')
    for r in t.resources:
        f.add(f"{r.plural} = {r.cls}Store()")
    f.add("", "", "def _error(message, status):", "    return jsonify(error=message), status", "",
          "", "def _json_body():", "    data = request.get_json(silent=True)",
          "    return data if isinstance(data, dict) else None", "")
    for e in t.endpoints:
        if e.key in tr.missing or e.role == "health":
            continue
        if e.role == "stats":
            f.add("", '@bp.get("/stats")' if tr.route_style == "verb"
                  else '@bp.route("/stats", methods=["GET"])', "def stats():")
            parts = ", ".join(f'"{r.plural}": len({r.plural}.list())' for r in t.resources)
            line = f.add(f"    counts = {{{parts}}}")
            repo.handler_lines[e.key] = ("routes.py", line, f"counts = {{{parts}}}")
            f.add('    return jsonify(count=sum(counts.values()), **counts)', "")
            continue
        r = e.resource
        assert r is not None
        pid = f"{r.singular}_id"
        path = e.path.replace("{id}", f"<int:{pid}>").replace(f"{{{pid}}}", f"<int:{pid}>")
        deco = (f'@bp.{e.method.lower()}("{path}")' if tr.route_style == "verb"
                else f'@bp.route("{path}", methods=["{e.method}"])')
        f.add("", deco)
        fn = handler_name(e)
        args = pid if "<int:" in path else ""
        f.add(f"def {fn}({args}):")
        if e.role == "create":
            f.add("    data = _json_body()", "    if data is None:",
                  '        return _error("request body must be a JSON object", 400)', "    try:")
            line = f.add(f"        obj = {r.plural}.create(data)")
            repo.handler_lines[e.key] = ("routes.py", line, f"obj = {r.plural}.create(data)")
            f.add("    except ValidationError as exc:", "        return _error(str(exc), 400)",
                  "    return jsonify(obj.to_dict()), 201", "")
        elif e.role == "list":
            line = f.add(f"    items = {r.plural}.list()")
            repo.handler_lines[e.key] = ("routes.py", line, f"items = {r.plural}.list()")
            f.add("    for key, value in request.args.items():",
                  '        items = [o for o in items',
                  '                 if str(getattr(o, key, "")).lower() == value.lower()]',
                  "    return jsonify([o.to_dict() for o in items])", "")
        elif e.role in ("get", "action", "sub"):
            line = f.add(f"    obj = {r.plural}.get({pid})")
            repo.handler_lines[e.key] = ("routes.py", line, f"obj = {r.plural}.get({pid})")
            f.add("    if obj is None:", f'        return _error("{r.singular} not found", 404)')
            if e.role == "action":
                f.add(f'    {r.plural}.mark({pid}, "{r.action}")')
            if e.role == "sub":
                f.add(f"    return jsonify({r.plural}.history({pid}))", "")
            else:
                f.add("    return jsonify(obj.to_dict())", "")
        elif e.role == "update":
            f.add("    data = _json_body()", "    if data is None:",
                  '        return _error("request body must be a JSON object", 400)', "    try:")
            partial = e.method == "PATCH"
            text = f"obj = {r.plural}.update({pid}, data, partial={partial})"
            line = f.add("        " + text)
            repo.handler_lines[e.key] = ("routes.py", line, text)
            f.add("    except ValidationError as exc:", "        return _error(str(exc), 400)",
                  "    if obj is None:", f'        return _error("{r.singular} not found", 404)',
                  "    return jsonify(obj.to_dict())", "")
        elif e.role == "delete":
            line = f.add(f"    if not {r.plural}.delete({pid}):")
            repo.handler_lines[e.key] = ("routes.py", line, f"if not {r.plural}.delete({pid}):")
            f.add(f'        return _error("{r.singular} not found", 404)', '    return "", 204', "")
    return f.text().rstrip("\n") + "\n"


def _flask_app(t: TaskPlan, tr: RepoTraits, port_expr: str) -> str:
    f = SourceFile()
    f.add(f'"""{t.title}: application entry point."""', "import logging", "import os", "",
          "from flask import Flask, jsonify", "", "from routes import bp", "",
          'logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s '
          '%(name)s: %(message)s")', f'log = logging.getLogger("{t.package}")', "", "",
          "def create_app() -> Flask:", "    app = Flask(__name__)",
          '    app.config["JSON_SORT_KEYS"] = False', "    app.register_blueprint(bp)", "",
          '    @app.get("/health")', "    def health():", '        return jsonify(status="ok")', "")
    if not tr.html_404:
        f.add("    @app.errorhandler(404)", "    def not_found(_err):",
              '        return jsonify(error="not found"), 404', "",
              "    @app.errorhandler(405)", "    def method_not_allowed(_err):",
              '        return jsonify(error="method not allowed"), 405', "")
    f.add("    @app.errorhandler(500)", "    def internal_error(err):",
          '        log.exception("unhandled error: %s", err)',
          '        return jsonify(error="internal server error"), 500', "", "    return app", "",
          "", "app = create_app()", "", 'if __name__ == "__main__":', f"    port = {port_expr}",
          '    log.info("starting on port %s", port)', '    app.run(host="127.0.0.1", port=port)')
    return f.text()


# ----------------------------------------------------------------------------- fastapi

def _fastapi_routes(t: TaskPlan, tr: RepoTraits, repo: Repo) -> str:
    f = SourceFile()
    names = sorted({f"{r.cls}Store" for r in t.resources} | {f"{r.cls}In" for r in t.resources}
                   | {f"{r.cls}Patch" for r in t.resources} | {"ValidationError"})
    f.add(f'"""HTTP handlers of the {t.title} service."""',
          "from fastapi import APIRouter, HTTPException, Response", "",
          f"from models import {', '.join(names)}", "")
    f.add(f'router = APIRouter(prefix="{tr.prefix}")' if tr.prefix else "router = APIRouter()")
    for r in t.resources:
        f.add(f"{r.plural} = {r.cls}Store()")
    f.add("", "", "def _not_found(what: str) -> HTTPException:",
          '    return HTTPException(status_code=404, detail=f"{what} not found")', "")
    for e in t.endpoints:
        if e.key in tr.missing or e.role == "health":
            continue
        if e.role == "stats":
            f.add("", '@router.get("/stats")', "def stats():")
            parts = ", ".join(f'"{r.plural}": len({r.plural}.list())' for r in t.resources)
            line = f.add(f"    counts = {{{parts}}}")
            repo.handler_lines[e.key] = ("routes.py", line, f"counts = {{{parts}}}")
            f.add('    return {"count": sum(counts.values()), **counts}', "")
            continue
        r = e.resource
        assert r is not None
        pid = f"{r.singular}_id"
        path = e.path.replace("{id}", f"{{{pid}}}")
        extra = ", status_code=201" if e.role == "create" else (
            ", status_code=204" if e.role == "delete" else "")
        f.add("", f'@router.{e.method.lower()}("{path}"{extra})')
        fn = handler_name(e)
        if e.role == "create":
            f.add(f"def {fn}(payload: {r.cls}In):", "    try:")
            text = f"obj = {r.plural}.create(payload.model_dump())"
            line = f.add("        " + text)
            repo.handler_lines[e.key] = ("routes.py", line, text)
            f.add("    except ValidationError as exc:",
                  "        raise HTTPException(status_code=400, detail=str(exc)) from exc",
                  "    return obj.to_dict()", "")
        elif e.role == "list":
            f.add(f"def {fn}(limit: int = 100, offset: int = 0):")
            text = f"items = {r.plural}.list()[offset:offset + limit]"
            line = f.add("    " + text)
            repo.handler_lines[e.key] = ("routes.py", line, text)
            f.add("    return [o.to_dict() for o in items]", "")
        elif e.role in ("get", "action", "sub"):
            f.add(f"def {fn}({pid}: int):")
            line = f.add(f"    obj = {r.plural}.get({pid})")
            repo.handler_lines[e.key] = ("routes.py", line, f"obj = {r.plural}.get({pid})")
            f.add("    if obj is None:", f'        raise _not_found("{r.singular}")')
            if e.role == "action":
                f.add(f'    {r.plural}.mark({pid}, "{r.action}")')
            f.add(f"    return {r.plural}.history({pid})" if e.role == "sub"
                  else "    return obj.to_dict()", "")
        elif e.role == "update":
            f.add(f"def {fn}({pid}: int, payload: {r.cls}Patch):")
            text = (f"obj = {r.plural}.update({pid}, payload.model_dump(exclude_none=True), "
                    f"partial={e.method == 'PATCH'})")
            line = f.add("    " + text)
            repo.handler_lines[e.key] = ("routes.py", line, text)
            f.add("    if obj is None:", f'        raise _not_found("{r.singular}")',
                  "    return obj.to_dict()", "")
        elif e.role == "delete":
            f.add(f"def {fn}({pid}: int):")
            line = f.add(f"    if not {r.plural}.delete({pid}):")
            repo.handler_lines[e.key] = ("routes.py", line, f"if not {r.plural}.delete({pid}):")
            f.add(f'        raise _not_found("{r.singular}")',
                  "    return Response(status_code=204)",
                  "")
    return f.text().rstrip("\n") + "\n"


def _fastapi_app(t: TaskPlan, tr: RepoTraits) -> str:
    f = SourceFile()
    f.add(f'"""{t.title}: the FastAPI application."""', "import logging", "",
          "from fastapi import FastAPI, Request")
    if tr.conforming:
        f.add("from fastapi.exceptions import RequestValidationError",
              "from fastapi.responses import JSONResponse",
              "from starlette.exceptions import HTTPException as StarletteHTTPException")
    f.add("", "from routes import router", "", f'log = logging.getLogger("{t.package}")',
          f'app = FastAPI(title="{t.title}", version="0.1.0")', "app.include_router(router)", "",
          "", '@app.get("/health")', "def health():", '    return {"status": "ok"}', "")
    if tr.conforming:
        f.add("", "@app.exception_handler(RequestValidationError)",
              "async def validation_error(request: Request, exc: RequestValidationError):",
              '    first = exc.errors()[0] if exc.errors() else {"msg": "invalid request"}',
              '    return JSONResponse(status_code=400, content={"error": first["msg"]})', "", "",
              "@app.exception_handler(StarletteHTTPException)",
              "async def http_error(request: Request, exc: StarletteHTTPException):",
              '    return JSONResponse(status_code=exc.status_code, content={"error": exc.detail})',
              "")
    f.add("", '@app.middleware("http")', "async def log_requests(request: Request, call_next):",
          "    response = await call_next(request)",
          '    log.debug("%s %s -> %s", request.method, request.url.path, response.status_code)',
          "    return response")
    return f.text()


# ----------------------------------------------------------------------------- java

def _java_repo(t: TaskPlan, tr: RepoTraits, repo: Repo, port_line: str) -> None:
    pkg = t.package
    base = f"src/main/java/com/example/{pkg}"
    repo.files["pom.xml"] = _java_pom(t, tr)
    repo.files["start.sh"] = ("#!/usr/bin/env bash\nset -e\ncd \"$(dirname \"$0\")\"\n"
                              "mvn -q -B -DskipTests package\n"
                              f"exec java -jar target/{t.name}.jar "
                              f'--server.port="${{PORT:-{t.port}}}"\n')
    repo.files["src/main/resources/application.properties"] = (
        f"spring.application.name={t.name}\n{port_line}\nlogging.level.root=INFO\n")
    for r in t.resources:
        fields = ", ".join(f"{fl.java_type()} {fl.name}" for fl in r.fields)
        repo.files[f"{base}/{r.cls}.java"] = (
            f"package com.example.{pkg};\n\npublic record {r.cls}(long id, {fields}) {{\n}}\n")
    if tr.impl == "javalin":
        f = SourceFile()
        f.add(f"package com.example.{pkg};", "", "import io.javalin.Javalin;",
              "import java.util.Map;", "import java.util.concurrent.ConcurrentHashMap;",
              "import java.util.concurrent.atomic.AtomicLong;", "", "public final class App {", "",
              "    private static final AtomicLong IDS = new AtomicLong(1);",
              "    private static final Map<Long, Map<String, Object>> STORE =",
              "        new ConcurrentHashMap<>();",
              "", "    public static void main(String[] args) {",
              "        int port = Integer.parseInt(",
              f'            System.getenv().getOrDefault("PORT", "{t.port}"));',
              "        Javalin app = Javalin.create().start(port);",
              '        app.get("/health", ctx -> ctx.json(Map.of("status", "ok")));')
        for e in t.endpoints:
            if e.key in tr.missing or e.role == "health":
                continue
            path = e.path if not tr.prefix else tr.prefix + e.path
            text = f'app.{e.method.lower()}("{path}", ctx -> {{'
            line = f.add("        " + text)
            repo.handler_lines[e.key] = (f"{base}/App.java", line, text)
            f.add('            long id = ctx.pathParamMap().containsKey("id") '
                  '? Long.parseLong(ctx.pathParam("id")) : IDS.getAndIncrement();',
                  "            ctx.json(STORE.getOrDefault(id, Map.of()));", "        });")
        f.add("    }", "}")
        repo.files[f"{base}/App.java"] = f.text()
        return
    repo.files[f"{base}/Application.java"] = (
        f"package com.example.{pkg};\n\nimport org.springframework.boot.SpringApplication;\n"
        "import org.springframework.boot.autoconfigure.SpringBootApplication;\n\n"
        "@SpringBootApplication\npublic class Application {\n\n"
        "    public static void main(String[] args) {\n"
        "        SpringApplication.run(Application.class, args);\n    }\n}\n")
    for r in t.resources:
        f = SourceFile()
        cls = f"{r.cls}Controller"
        f.add(f"package com.example.{pkg};", "", "import java.util.List;", "import java.util.Map;",
              "import java.util.concurrent.ConcurrentHashMap;",
              "import java.util.concurrent.atomic.AtomicLong;",
              "import org.springframework.http.HttpStatus;",
              "import org.springframework.http.ResponseEntity;",
              "import org.springframework.web.bind.annotation.*;", "", "@RestController")
        if tr.prefix:
            f.add(f'@RequestMapping("{tr.prefix}")')
        f.add(f"public class {cls} {{", "",
              f"    private final Map<Long, {r.cls}> store = new ConcurrentHashMap<>();",
              "    private final AtomicLong ids = new AtomicLong(1);", "")
        for e in t.endpoints:
            if e.resource is not r or e.key in tr.missing:
                continue
            ann = {"GET": "GetMapping", "POST": "PostMapping", "PUT": "PutMapping",
                   "PATCH": "PatchMapping", "DELETE": "DeleteMapping"}[e.method]
            f.add(f'    @{ann}("{e.path}")')
            name = handler_name(e).split("_")
            jname = name[0] + "".join(p.capitalize() for p in name[1:])
            has_id = "{" in e.path
            sig = "@PathVariable long id" if has_id else (
                f"@RequestBody {r.cls} body" if e.role == "create" else "")
            if e.role == "update":
                sig = f"@PathVariable long id, @RequestBody {r.cls} body"
            f.add(f"    public ResponseEntity<?> {jname}({sig}) {{")
            if e.role == "create":
                text = "long id = ids.getAndIncrement();"
                line = f.add("        " + text)
                f.add(f"        {r.cls} saved = new {r.cls}(id, " +
                      ", ".join(f"body.{fl.name}()" for fl in r.fields) + ");",
                      "        store.put(id, saved);",
                      "        return ResponseEntity.status(HttpStatus.CREATED).body(saved);")
            elif e.role == "list":
                text = "return ResponseEntity.ok(List.copyOf(store.values()));"
                line = f.add("        " + text)
            elif e.role == "delete":
                text = "if (store.remove(id) == null) {"
                line = f.add("        " + text)
                f.add('            return ResponseEntity.status(HttpStatus.NOT_FOUND)'
                      '.body(Map.of("error", "not found"));', "        }",
                      "        return ResponseEntity.noContent().build();")
            else:
                text = f"{r.cls} found = store.get(id);"
                line = f.add("        " + text)
                f.add("        if (found == null) {",
                      '            return ResponseEntity.status(HttpStatus.NOT_FOUND)'
                      '.body(Map.of("error", "not found"));', "        }",
                      "        return ResponseEntity.ok(found);")
            repo.handler_lines[e.key] = (f"{base}/{cls}.java", line, text)
            f.add("    }", "")
        if r is t.resources[0]:
            f.add('    @GetMapping("/health")', "    public Map<String, String> health() {",
                  '        return Map.of("status", "ok");', "    }", "")
        f.add("}")
        repo.files[f"{base}/{cls}.java"] = f.text()


def _java_pom(t: TaskPlan, tr: RepoTraits, extra: str = "") -> str:
    dep = ("io.javalin", "javalin", "6.1.3") if tr.impl == "javalin" else (
        "org.springframework.boot", "spring-boot-starter-web", "")
    version = f"\n      <version>{dep[2]}</version>" if dep[2] else ""
    parent = ("" if tr.impl == "javalin" else
              "  <parent>\n    <groupId>org.springframework.boot</groupId>\n"
              "    <artifactId>spring-boot-starter-parent</artifactId>\n"
              "    <version>3.2.5</version>\n  </parent>\n")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/'
            f'POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n{parent}'
            f"  <groupId>com.example</groupId>\n  <artifactId>{t.name}</artifactId>\n"
            f"  <version>0.0.1-SNAPSHOT</version>\n  <properties>\n"
            f"    <java.version>17</java.version>\n  </properties>\n  <dependencies>\n"
            f"    <dependency>\n      <groupId>{dep[0]}</groupId>\n"
            f"      <artifactId>{dep[1]}</artifactId>{version}\n    </dependency>\n{extra}"
            f"  </dependencies>\n  <build>\n    <finalName>{t.name}</finalName>\n  </build>\n"
            f"</project>\n")


# ----------------------------------------------------------------------------- assembly

VARIANTS = {
    "python": {
        "install": ("resolution", "nomatch", "build", "timeout"),
        "start": ("modnotfound", "ownimport", "circular", "addrinuse", "syntax", "cmdnotfound",
                  "noentry", "portbusy"),
        "health": ("wrongport", "unixsock", "slowstart"),
        "ok": ("plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain",
               "background"),
    },
    "java": {
        "install": ("compile", "depres"),
        "start": ("portinuse", "bean", "mainclass"),
        "health": ("wrongport",),
        "ok": ("plain",),
    },
}
# variants that need no change to the repo (the cause is outside it)
NO_REPO_CHANGE = {"plain", "portbusy", "timeout"}


def build_repo(t: TaskPlan, tr: RepoTraits, variant: str = "plain",
               whitebox_broken: bool = False) -> Repo:
    """The files of the generated repo of ``t`` with ``tr``; ``variant`` breaks it one way.
    ``whitebox_broken`` renames the model class the golden white-box tests import."""
    repo = Repo(files={})
    r0 = t.resources[0]
    readme = (f"# {t.title}\n\nGenerated implementation of the {t.title} task.\n\n"
              f"## Run\n\n```bash\nbash start.sh\n```\n\nThe service listens on port {t.port} "
              "(override with `PORT`).\n")
    repo.files["README.md"] = readme
    if tr.impl in ("spring", "javalin"):
        port_line = ("server.port=8080" if variant == "wrongport"
                     else f"server.port=${{PORT:{t.port}}}")
        _java_repo(t, tr, repo, port_line)
        if variant == "wrongport":
            repo.server_port = 8080
            repo.files["start.sh"] = repo.files["start.sh"].replace(
                f' --server.port="${{PORT:-{t.port}}}"', "")
        elif variant == "compile":
            ctrl = next(k for k in repo.files if k.endswith("Controller.java") or
                        k.endswith("App.java"))
            repo.files[ctrl] = repo.files[ctrl].replace(
                "import java.util.Map;", f"import java.util.Map;\nimport com.example.{t.package}"
                f".repository.{r0.cls}Repository;")
            repo.broken_module = ctrl
            repo.handler_lines = {k: (f, n + 1 if f == ctrl else n, txt)
                                  for k, (f, n, txt) in repo.handler_lines.items()}
        elif variant == "depres":
            repo.files["pom.xml"] = _java_pom(t, tr, (
                "    <dependency>\n      <groupId>org.springframework.boot</groupId>\n"
                "      <artifactId>spring-boot-starter-data-rest-extras</artifactId>\n"
                "      <version>3.2.1</version>\n    </dependency>\n"))
            repo.bad_requirement = ("org.springframework.boot:"
                                    "spring-boot-starter-data-rest-extras:jar:3.2.1")
        elif variant == "mainclass":
            repo.files["start.sh"] = repo.files["start.sh"].replace(
                f"target/{t.name}.jar", f"target/{t.name}-0.0.1-SNAPSHOT-plain.jar")
        return repo
    req = list(PY_REQUIREMENTS[tr.impl])
    port_expr = f'int(os.environ.get("PORT", "{t.port}"))'
    if tr.impl == "flask":
        start = 'exec python app.py'
    else:
        start = f'exec uvicorn app:app --host 127.0.0.1 --port "${{PORT:-{t.port}}}"'
    models = _py_models(t, tr)
    if whitebox_broken:
        models = re.sub(rf"\b{r0.cls}\b", f"{r0.cls}Record", models)
    routes = (_flask_routes if tr.impl == "flask" else _fastapi_routes)(t, tr, repo)
    app_text = _flask_app(t, tr, port_expr) if tr.impl == "flask" else _fastapi_app(t, tr)
    if variant == "resolution":
        bad = "werkzeug==2.3.8" if tr.impl == "flask" else "starlette==0.27.0"
        req.append(bad)
        repo.bad_requirement = bad
    elif variant == "nomatch":
        bad = f"{tr.impl}-{r0.domain}-toolkit==1.2.0"
        req.append(bad)
        repo.bad_requirement = bad
    elif variant == "build":
        req.append("psycopg2==2.9.9")
        repo.bad_requirement = "psycopg2==2.9.9"
    elif variant == "timeout":
        req.append("torch==2.3.0")
    elif variant == "modnotfound":
        routes = routes.replace('"""\n', '"""\nimport marshmallow\n', 1)
        repo.broken_module = "marshmallow"
    elif variant == "ownimport":
        routes = routes.replace("from models import", f"from storage import {r0.cls}Repository\n"
                                "from models import", 1)
        repo.files["storage.py"] = (f'"""Persistence helpers (work in progress)."""\n\n\n'
                                    f"class {r0.cls}Store:\n    pass\n")
        repo.broken_module = "storage"
    elif variant == "circular":
        routes = routes.replace("from models import", "from app import log\nfrom models import", 1)
        repo.broken_module = "app"
    elif variant == "addrinuse":
        port_expr = "5000"
        start = "exec python app.py"
        repo.server_port = 5000
        if tr.impl == "fastapi":
            app_text += ('\n\nif __name__ == "__main__":\n    import uvicorn\n\n'
                         '    uvicorn.run(app, host="127.0.0.1", port=5000)\n')
    elif variant == "syntax":
        lines = routes.splitlines()
        idx = next(i for i, ln in enumerate(lines)
                   if ln.strip().startswith("return ") and ln.endswith(")"))
        lines[idx] = lines[idx][:-1]
        routes = "\n".join(lines) + "\n"
        repo.broken_module = f"routes.py:{idx + 1}"
    elif variant == "cmdnotfound":
        if tr.impl == "fastapi":
            req = [x for x in req if not x.startswith("uvicorn")]
        else:
            start = f'exec gunicorn -w 2 -b "127.0.0.1:${{PORT:-{t.port}}}" app:app'
    elif variant == "noentry":
        repo.entry = ""
    elif variant == "wrongport":
        repo.server_port = 5000 if tr.impl == "flask" else 8000
        if tr.impl == "flask":
            port_expr = "5000"
        else:
            start = "exec uvicorn app:app --host 127.0.0.1"
    elif variant == "unixsock":
        req.append("gunicorn==22.0.0")
        target = "app:app" if tr.impl == "flask" else "app:app -k uvicorn.workers.UvicornWorker"
        start = f"exec gunicorn --bind unix:/tmp/{t.package}.sock {target}"
    elif variant == "slowstart":
        app_text = app_text.replace("import logging\n", "import logging\nimport time\n", 1)
        app_text += "\n\n# warm the search index before serving (takes a while)\ntime.sleep(30)\n"
    elif variant == "background":
        start = ("nohup python app.py > server.log 2>&1 &" if tr.impl == "flask" else
                 f'nohup uvicorn app:app --host 127.0.0.1 --port "${{PORT:-{t.port}}}" '
                 "> server.log 2>&1 &")
    if variant in ("modnotfound", "ownimport", "circular"):  # one line inserted at the top
        repo.handler_lines = {k: (f, n + 1 if f == "routes.py" else n, txt)
                              for k, (f, n, txt) in repo.handler_lines.items()}
    if tr.impl == "flask":
        app_text = app_text.replace('int(os.environ.get("PORT", "' + str(t.port) + '"))',
                                    port_expr)
    repo.requirements = req
    files = {"app.py": app_text, "routes.py": routes, "models.py": models,
             "requirements.txt": "\n".join(req) + "\n",
             "start.sh": f'#!/usr/bin/env bash\nset -e\ncd "$(dirname "$0")"\n{start}\n'}
    if variant == "noentry":
        files["service.py"] = files.pop("app.py")
        del files["start.sh"]
    repo.files.update(files)
    return repo
