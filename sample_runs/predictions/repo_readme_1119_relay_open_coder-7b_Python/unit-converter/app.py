from flask import Flask, jsonify, request

from conversions import UNITS, convert

app = Flask(__name__)


def do_convert(value, src, dst):
    return {"value": float(value), "from_unit": src, "to_unit": dst,
            "result": convert(float(value), src, dst)}


@app.route("/health")
def health():
    return jsonify({"status": "ok"})


@app.route("/units")
def units():
    return jsonify(UNITS)


@app.route("/convert")
def convert_one():
    try:
        value = float(request.args["value"])
        src = request.args["from_unit"]
        dst = request.args["to_unit"]
    except (KeyError, ValueError):
        return jsonify({"detail": "value, from_unit and to_unit are required"}), 422
    try:
        return jsonify(do_convert(value, src, dst))
    except ValueError as e:
        return jsonify({"detail": str(e)}), 400


@app.route("/convert/batch", methods=["POST"])
def convert_batch():
    data = request.get_json(silent=True) or {}
    results = []
    try:
        for item in data.get("items", []):
            results.append(do_convert(item["value"], item["from_unit"], item["to_unit"]))
    except (KeyError, TypeError, ValueError) as e:
        return jsonify({"detail": str(e)}), 400
    return jsonify({"results": results})
