"""HTTP endpoints for the `people` resource."""
import json
import math

from flask import Blueprint, current_app, jsonify, request

from app.errors import APIError
from app.schema import PEOPLE_SCHEMA, validate
from app.store import store

bp = Blueprint("resources", __name__)

RESOURCE = "people"
SCHEMA = PEOPLE_SCHEMA


def _clean_etag(value: str) -> str:
    v = (value or "").strip()
    if v.startswith("W/"):
        v = v[2:]
    return v.strip('"')


def _with_links(doc: dict) -> dict:
    doc = dict(doc)
    doc["_links"] = {"self": {"title": "person", "href": f"{RESOURCE}/{doc['_id']}"}}
    return doc


def _item_response(doc: dict, status: int = 200):
    resp = jsonify(_with_links(doc))
    resp.status_code = status
    resp.headers["ETag"] = f'"{doc["_etag"]}"'
    resp.headers["Last-Modified"] = doc.get("_updated", "")
    return resp


def _json_body():
    body = request.get_json(silent=True)
    if body is None:
        raise APIError(400, "The request body must be valid JSON")
    return body


def _load(doc_id: str) -> dict:
    doc = store.get(RESOURCE, doc_id)
    if doc is None:
        raise APIError(404, "The requested URL was not found on the server.")
    return doc


def _check_if_match(doc: dict) -> None:
    header = request.headers.get("If-Match")
    if not header:
        raise APIError(428, "To edit a document its etag must be provided using the If-Match header")
    candidates = [_clean_etag(p) for p in header.split(",")]
    if "*" in candidates:
        return
    if doc["_etag"] not in candidates:
        raise APIError(412, "Client and server etags don't match")


@bp.get("/")
def home():
    return jsonify({"_links": {"child": [{"title": RESOURCE, "href": RESOURCE}]}})


@bp.get(f"/{RESOURCE}")
def list_people():
    filters = {}
    where = request.args.get("where")
    if where:
        try:
            parsed = json.loads(where)
        except ValueError:
            raise APIError(400, "Unable to parse `where` clause")
        if not isinstance(parsed, dict):
            raise APIError(400, "Unable to parse `where` clause")
        filters.update(parsed)
    for field in SCHEMA:
        if field in request.args:
            filters[field] = request.args[field]

    docs = store.find(RESOURCE, filters)
    sort = request.args.get("sort")
    if sort:
        reverse = sort.startswith("-")
        key = sort.lstrip("-")
        docs.sort(key=lambda d: str(d.get(key, "")), reverse=reverse)
    else:
        docs.sort(key=lambda d: d["_id"])

    try:
        max_results = int(request.args.get("max_results", current_app.config["PAGINATION_DEFAULT"]))
        page = int(request.args.get("page", 1))
    except ValueError:
        raise APIError(400, "Invalid pagination parameters")
    max_results = max(1, min(max_results, current_app.config["PAGINATION_LIMIT"]))
    page = max(1, page)
    total = len(docs)
    items = docs[(page - 1) * max_results: page * max_results]

    links = {"parent": {"title": "home", "href": "/"}, "self": {"title": RESOURCE, "href": RESOURCE}}
    last = max(1, math.ceil(total / max_results))
    if page < last:
        links["next"] = {"title": "next page", "href": f"{RESOURCE}?page={page + 1}"}
        links["last"] = {"title": "last page", "href": f"{RESOURCE}?page={last}"}
    if page > 1:
        links["prev"] = {"title": "previous page", "href": f"{RESOURCE}?page={page - 1}"}
    return jsonify({
        "_items": [_with_links(d) for d in items],
        "_links": links,
        "_meta": {"page": page, "max_results": max_results, "total": total},
    })


@bp.post(f"/{RESOURCE}")
def create_person():
    body = _json_body()
    if isinstance(body, list):
        raise APIError(400, "Bulk inserts are not supported")
    issues = validate(body, SCHEMA)
    if issues:
        raise APIError(422, "Insertion failure: 1 document(s) contain(s) error(s)", issues)
    fields = {k: body[k] for k in SCHEMA if k in body}
    doc = store.insert(RESOURCE, fields)
    payload = _with_links(doc)
    payload["_status"] = "OK"
    resp = jsonify(payload)
    resp.status_code = 201
    resp.headers["ETag"] = f'"{doc["_etag"]}"'
    resp.headers["Location"] = f"{request.host_url.rstrip('/')}/{RESOURCE}/{doc['_id']}"
    return resp


@bp.get(f"/{RESOURCE}/<doc_id>")
def get_person(doc_id):
    doc = _load(doc_id)
    inm = request.headers.get("If-None-Match")
    if inm and doc["_etag"] in [_clean_etag(p) for p in inm.split(",")]:
        resp = current_app.response_class(status=304)
        resp.headers["ETag"] = f'"{doc["_etag"]}"'
        return resp
    return _item_response(doc)


def _update(doc_id: str, replace: bool):
    doc = _load(doc_id)
    _check_if_match(doc)
    body = _json_body()
    issues = validate(body, SCHEMA, partial=not replace)
    if issues:
        raise APIError(422, "Update failure: document contains error(s)", issues)
    fields = {k: body[k] for k in SCHEMA if k in body}
    if replace:
        # PUT accepts a subset too: fill missing fields from current doc
        merged = {k: doc[k] for k in SCHEMA if k in doc}
        merged.update(fields)
        fields = merged
    updated = store.update(RESOURCE, doc_id, fields, replace=replace)
    if updated is None:
        raise APIError(404, "The requested URL was not found on the server.")
    payload = _with_links(updated)
    payload["_status"] = "OK"
    resp = jsonify(payload)
    resp.headers["ETag"] = f'"{updated["_etag"]}"'
    return resp


@bp.put(f"/{RESOURCE}/<doc_id>")
def replace_person(doc_id):
    return _update(doc_id, replace=True)


@bp.patch(f"/{RESOURCE}/<doc_id>")
def patch_person(doc_id):
    return _update(doc_id, replace=False)


@bp.delete(f"/{RESOURCE}/<doc_id>")
def delete_person(doc_id):
    doc = _load(doc_id)
    _check_if_match(doc)
    store.delete(RESOURCE, doc_id)
    return current_app.response_class(status=204)
