"""HTTP routes for the Eve-style ``people`` resource.

Collection: ``GET /people`` (returns ``_items``) and ``POST /people`` (201).
Item: ``GET/PUT/DELETE /people/<id>`` with ETag concurrency control:
``If-Match`` is required for PUT and DELETE (428 when missing, 412 when it
does not match the current ETag).
"""

import json

from flask import jsonify, make_response, request

import storage
from validation import validate_create, validate_update

RESOURCE_FIELDS = ("firstname", "lastname", "role")


def _error(status, message, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    return make_response(jsonify(body), status)


def _quote_etag(etag):
    return '"{}"'.format(etag)


def _item_response(doc, status=200):
    resp = make_response(jsonify(doc), status)
    etag = doc.get("_etag")
    if etag:
        resp.headers["ETag"] = _quote_etag(etag)
    return resp


def _parse_if_match(header_value):
    """Return the list of ETags in an If-Match header (quotes and W/ removed)."""
    tags = []
    for part in header_value.split(","):
        tag = part.strip()
        if tag.startswith("W/"):
            tag = tag[2:].strip()
        if len(tag) >= 2 and tag[0] == '"' and tag[-1] == '"':
            tag = tag[1:-1]
        if tag:
            tags.append(tag)
    return tags


def _check_if_match(doc):
    """Validate the If-Match header against the document; returns an error response or None."""
    header_value = request.headers.get("If-Match")
    if header_value is None or not header_value.strip():
        return _error(428, "To edit a document its etag must be provided using the If-Match header")
    tags = _parse_if_match(header_value)
    if "*" in tags or doc.get("_etag") in tags:
        return None
    return _error(412, "Client and server etags don't match")


def _read_json_object():
    """Return (payload, error_response)."""
    payload = request.get_json(silent=True)
    if payload is None:
        return None, _error(400, "Request body must be valid JSON")
    if not isinstance(payload, dict):
        return None, _error(400, "Request body must be a JSON object")
    return payload, None


def _matches(doc, criteria):
    for key, value in criteria.items():
        if doc.get(key) != value:
            return False
    return True


def list_people():
    criteria = {}
    where = request.args.get("where")
    if where:
        try:
            parsed = json.loads(where)
        except ValueError:
            return _error(400, "Invalid 'where' clause: not valid JSON")
        if not isinstance(parsed, dict):
            return _error(400, "Invalid 'where' clause: must be a JSON object")
        criteria.update(parsed)
    for field in RESOURCE_FIELDS:
        value = request.args.get(field)
        if value is not None:
            criteria[field] = value

    items = storage.list_people()
    if criteria:
        items = [doc for doc in items if _matches(doc, criteria)]

    return make_response(
        jsonify({"_items": items, "_meta": {"total": len(items)}}), 200
    )


def create_person():
    payload, err = _read_json_object()
    if err is not None:
        return err
    issues = validate_create(payload)
    if issues:
        return _error(422, "Insertion failure: document contains error(s)", issues)

    doc = storage.create_person({k: payload[k] for k in RESOURCE_FIELDS if k in payload})
    resp = _item_response(doc, 201)
    resp.headers["Location"] = "/people/{}".format(doc["_id"])
    return resp


def get_person(person_id):
    doc = storage.get_person(person_id)
    if doc is None:
        return _error(404, "Resource not found")
    return _item_response(doc)


def update_person(person_id):
    doc = storage.get_person(person_id)
    if doc is None:
        return _error(404, "Resource not found")

    precondition = _check_if_match(doc)
    if precondition is not None:
        return precondition

    payload, err = _read_json_object()
    if err is not None:
        return err
    issues = validate_update(payload)
    if issues:
        return _error(422, "Update failure: document contains error(s)", issues)

    changes = {k: doc.get(k) for k in RESOURCE_FIELDS if k in doc}
    changes.update({k: payload[k] for k in RESOURCE_FIELDS if k in payload})

    updated = storage.update_person(person_id, changes)
    if updated is None:
        return _error(404, "Resource not found")
    return _item_response(updated)


def delete_person(person_id):
    doc = storage.get_person(person_id)
    if doc is None:
        return _error(404, "Resource not found")

    precondition = _check_if_match(doc)
    if precondition is not None:
        return precondition

    if not storage.delete_person(person_id):
        return _error(404, "Resource not found")
    return make_response("", 204)


def register_routes(app):
    """Attach the people collection and item endpoints to the Flask app."""
    app.add_url_rule("/people", "people_list", list_people, methods=["GET"])
    app.add_url_rule("/people", "people_create", create_person, methods=["POST"])
    app.add_url_rule("/people/<person_id>", "people_get", get_person, methods=["GET"])
    app.add_url_rule("/people/<person_id>", "people_update", update_person, methods=["PUT"])
    app.add_url_rule("/people/<person_id>", "people_delete", delete_person, methods=["DELETE"])
