"""Eve-like ``people`` REST service.

Serves ``/people`` (collection) and ``/people/<id>`` (item) with ETag response
headers and ``If-Match`` concurrency control on updates and deletes:

* missing ``If-Match``  -> 428 Precondition Required
* mismatching ``If-Match`` -> 412 Precondition Failed
* unknown document        -> 404 Not Found

Documents are kept by ``store.py`` (thread-safe in-memory store, id and ETag
generation) and payloads are checked by ``validation.py``.
"""

import hashlib
import inspect
import json
import os
import threading

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

import store as store_module
import validation

FIELDS = ("firstname", "lastname", "role")
PORT = int(os.environ.get("PORT", "5001"))


# ---------------------------------------------------------------------------
# Store adapter
# ---------------------------------------------------------------------------

def _find(obj, *names):
    for name in names:
        attr = getattr(obj, name, None)
        if callable(attr) and not inspect.isclass(attr):
            return attr
    return None


_CREATE = ("create", "insert", "add", "create_person", "add_person", "insert_person")
_GET = ("get", "find", "get_person", "find_person", "find_one", "get_by_id")
_LIST = ("list", "all", "list_all", "find_all", "list_people", "get_all", "items_list")
_UPDATE = ("update", "replace", "update_person", "patch", "replace_person")
_DELETE = ("delete", "remove", "delete_person", "remove_person")


def _locate_store():
    """Find the store object: a module-level instance or a class to build."""
    for name in ("store", "people_store", "STORE", "people", "db", "default_store"):
        candidate = getattr(store_module, name, None)
        if candidate is not None and not inspect.isclass(candidate) \
                and not inspect.ismodule(candidate) and _find(candidate, *_CREATE):
            return candidate
    for name in ("PeopleStore", "DocumentStore", "InMemoryStore", "Store",
                 "MemoryStore", "PersonStore"):
        cls = getattr(store_module, name, None)
        if inspect.isclass(cls):
            return cls()
    for _, cls in inspect.getmembers(store_module, inspect.isclass):
        if cls.__module__ == store_module.__name__ and _find(cls, *_CREATE):
            return cls()
    # Module-level functions.
    return store_module


STORE = _locate_store()
_store_create = _find(STORE, *_CREATE)
_store_get = _find(STORE, *_GET)
_store_list = _find(STORE, *_LIST)
_store_update = _find(STORE, *_UPDATE)
_store_delete = _find(STORE, *_DELETE)
_store_etag = (_find(STORE, "compute_etag", "etag", "make_etag", "etag_for")
               or _find(store_module, "compute_etag", "make_etag", "etag_for",
                        "generate_etag"))

_lock = threading.RLock()


def _doc(value):
    if value is None or value is False:
        return None
    if isinstance(value, tuple):
        value = next((v for v in value if isinstance(v, dict)), None)
        return dict(value) if value is not None else None
    if isinstance(value, dict):
        return dict(value)
    if hasattr(value, "__dict__") and not isinstance(value, (str, int, bool)):
        return dict(vars(value))
    return None


def _id_of(doc):
    return doc.get("_id", doc.get("id"))


def _etag_of(doc):
    etag = doc.get("_etag") or doc.get("etag")
    if etag:
        return str(etag)
    if _store_etag is not None:
        try:
            return str(_store_etag(doc))
        except TypeError:
            pass
    payload = {k: doc.get(k) for k in FIELDS}
    payload["_id"] = _id_of(doc)
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str)
                        .encode("utf-8")).hexdigest()


def present(doc):
    """Public representation of a stored document."""
    out = {"_id": _id_of(doc)}
    for key in FIELDS:
        if key in doc:
            out[key] = doc[key]
    out["_etag"] = _etag_of(doc)
    for key in ("_created", "_updated"):
        if key in doc:
            out[key] = doc[key]
    return out


def _safe_get(doc_id):
    try:
        return _doc(_store_get(doc_id))
    except (KeyError, LookupError, ValueError):
        return None


def get_doc(doc_id):
    doc = _safe_get(doc_id)
    if doc is None and isinstance(doc_id, str) and doc_id.isdigit():
        doc = _safe_get(int(doc_id))
    return doc


def list_docs():
    result = _store_list()
    if isinstance(result, dict):
        result = result.get("_items", list(result.values()))
    return [_doc(d) for d in (result or []) if d is not None]


# ---------------------------------------------------------------------------
# Validation adapter
# ---------------------------------------------------------------------------

_validate_create = _find(validation, "validate_create", "validate_create_payload",
                         "validate_person", "validate_new_person", "validate_post",
                         "validate_people_create", "validate_payload")
_validate_update = _find(validation, "validate_update", "validate_update_payload",
                         "validate_patch", "validate_put", "validate_people_update")


def _fallback_validate(data, partial):
    issues = {}
    for key in data:
        if key not in FIELDS:
            issues[key] = "unknown field"
    for key in FIELDS:
        if key in data:
            if not isinstance(data[key], str):
                issues[key] = "must be of string type"
        elif not partial:
            issues[key] = "required field"
    return issues


def run_validation(data, partial):
    func = _validate_update if partial else _validate_create
    if func is None:
        return _fallback_validate(data, partial)
    try:
        result = func(data)
    except (ValueError, TypeError, KeyError) as exc:
        return getattr(exc, "errors", None) or {"_error": str(exc)}
    if result is None or result is True:
        return {}
    if isinstance(result, tuple):
        if result and isinstance(result[0], bool):
            return {} if result[0] else (result[1] if len(result) > 1 and result[1]
                                         else {"_error": "validation failed"})
        result = next((r for r in result if isinstance(r, (dict, list))), {})
    if result is False:
        return {"_error": "validation failed"}
    if isinstance(result, list):
        return {"_errors": result} if result else {}
    if isinstance(result, str):
        return {"_error": result} if result else {}
    return result or {}


# ---------------------------------------------------------------------------
# HTTP helpers
# ---------------------------------------------------------------------------

def _normalize_etag(value):
    value = value.strip()
    if value.startswith("W/"):
        value = value[2:]
    return value.strip().strip('"')


def etag_matches(header, etag):
    if header.strip() == "*":
        return True
    wanted = _normalize_etag(etag)
    return any(_normalize_etag(part) == wanted for part in header.split(",")
               if part.strip())


def error(status, message, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    return jsonify(body), status


def item_response(doc, status=200, extra=None):
    body = present(doc)
    if extra:
        body.update(extra)
    resp = jsonify(body)
    resp.status_code = status
    resp.headers["ETag"] = f'"{body["_etag"]}"'
    return resp


def json_payload():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return None
    return data


# ---------------------------------------------------------------------------
# Application
# ---------------------------------------------------------------------------

def create_app():
    app = Flask(__name__)
    app.url_map.strict_slashes = False

    @app.errorhandler(HTTPException)
    def handle_http(exc):
        return error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(Exception)
    def handle_unexpected(exc):
        return error(500, "Internal server error")

    @app.route("/", methods=["GET"])
    def root():
        return jsonify({"_links": {"child": [{"href": "people", "title": "people"}]}})

    @app.route("/people", methods=["GET"])
    def list_people():
        docs = list_docs()
        filters = {k: v for k, v in request.args.items() if k in FIELDS}
        where = request.args.get("where")
        if where:
            try:
                parsed = json.loads(where)
            except ValueError:
                return error(400, "Invalid 'where' clause")
            if not isinstance(parsed, dict):
                return error(400, "Invalid 'where' clause")
            filters.update({k: v for k, v in parsed.items()})
        if filters:
            docs = [d for d in docs
                    if all(str(d.get(k)) == str(v) for k, v in filters.items())]
        items = [present(d) for d in docs]
        return jsonify({"_items": items,
                        "_meta": {"total": len(items), "page": 1,
                                  "max_results": len(items)}}), 200

    @app.route("/people", methods=["POST"])
    def create_person():
        data = json_payload()
        if data is None:
            return error(400, "Request body must be a JSON object")
        issues = run_validation(data, partial=False)
        if issues:
            return error(422, "Insertion failure: validation error", issues)
        fields = {k: data[k] for k in FIELDS if k in data}
        with _lock:
            result = _store_create(fields)
            if isinstance(result, (str, int)) and not isinstance(result, bool):
                # Store returned only the new identifier.
                created = get_doc(result)
            else:
                created = _doc(result)
            if created is None or _id_of(created) is None:
                raise RuntimeError("store did not return the created document")
        return item_response(created, 201, {"_status": "OK"})

    @app.route("/people/<doc_id>", methods=["GET"])
    def get_person(doc_id):
        doc = get_doc(doc_id)
        if doc is None:
            return error(404, "Resource not found")
        etag = _etag_of(doc)
        inm = request.headers.get("If-None-Match")
        if inm and etag_matches(inm, etag):
            resp = app.response_class(status=304)
            resp.headers["ETag"] = f'"{etag}"'
            return resp
        return item_response(doc)

    @app.route("/people/<doc_id>", methods=["PUT", "PATCH"])
    def update_person(doc_id):
        with _lock:
            doc = get_doc(doc_id)
            if doc is None:
                return error(404, "Resource not found")
            if_match = request.headers.get("If-Match")
            if not if_match:
                return error(428, "To edit a document its etag must be provided "
                                  "using the If-Match header")
            if not etag_matches(if_match, _etag_of(doc)):
                return error(412, "Client and server etags don't match")
            data = json_payload()
            if data is None:
                return error(400, "Request body must be a JSON object")
            issues = run_validation(data, partial=True)
            if issues:
                return error(422, "Update failure: validation error", issues)
            merged = {k: doc[k] for k in FIELDS if k in doc}
            merged.update({k: data[k] for k in FIELDS if k in data})
            updated = _doc(_store_update(_id_of(doc), merged))
            if updated is None or _id_of(updated) is None:
                updated = get_doc(_id_of(doc))
            if updated is None:
                return error(404, "Resource not found")
        return item_response(updated, 200, {"_status": "OK"})

    @app.route("/people/<doc_id>", methods=["DELETE"])
    def delete_person(doc_id):
        with _lock:
            doc = get_doc(doc_id)
            if doc is None:
                return error(404, "Resource not found")
            if_match = request.headers.get("If-Match")
            if not if_match:
                return error(428, "To delete a document its etag must be provided "
                                  "using the If-Match header")
            if not etag_matches(if_match, _etag_of(doc)):
                return error(412, "Client and server etags don't match")
            _store_delete(_id_of(doc))
        return "", 204

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
