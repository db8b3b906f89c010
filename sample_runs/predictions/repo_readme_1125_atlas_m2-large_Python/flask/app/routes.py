"""HTTP endpoints."""
from flask import Blueprint, jsonify, request

from .validators import json_object, query_int, required_string

bp = Blueprint("api", __name__)


@bp.get("/health")
def health():
    return jsonify({"status": "ok"}), 200


@bp.post("/echo")
def echo():
    data = json_object(request)
    message = required_string(data, "message")
    return jsonify({"message": message, "length": len(message)}), 200


@bp.get("/sum")
def sum_():
    a = query_int(request.args, "a")
    b = query_int(request.args, "b")
    return jsonify({"result": a + b}), 200
