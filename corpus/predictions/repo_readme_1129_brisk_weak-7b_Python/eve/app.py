import hashlib
import json
import threading
import uuid
from datetime import datetime

from flask import Flask, request, jsonify, make_response

app = Flask(__name__)

DB = {}
LOCK = threading.Lock()
FIELDS = ("firstname", "lastname", "role")


def now():
    return datetime.utcnow().strftime("%a, %d %b %Y %H:%M:%S GMT")


def make_etag(doc):
    data = {k: doc.get(k) for k in FIELDS}
    data["_updated"] = doc.get("_updated")
    data["_id"] = doc.get("_id")
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()


def error(status, message):
    resp = jsonify({"_status": "ERR", "_error": {"code": status, "message": message}})
    resp.status_code = status
    return resp


def item_response(doc, status=200):
    resp = make_response(jsonify(doc), status)
    resp.headers["ETag"] = '"%s"' % doc["_etag"]
    return resp


def validate(data, partial=False):
    if not isinstance(data, dict):
        return {"_body": "must be a JSON object"}
    issues = {}
    for k, v in data.items():
        if k not in FIELDS:
            issues[k] = "unknown field"
        elif not isinstance(v, str):
            issues[k] = "must be of string type"
    return issues


def get_if_match():
    val = request.headers.get("If-Match")
    if val is None:
        return None
    val = val.strip()
    if val.startswith("W/"):
        val = val[2:]
    return val.strip('"')


@app.route("/", methods=["GET"])
def root():
    return jsonify({"_links": {"child": [{"href": "people", "title": "people"}]}})


@app.route("/people", methods=["GET"])
def list_people():
    items = list(DB.values())
    where = request.args.get("where")
    if where:
        try:
            cond = json.loads(where)
            items = [d for d in items if all(d.get(k) == v for k, v in cond.items())]
        except Exception:
            return error(400, "invalid where clause")
    for f in FIELDS:
        if f in request.args:
            items = [d for d in items if d.get(f) == request.args.get(f)]
    try:
        page = int(request.args.get("page", 1))
        max_results = int(request.args.get("max_results", 25))
    except ValueError:
        return error(400, "invalid pagination")
    if page < 1:
        page = 1
    total = len(items)
    start = (page - 1) * max_results
    return jsonify({
        "_items": items[start:start + max_results],
        "_meta": {"page": page, "max_results": max_results, "total": total},
        "_links": {"self": {"href": "people", "title": "people"}},
    })


@app.route("/people", methods=["POST"])
def create_person():
    data = request.get_json(silent=True)
    if data is None:
        return error(400, "request body must be JSON")
    if isinstance(data, list):
        results = []
        for d in data:
            issues = validate(d)
            if issues:
                return make_response(jsonify({"_status": "ERR", "_issues": issues,
                                              "_error": {"code": 422, "message": "Insertion failure"}}), 422)
            results.append(_insert(d))
        return make_response(jsonify({"_status": "OK", "_items": results}), 201)
    issues = validate(data)
    if issues:
        return make_response(jsonify({"_status": "ERR", "_issues": issues,
                                      "_error": {"code": 422, "message": "Insertion failure"}}), 422)
    doc = _insert(data)
    return item_response(doc, 201)


def _insert(data):
    ts = now()
    doc = {"_id": uuid.uuid4().hex[:24]}
    for f in FIELDS:
        if f in data:
            doc[f] = data[f]
    doc["_created"] = ts
    doc["_updated"] = ts
    doc["_etag"] = make_etag(doc)
    doc["_status"] = "OK"
    with LOCK:
        DB[doc["_id"]] = doc
    return doc


@app.route("/people/<pid>", methods=["GET"])
def get_person(pid):
    doc = DB.get(pid)
    if not doc:
        return error(404, "item not found")
    inm = request.headers.get("If-None-Match")
    if inm and inm.strip().strip('"') == doc["_etag"]:
        resp = make_response("", 304)
        resp.headers["ETag"] = '"%s"' % doc["_etag"]
        return resp
    return item_response(doc)


def _check_etag(doc):
    etag = get_if_match()
    if etag is None:
        return error(428, "To edit a document its etag must be provided using the If-Match header")
    if etag != doc["_etag"] and etag != "*":
        return error(412, "Client and server etags don't match")
    return None


@app.route("/people/<pid>", methods=["PUT", "PATCH"])
def update_person(pid):
    with LOCK:
        doc = DB.get(pid)
        if not doc:
            return error(404, "item not found")
        bad = _check_etag(doc)
        if bad is not None:
            return bad
        data = request.get_json(silent=True)
        if data is None:
            return error(400, "request body must be JSON")
        issues = validate(data)
        if issues:
            return make_response(jsonify({"_status": "ERR", "_issues": issues,
                                          "_error": {"code": 422, "message": "Update failure"}}), 422)
        for f in FIELDS:
            if f in data:
                doc[f] = data[f]
        doc["_updated"] = now()
        doc["_etag"] = make_etag(doc) + uuid.uuid4().hex[:4]
    return item_response(doc)


@app.route("/people/<pid>", methods=["DELETE"])
def delete_person(pid):
    with LOCK:
        doc = DB.get(pid)
        if not doc:
            return error(404, "item not found")
        bad = _check_etag(doc)
        if bad is not None:
            return bad
        del DB[pid]
    return make_response("", 204)


@app.errorhandler(404)
def nf(e):
    return error(404, "The requested URL was not found on the server.")


@app.errorhandler(405)
def mna(e):
    return error(405, "The method is not allowed for the requested URL.")


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5001, threaded=True)
