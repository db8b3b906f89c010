"""HTTP endpoints: /health, /echo and /sum."""

from flask import Blueprint, jsonify, request

from .validation import validate_echo_body, validate_sum_query

bp = Blueprint("service", __name__)


def _bad_request(reason):
    return jsonify({"error": reason}), 400


@bp.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"}), 200


@bp.route("/echo", methods=["POST"])
def echo():
    payload = request.get_json(silent=True)
    message, error = validate_echo_body(payload)
    if error is not None:
        return _bad_request(error)
    return jsonify({"message": message, "length": len(message)}), 200


@bp.route("/sum", methods=["GET"])
def sum_numbers():
    a, b, error = validate_sum_query(request.args)
    if error is not None:
        return _bad_request(error)
    return jsonify({"result": a + b}), 200
