from flask import Flask, request, jsonify

app = Flask(__name__)


@app.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"}), 200


@app.route("/echo", methods=["POST"])
def echo():
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or "message" not in data:
        return jsonify({"error": "missing 'message' field"}), 400
    msg = data["message"]
    if not isinstance(msg, str):
        return jsonify({"error": "'message' must be a string"}), 400
    return jsonify({"message": msg, "length": len(msg)}), 200


@app.route("/sum", methods=["GET"])
def sum_route():
    a = request.args.get("a")
    b = request.args.get("b")
    if a is None or b is None:
        return jsonify({"error": "parameters 'a' and 'b' are required"}), 400
    try:
        a = int(a)
        b = int(b)
    except ValueError:
        return jsonify({"error": "parameters 'a' and 'b' must be integers"}), 400
    return jsonify({"result": a + b}), 200


@app.errorhandler(404)
def not_found(e):
    return jsonify({"error": "not found"}), 404


@app.errorhandler(405)
def method_not_allowed(e):
    return jsonify({"error": "method not allowed"}), 405


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
