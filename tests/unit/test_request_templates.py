"""Request templates pre-filled from task READMEs: the six bundled tasks and edge cases."""

from __future__ import annotations

import json
import re

import pytest

from inspector.model.benchmark.task import Endpoint, Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.readme.reader import extract_endpoints
from inspector.model.request.templates import suggested_params, template_for, templates_for
from inspector.paths import sample_runs

ACCEPT = ("Accept", "application/json")
JSON_HEADERS = (ACCEPT, ("Content-Type", "application/json"))


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    loaded, issues = load_tasks(sample_runs() / "tasks")
    assert issues == []
    synthetic = {"inventory-api", "notes-api", "quote-board", "todo-service", "unit-converter",
                 "url-shortener"}
    assert synthetic <= set(loaded) and len(loaded) == 22  # + the 16 real RepoGenesis tasks
    return loaded


def tpl(tasks: dict[str, Task], task: str, method: str, path: str):  # noqa: ANN201
    t = tasks[task]
    ep = next(e for e in t.endpoints if e.method == method and e.path == path)
    return template_for(t, ep)


def readme_task(readme: str) -> Task:
    return Task("t", "python", "any", None, readme, endpoints=tuple(extract_endpoints(readme)))


# ------------------------------------------------------------------------ all bundled tasks


def test_every_bundled_endpoint_gets_a_sendable_template(tasks: dict[str, Task]) -> None:
    for task in tasks.values():
        specs = templates_for(task)
        required = [e for e in task.required_endpoints if e.method != "FEATURE"]
        assert len(specs) == len(required), task.name
        for ep, spec in zip(required, specs, strict=True):
            assert spec.method == ep.method
            assert spec.path == re.sub(r"(?<=/):(\w+)", r"{\1}", ep.path.partition("?")[0])
            filled = spec.with_params(suggested_params(task, ep))
            assert filled.validate() == [], (task.name, str(ep))
            assert filled.path_params() == []
            if spec.body_kind == "json":
                json.loads(spec.body)
                assert spec.headers == JSON_HEADERS
            else:
                assert spec.body_kind == "none" and spec.body == ""
                assert spec.headers == (ACCEPT,)


def test_todo_service(tasks: dict[str, Task]) -> None:
    post = tpl(tasks, "todo-service", "POST", "/todos")
    assert (post.body_kind, post.headers, post.query) == ("json", JSON_HEADERS, ())
    assert post.body == '{"title": "Write report", "completed": false, "priority": "high"}'
    # "`PATCH /todos/{id}` accepts any subset of `title`, `completed`, `priority`" has no
    # example block: the fields take their values from the create example
    patch = tpl(tasks, "todo-service", "PATCH", "/todos/{id}")
    assert patch.path == "/todos/{id}" and patch.body_kind == "json"
    assert patch.body == '{"title": "Write report", "completed": false, "priority": "high"}'
    listing = tpl(tasks, "todo-service", "GET", "/todos")
    assert listing.query == (("completed", "true"),)  # from `?completed=true\|false`
    assert listing.body_kind == "none"
    delete = tpl(tasks, "todo-service", "DELETE", "/todos/{id}")
    assert (delete.body_kind, delete.headers) == ("none", (ACCEPT,))
    task = tasks["todo-service"]
    assert suggested_params(task, Endpoint("GET", "/todos/{id}")) == {"id": "1"}
    assert tpl(tasks, "todo-service", "GET", "/health").query == ()


def test_notes_api(tasks: dict[str, Task]) -> None:
    post = tpl(tasks, "notes-api", "POST", "/api/v1/notes")
    assert post.body == ('{\n  "title": "Shopping",\n  "body": "milk, eggs",\n'
                         '  "tags": ["home", "errands"]\n}')
    put = tpl(tasks, "notes-api", "PUT", "/api/v1/notes/{id}")
    assert put.body == '{"title": "Shopping", "body": "milk, eggs", "tags": ["home", "errands"]}'
    # the table says `?tag=` (no value); the Schemas prose gives `?tag=home`
    assert tpl(tasks, "notes-api", "GET", "/api/v1/notes").query == (("tag", "home"),)
    assert tpl(tasks, "notes-api", "DELETE", "/api/v1/notes/{id}").body_kind == "none"


def test_inventory_api(tasks: dict[str, Task]) -> None:
    post = tpl(tasks, "inventory-api", "POST", "/items")
    assert post.body == '{"sku": "WID-001", "name": "Widget", "quantity": 10}'
    # one paragraph introduces the request of both endpoints
    for action in ("reserve", "release"):
        spec = tpl(tasks, "inventory-api", "POST", f"/items/{{sku}}/{action}")
        assert spec.body == '{"quantity": 3}'
        assert spec.path == f"/items/{{sku}}/{action}"
    task = tasks["inventory-api"]
    assert suggested_params(task, Endpoint("GET", "/items/{sku}")) == {"sku": "WID-001"}


def test_quote_board(tasks: dict[str, Task]) -> None:
    post = tpl(tasks, "quote-board", "POST", "/quotes")
    assert post.body == '{"text": "Simple is better than complex.", "author": "Tim Peters"}'
    # "`POST /quotes/{id}/vote` (no body) adds one vote and returns:" - the block is a response
    vote = tpl(tasks, "quote-board", "POST", "/quotes/{id}/vote")
    assert (vote.body_kind, vote.body, vote.headers) == ("none", "", (ACCEPT,))


def test_unit_converter(tasks: dict[str, Task]) -> None:
    convert = tpl(tasks, "unit-converter", "GET", "/convert")
    assert convert.query == (("value", "100"), ("from_unit", "c"), ("to_unit", "f"))
    batch = tpl(tasks, "unit-converter", "POST", "/convert/batch")
    assert json.loads(batch.body) == {"items": [
        {"value": 100, "from_unit": "c", "to_unit": "f"},
        {"value": 1, "from_unit": "mi", "to_unit": "km"}]}
    assert batch.body.startswith('{\n  "items": [\n    {"value": 100')
    # the loader also keeps "GET /convert?value=100&..." from the prose as an endpoint
    odd = tpl(tasks, "unit-converter", "GET", "/convert?value=100&from_unit=c&to_unit=f")
    assert odd.path == "/convert" and odd.query == convert.query


def test_url_shortener(tasks: dict[str, Task]) -> None:
    post = tpl(tasks, "url-shortener", "POST", "/api/shorten")
    assert post.body == '{"url": "https://example.com/some/long/path?x=1"}'
    task = tasks["url-shortener"]
    assert suggested_params(task, Endpoint("GET", "/{code}")) == {"code": "aB3xY9"}
    # a query string inside a JSON example is not a query hint
    assert tpl(tasks, "url-shortener", "GET", "/api/stats/{code}").query == ()


# ------------------------------------------------------------------------ edge cases

FALLBACK = """# Svc

| Method | Path | Description |
| ------ | ---- | ----------- |
| POST | /things | Create a thing |
| PUT | /things/{thing_id} | Replace |
| GET | /things | List (optional `?tag=...`, `?sort=name\\|date`) |
| GET | /things/{slug}/x | By slug |
"""


def test_nothing_found_gives_empty_json_or_no_body() -> None:
    task = readme_task(FALLBACK)
    by_key = {f"{s.method} {s.path}": s for s in templates_for(task)}
    assert (by_key["POST /things"].body_kind, by_key["POST /things"].body) == ("json", "{}")
    assert by_key["PUT /things/{thing_id}"].body == "{}"
    listing = by_key["GET /things"]
    assert (listing.body_kind, listing.body) == ("none", "")
    # placeholders give an empty value; alternatives give the first one
    assert listing.query == (("tag", ""), ("sort", "name"))
    assert suggested_params(task, Endpoint("PUT", "/things/{thing_id}")) == {"thing_id": "1"}
    assert suggested_params(task, Endpoint("GET", "/things/{slug}/x")) == {"slug": "example"}


def test_accepts_lists_only_the_named_fields() -> None:
    readme = """# S

| Method | Path | Description |
| ------ | ---- | ----------- |
| POST | /books | Add |
| PATCH | /books/{id} | Edit |

## Schemas

`POST /books` request:

```json
{"title": "Dune", "year": 1965, "author": "Herbert"}
```

`PATCH /books/{id}` accepts `year` and `isbn`; other fields are ignored.

## Errors

```json
{"year": 1}
```
"""
    task = readme_task(readme)
    patch = template_for(task, Endpoint("PATCH", "/books/{id}"))
    assert patch.body == '{"year": 1965}'  # `isbn` has no example value: left out


def test_a_block_after_other_prose_is_not_the_request_body() -> None:
    readme = """# S

| Method | Path | Description |
| ------ | ---- | ----------- |
| POST | /a | Add |
| DELETE | /a/{id} | Remove |

## Schemas

`POST /a` request (all optional).

A thing as returned:

```json
{"id": 1, "made": true}
```

`DELETE /a/{id}` request:

```
{"force": true}
```
"""
    task = readme_task(readme)
    assert template_for(task, Endpoint("POST", "/a")).body == "{}"
    # an untagged block that parses as JSON counts, whatever the method
    delete = template_for(task, Endpoint("DELETE", "/a/{id}"))
    assert (delete.body_kind, delete.body) == ("json", '{"force": true}')


def test_features_are_not_templates() -> None:
    task = readme_task("# App\n\n- User Login\n- Search Items\n")
    assert all(e.method == "FEATURE" for e in task.endpoints) and task.endpoints
    assert templates_for(task) == []
    with pytest.raises(ValueError, match="not an HTTP endpoint"):
        template_for(task, task.endpoints[0])
