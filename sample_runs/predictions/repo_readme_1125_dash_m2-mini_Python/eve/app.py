import hashlib
import json
import threading
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request

app = Flask(__name__)

FIELDS = ("firstname", "lastname", "role")
store = {}
lock = threading.Lock()


def now_str():
    return datetime.now(timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")


def compute_etag(doc):
    payload = {k: doc.get(k) for k in ("_id",) + FIELDS}
    payload["_updated"] = doc.get("_updated")
    payload["_nonce"] = doc.get("_nonce")
    return hashlib.sha1(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def public(doc):
    return {k: v for k, v in doc.items() if not k.startswith("_nonce")}


def item_response(doc, status=200):
    resp = jsonify(public(doc))
    resp.status_code = status
    resp.headers["ETag"] = '"%s"' % doc["_etag"]
    return resp


def error(status, message):
    resp = jsonify({"_status": "ERR", "_error": {"code": status, "message": message}})
    resp.status_code = status
    return resp


def validate(data, partial=False):
    if not isinstance(data, dict):
        return {"_body": "must be a JSON object"}
    issues = {}
    for k in data:
        if k not in FIELDS and not k.startswith("_"):
            issues[k] = "unknown field"
    for f in FIELDS:
        if f in data:
            if not isinstance(data[f], str):
                issues[f] = "must be of string type"
        elif not partial:
            issues[f] = "required field"
    return issues


def clean_if_match(value):
    if value is None:
        return None
    v = value.strip()
    if v.startswith("W/"):
        v = v[2:]
    return v.strip('"')


@app.route("/people", methods=["GET"])
def list_people():
    items = list(store.values())
    where = request.args.get("where")
    if where:
        try:
            cond = json.loads(where)
            items = [d for d in items if all(d.get(k) == v for k, v in cond.items())]
        except (ValueError, AttributeError):
            return error(400, "invalid where clause")
    for f in FIELDS:
        if f in request.args:
            items = [d for d in items if d.get(f) == request.args[f]]
    try:
        page = max(int(request.args.get("page", 1)), 1)
        max_results = max(int(request.args.get("max_results", 25)), 1)
    except ValueError:
        return error(400, "invalid pagination params")
    total = len(items)
    chunk = items[(page - 1) * max_results: page * max_results]
    return jsonify({
        "_items": [public(d) for d in chunk],
        "_meta": {"page": page, "max_results": max_results, "total": total},
        "_links": {"self": {"href": "people", "title": "people"}},
    })


@app.route("/people", methods=["POST"])
def create_person():
    data = request.get_json(silent=True)
    issues = validate(data)
    if issues:
        resp = jsonify({"_status": "ERR", "_issues": issues, "_error": {"code": 422, "message": "Insertion failure"}})
        resp.status_code = 422
        return resp
    ts = now_str()
    doc = {"_id": uuid.uuid4().hex[:24]}
    for f in FIELDS:
        doc[f] = data[f]
    doc["_created"] = ts
    doc["_updated"] = ts
    doc["_nonce"] = uuid.uuid4().hex
    doc["_etag"] = compute_etag(doc)
    with lock:
        store[doc["_id"]] = doc
    body = public(doc)
    body["_status"] = "OK"
    resp = jsonify(body)
    resp.status_code = 201
    resp.headers["ETag"] = '"%s"' % doc["_etag"]
    resp.headers["Location"] = "/people/%s" % doc["_id"]
    return resp


@app.route("/people/<pid>", methods=["GET"])
def get_person(pid):
    doc = store.get(pid)
    if doc is None:
        return error(404, "The requested URL was not found on the server.")
    inm = request.headers.get("If-None-Match")
    if inm and clean_if_match(inm) == doc["_etag"]:
        return "", 304
    return item_response(doc)


def check_precondition(doc):
    im = request.headers.get("If-Match")
    if im is None:
        return error(428, "To edit a document its etag must be provided using the If-Match header")
    if clean_if_match(im) != doc["_etag"] and im.strip() != "*":
        return error(412, "Client and server etags don't match")
    return None


@app.route("/people/<pid>", methods=["PUT", "PATCH"])
def update_person(pid):
    doc = store.get(pid)
    if doc is None:
        return error(404, "The requested URL was not found on the server.")
    pre = check_precondition(doc)
    if pre is not None:
        return pre
    data = request.get_json(silent=True)
    issues = validate(data, partial=True)
    if issues:
        resp = jsonify({"_status": "ERR", "_issues": issues, "_error": {"code": 422, "message": "Update failure"}})
        resp.status_code = 422
        return resp
    with lock:
        for f in FIELDS:
            if f in data:
                doc[f] = data[f]
        doc["_updated"] = now_str()
        doc["_nonce"] = uuid.uuid4().hex
        doc["_etag"] = compute_etag(doc)
    return item_response(doc)


@app.route("/people/<pid>", methods=["DELETE"])
def delete_person(pid):
    doc = store.get(pid)
    if doc is None:
        return error(404, "The requested URL was not found on the server.")
    pre = check_precondition(doc)
    if pre is not None:
        return pre
    with lock:
        store.pop(pid, None)
    return "", 204


@app.route("/", methods=["GET"])
def home():
    return jsonify({"_links": {"child": [{"href": "people", "title": "people"}]}})


@app.errorhandler(404)
def nf(e):
    return error(404, "The requested URL was not found on the server.")


@app.errorhandler(405)
def mna(e):
    return error(405, "Method not allowed")


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5001)
