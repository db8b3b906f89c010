"""`/people` collection and `/people/<id>` item endpoints.

* GET    /people        -> {"_items": [...], "_meta": {...}}
* POST   /people        -> 201 with the created document (``_id``, ``_etag``)
* GET    /people/<id>   -> the document, ``ETag`` response header
* PUT    /people/<id>   -> requires ``If-Match``; 428 when missing, 412 on mismatch
* DELETE /people/<id>   -> requires ``If-Match``; 204 on success
"""

import json

from flask import Blueprint, jsonify, request

from .store import DocumentStore

people_bp = Blueprint("people", __name__)

store = DocumentStore()

FIELDS = ("firstname", "lastname", "role")
REQUIRED_FIELDS = ("firstname", "lastname", "role")


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _error(status, message, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    response = jsonify(body)
    response.status_code = status
    return response


def _document_response(document, status=200):
    """JSON response for a single document with ``ETag`` header and ``_etag`` field."""
    body = dict(document)
    etag = body.get("_etag")
    response = jsonify(body)
    response.status_code = status
    if etag is not None:
        response.headers["ETag"] = '"{}"'.format(etag)
    return response


def _normalize_etag(value):
    value = value.strip()
    if value.startswith("W/"):
        value = value[2:].strip()
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        value = value[1:-1]
    return value


def _check_if_match(document):
    """Return an error response when the If-Match precondition fails, else None."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        return _error(428, "To edit a document its etag must be provided using the If-Match header")
    current = str(document.get("_etag", ""))
    candidates = [part for part in header.split(",") if part.strip()]
    for candidate in candidates:
        if candidate.strip() == "*" or _normalize_etag(candidate) == current:
            return None
    return _error(412, "Client and server etags don't match")


def _json_object_body():
    """Parse the request body as a JSON object; return (data, error_response)."""
    data = request.get_json(silent=True)
    if data is None:
        raw = request.get_data(cache=True)
        if raw:
            try:
                data = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                return None, _error(400, "Request body must be valid JSON")
        else:
            return None, _error(400, "Request body is required")
    if not isinstance(data, dict):
        return None, _error(400, "Request body must be a JSON object")
    return data, None


def _validate(data, require_all):
    """Validate person fields; return (clean_fields, issues)."""
    issues = {}
    clean = {}
    for key, value in data.items():
        if key.startswith("_"):
            continue  # meta fields are server-controlled and ignored
        if key not in FIELDS:
            issues[key] = "unknown field"
            continue
        if not isinstance(value, str):
            issues[key] = "must be of string type"
            continue
        clean[key] = value
    if require_all:
        for key in REQUIRED_FIELDS:
            if key not in clean and key not in issues:
                issues[key] = "required field"
    return clean, issues


def _matches_filters(document, filters):
    for key, expected in filters.items():
        if str(document.get(key)) != str(expected):
            return False
    return True


def _collect_filters():
    """Build equality filters from ``?where=<json>`` and plain field parameters."""
    filters = {}
    where = request.args.get("where")
    if where:
        try:
            parsed = json.loads(where)
        except ValueError:
            return None, _error(400, "The 'where' parameter must be a JSON object")
        if not isinstance(parsed, dict):
            return None, _error(400, "The 'where' parameter must be a JSON object")
        filters.update(parsed)
    for key in FIELDS + ("_id",):
        if key in request.args:
            filters[key] = request.args.get(key)
    return filters, None


# ---------------------------------------------------------------------------
# Collection endpoints
# ---------------------------------------------------------------------------


@people_bp.route("/people", methods=["GET"], strict_slashes=False)
def list_people():
    filters, error = _collect_filters()
    if error is not None:
        return error
    items = [dict(doc) for doc in store.list() if _matches_filters(doc, filters)]
    return jsonify({"_items": items, "_meta": {"total": len(items)}}), 200


@people_bp.route("/people", methods=["POST"], strict_slashes=False)
def create_person():
    data, error = _json_object_body()
    if error is not None:
        return error
    fields, issues = _validate(data, require_all=True)
    if issues:
        return _error(400, "Insertion failure: document contains errors", issues)
    document = store.insert(fields)
    response = _document_response(document, status=201)
    response.headers["Location"] = "/people/{}".format(document["_id"])
    return response


# ---------------------------------------------------------------------------
# Item endpoints
# ---------------------------------------------------------------------------


@people_bp.route("/people/<doc_id>", methods=["GET"], strict_slashes=False)
def get_person(doc_id):
    document = store.get(doc_id)
    if document is None:
        return _error(404, "The requested URL was not found on the server.")
    return _document_response(document)


@people_bp.route("/people/<doc_id>", methods=["PUT", "PATCH"], strict_slashes=False)
def update_person(doc_id):
    document = store.get(doc_id)
    if document is None:
        return _error(404, "The requested URL was not found on the server.")
    precondition = _check_if_match(document)
    if precondition is not None:
        return precondition
    data, error = _json_object_body()
    if error is not None:
        return error
    fields, issues = _validate(data, require_all=False)
    if issues:
        return _error(400, "Update failure: document contains errors", issues)
    updated = store.update(doc_id, fields)
    if updated is None:
        return _error(404, "The requested URL was not found on the server.")
    return _document_response(updated)


@people_bp.route("/people/<doc_id>", methods=["DELETE"], strict_slashes=False)
def delete_person(doc_id):
    document = store.get(doc_id)
    if document is None:
        return _error(404, "The requested URL was not found on the server.")
    precondition = _check_if_match(document)
    if precondition is not None:
        return precondition
    if not store.delete(doc_id):
        return _error(404, "The requested URL was not found on the server.")
    return "", 204
