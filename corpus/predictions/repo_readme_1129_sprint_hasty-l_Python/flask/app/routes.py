from flask import Blueprint, jsonify, request

from app.validators import require_int_arg, require_string

bp = Blueprint("api", __name__)


@bp.get("/health")
def health():
    return jsonify({"status": "ok"}), 200


@bp.post("/echo")
def echo():
    payload = request.get_json(silent=True)
    message = require_string(payload, "message")
    return jsonify({"message": message, "length": len(message)}), 200


@bp.get("/sum")
def sum_numbers():
    a = require_int_arg(request.args, "a")
    b = require_int_arg(request.args, "b")
    return jsonify({"result": a + b}), 200
