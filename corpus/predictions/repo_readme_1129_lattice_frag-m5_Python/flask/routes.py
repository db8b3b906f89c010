"""Endpoints of the Flask microservice: /health, /echo and /sum."""

from flask import jsonify, request

from validators import validate_echo_body, validate_sum_query


def health():
    return jsonify({"status": "ok"}), 200


def echo():
    payload = request.get_json(silent=True)
    error = validate_echo_body(payload)
    if error:
        return jsonify({"error": error}), 400
    message = payload["message"]
    return jsonify({"message": message, "length": len(message)}), 200


def sum_numbers():
    error = validate_sum_query(request.args)
    if error:
        return jsonify({"error": error}), 400
    a = int(request.args["a"].strip())
    b = int(request.args["b"].strip())
    return jsonify({"result": a + b}), 200


def register_routes(app):
    """Attach the three endpoints to the given Flask app."""
    app.add_url_rule("/health", "health", health, methods=["GET"])
    app.add_url_rule("/echo", "echo", echo, methods=["POST"])
    app.add_url_rule("/sum", "sum", sum_numbers, methods=["GET"])
