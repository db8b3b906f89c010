"""Request bodies pre-filled from README input schemas, and the login a README documents.

The excerpts are the real RepoGenesis task READMEs' styles (sample_runs/tasks): JSON schema
blocks with type names and notes, enumerations in comments, nested objects and arrays, bullet
field lists, JSON examples; and a table of fields.
"""

from __future__ import annotations

import json

import pytest

from inspector.model.benchmark.task import Endpoint, Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.readme.reader import extract_endpoints
from inspector.model.request.login import find_token, login_endpoint, token_keys, with_bearer
from inspector.model.request.schema_body import schema_body
from inspector.model.request.templates import body_note, template_for
from inspector.paths import sample_runs


def task_of(readme: str) -> Task:
    return Task("t", "python", "any", None, readme, endpoints=tuple(extract_endpoints(readme)))


def body(readme: str, method: str, path: str) -> object:
    task = task_of(readme)
    ep = next(e for e in task.endpoints if e.method == method and e.path == path)
    spec = template_for(task, ep)
    assert spec.body_kind == "json"
    return json.loads(spec.body)


# UserManagement_2: a JSON block of type names with (required, ...) / (optional, ...) notes
USERS = """## API

**API Name**: `POST /api/v1/users/register`

**Input Schema**:
```json
{
  "username": "string (required, 3-20 characters)",
  "email": "string (required, valid email format)",
  "password": "string (required, 6-50 characters)",
  "full_name": "string (optional, max 100 characters)"
}
```

**Output Schema**:
```json
{
  "success": "boolean",
  "data": {"user_id": "integer", "username": "string"}
}
```

**API Name**: `PUT /api/v1/users/{user_id}`

**Input Schema**:
```json
{
  "email": "string (optional, valid email format)",
  "full_name": "string (optional, max 100 characters)"
}
```
"""


def test_required_fields_typed_and_optional_ones_left_out_and_named() -> None:
    assert body(USERS, "POST", "/api/v1/users/register") == {
        "username": "example", "email": "user@example.com", "password": "Secret123!"}
    task = task_of(USERS)
    note = body_note(task, Endpoint("POST", "/api/v1/users/register"))
    assert note == "optional, left out: full_name"
    # an update whose fields are all optional still gets them, and says so
    assert body(USERS, "PUT", "/api/v1/users/{user_id}") == {
        "email": "user@example.com", "full_name": "example"}
    assert body_note(task, Endpoint("PUT", "/api/v1/users/{user_id}")).startswith(
        "every field is optional: email, full_name")


# StructuredDataConvertor: enumerations in comments, an optional nested object, an array of
# objects, a boolean with a default
CONVERT = """### API Specifications

#### 2. Format Conversion API
- **Endpoint**: `POST /convert`

**Input Schema**:
```json
{
  "source_format": "string",     // Source format: "excel" | "csv" | "pdf"
  "target_format": "string",     // Target format: "excel" | "csv" | "pdf"
  "data": "string",             // Data to convert (base64 encoded source file content)
  "options": {                  // Conversion options (optional)
    "encoding": "string",       // File encoding, default "utf-8"
    "has_header": "boolean"     // Whether to include header, default true
  }
}
```

#### 3. Batch
- **Endpoint**: `POST /convert/batch`

**Input Schema**:
```json
{
  "conversions": [
    {"source_format": "string", "target_format": "string", "data": "string"}
  ],
  "parallel": "boolean",
  "retries": "integer"
}
```
"""


def test_enumerations_nested_objects_and_arrays() -> None:
    assert body(CONVERT, "POST", "/convert") == {
        "source_format": "excel", "target_format": "excel", "data": "example"}
    assert body_note(task_of(CONVERT), Endpoint("POST", "/convert")) == \
        "optional, left out: options"
    assert body(CONVERT, "POST", "/convert/batch") == {
        "conversions": [{"source_format": "example", "target_format": "example",
                         "data": "example"}],
        "parallel": True, "retries": 1}


# eve: a bullet list of `name: type` under a named schema, the README's e.g. values
EVE = """Resource: `people`
- Collection endpoint: `/people`

Schema (request/response)
- PeopleCreate (request body for POST `/people`)
  - `firstname: string`
  - `lastname: string`
  - `role: string` (e.g., admin, user)

- People (response object)
  - `_id: string|integer` (server-generated identifier)
  - `firstname: string`

Endpoints
- GET `/people`
  - Input: optional query parameters (implementation-defined filtering is allowed)

- POST `/people`
  - Input: `PeopleCreate`
  - Output (201 or 200): `People` (includes identifier and ETag)
"""


def test_bullet_field_lists() -> None:
    got = schema_body(EVE, "POST", "/people")
    assert got is not None
    assert got.body == {"firstname": "example", "lastname": "example", "role": "admin"}


# spring-boot-course-scheduling: a JSON example body gives the values
TERMS = """### 1. Create Term
- **Endpoint**: `POST /api/terms`
- **Input Schema**:
  ```json
  { "name": "2024-Fall", "startDate": "2024-09-01", "capacity": 50, "active": false }
  ```
"""

# a table of fields with a required column and an enumeration
TABLE = """## Endpoints

### POST /orders

Request body:

| Field | Type | Required | Notes |
| ----- | ---- | -------- | ----- |
| customer_email | string | yes | the buyer |
| quantity | integer | yes | at least 1 |
| express | boolean | yes | |
| size | string | yes | one of: S, M, L |
| coupon | string | no | |
"""


def test_json_examples_and_field_tables() -> None:
    assert body(TERMS, "POST", "/api/terms") == {
        "name": "2024-Fall", "startDate": "2024-09-01", "capacity": 50, "active": False}
    assert body(TABLE, "POST", "/orders") == {
        "customer_email": "user@example.com", "quantity": 1, "express": True, "size": "S"}
    assert body_note(task_of(TABLE), Endpoint("POST", "/orders")) == \
        "optional, left out: coupon"


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    loaded, _ = load_tasks(sample_runs() / "tasks")
    return loaded


def test_the_real_tasks_get_typed_bodies(tasks: dict[str, Task]) -> None:
    def of(task: str, method: str, path: str) -> object:
        t = tasks[task]
        ep = next(e for e in t.required_endpoints if e.method == method and e.path == path)
        return json.loads(template_for(t, ep).body)

    assert of("springboot-chat-gateway", "PUT", "/api/users/{userId}/status") == \
        {"status": "ONLINE"}
    assert of("synapse", "POST", "/rooms/{room_id}/messages") == \
        {"type": "m.text", "content": {"body": "hello"}}
    assert of("micronaut-ci-status", "POST", "/agents") == \
        {"name": "example", "capabilities": ["java", "docker"]}
    assert of("WebPan", "POST", "/api/v1/files/{file_id}/share") == \
        {"is_public": True, "expires_in": 3600}
    assert body_note(tasks["WebPan"], Endpoint("POST", "/api/v1/files/upload")) == (
        "optional, left out: folder_id, description; file fields (multipart upload), "
        "left out: file")


def test_the_login_endpoint_and_its_token(tasks: dict[str, Task]) -> None:
    found = {name: login_endpoint(t) for name, t in tasks.items()}
    assert found["WebPan"] == Endpoint("POST", "/api/v1/auth/login", found["WebPan"].description)
    assert found["django-rest-framework-crud"].path == "/api/v1/auth/token/"  # type: ignore[union-attr]
    assert found["javalin-task-manager"].path == "/users/login"  # type: ignore[union-attr]
    assert found["spark-dashboard-backend"].path == "/api/login"  # type: ignore[union-attr]
    assert found["todo-service"] is None and found["eve"] is None
    keys = token_keys(tasks["UserManagement_2"], found["UserManagement_2"])  # type: ignore[arg-type]
    assert keys[0] == "access_token" and "token_type" not in keys
    django = token_keys(tasks["django-rest-framework-crud"],
                        found["django-rest-framework-crud"])  # type: ignore[arg-type]
    assert find_token('{"refresh": "r1", "access": "a1"}', django) == "a1"
    assert find_token('{"success": true, "data": {"token": "t9", "user": {"id": 1}}}') == "t9"
    assert find_token('{"error": "bad credentials"}') is None
    assert find_token("<html>not json</html>") is None
    assert with_bearer((("Accept", "application/json"), ("authorization", "Bearer old")),
                       "t9") == (("Accept", "application/json"), ("Authorization", "Bearer t9"))
