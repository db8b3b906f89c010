import os

from flask import Flask, jsonify, make_response, request

from schemas import FIELDS, validate
from store import people

app = Flask(__name__)


def err(status, message, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    return make_response(jsonify(body), status)


def with_etag(doc, status=200):
    resp = make_response(jsonify(doc), status)
    resp.headers["ETag"] = '"%s"' % doc["_etag"]
    return resp


def clean_etag(value):
    if value is None:
        return None
    value = value.strip()
    if value.startswith("W/"):
        value = value[2:]
    return value.strip('"')


@app.route("/people", methods=["GET"])
def list_people():
    filters = {k: v for k, v in request.args.items() if k in FIELDS}
    items = people.list(filters)
    return jsonify({"_items": items, "_meta": {"total": len(items), "page": 1, "max_results": 25}})


@app.route("/people", methods=["POST"])
def create_person():
    data = request.get_json(silent=True)
    if data is None:
        return err(400, "Invalid JSON body")
    errors = validate(data)
    if errors:
        return err(422, "Insertion failure", errors)
    doc = people.create({k: data[k] for k in FIELDS})
    body = dict(doc)
    body["_status"] = "OK"
    resp = make_response(jsonify(body), 201)
    resp.headers["ETag"] = '"%s"' % doc["_etag"]
    resp.headers["Location"] = "/people/%s" % doc["_id"]
    return resp


@app.route("/people/<doc_id>", methods=["GET"])
def get_person(doc_id):
    doc = people.get(doc_id)
    if doc is None:
        return err(404, "The requested URL was not found on the server.")
    return with_etag(doc)


def check_etag(doc):
    if_match = request.headers.get("If-Match")
    if not if_match:
        return err(428, "To edit a document its etag must be provided using the If-Match header")
    if clean_etag(if_match) != doc["_etag"]:
        return err(412, "Client and server etags don't match")
    return None


@app.route("/people/<doc_id>", methods=["PUT", "PATCH"])
def update_person(doc_id):
    doc = people.get(doc_id)
    if doc is None:
        return err(404, "The requested URL was not found on the server.")
    problem = check_etag(doc)
    if problem is not None:
        return problem
    data = request.get_json(silent=True)
    if data is None:
        return err(400, "Invalid JSON body")
    data = {k: v for k, v in data.items() if not k.startswith("_")}
    errors = validate(data, partial=True)
    if errors:
        return err(422, "Update failure", errors)
    doc = people.update(doc_id, data)
    return with_etag(doc)


@app.route("/people/<doc_id>", methods=["DELETE"])
def delete_person(doc_id):
    doc = people.get(doc_id)
    if doc is None:
        return err(404, "The requested URL was not found on the server.")
    problem = check_etag(doc)
    if problem is not None:
        return problem
    people.delete(doc_id)
    return make_response("", 204)


if __name__ == "__main__":
    port = int(os.environ.get("PORT", 5001))
    app.run(host="0.0.0.0", port=port, threaded=True)
