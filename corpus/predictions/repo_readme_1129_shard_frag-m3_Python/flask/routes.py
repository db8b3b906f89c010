"""HTTP routes: GET /health, POST /echo and GET /sum.

The routes live on a blueprint (``bp``); ``register_routes(app)`` attaches it
to an application.  Input checking is delegated to ``validation``; every
validation failure is answered with HTTP 400 and a JSON body of the form
``{"error": "<reason>"}``.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Tuple

from flask import Blueprint, Flask, jsonify, request

try:
    from validation import parse_int_param, validate_echo_body
except ImportError:  # pragma: no cover - fallback keeps the routes usable
    _INT_RE = re.compile(r"^[+-]?\d+$")

    def validate_echo_body(data: Any) -> Tuple[Optional[str], Optional[str]]:
        """Return ``(message, None)`` for a valid body, else ``(None, reason)``."""
        if data is None:
            return None, "request body must be a JSON object"
        if not isinstance(data, dict):
            return None, "request body must be a JSON object"
        if "message" not in data:
            return None, "missing field: message"
        message = data["message"]
        if not isinstance(message, str):
            return None, "field 'message' must be a string"
        return message, None

    def parse_int_param(args: Any, name: str) -> Tuple[Optional[int], Optional[str]]:
        """Return ``(value, None)`` for a valid integer, else ``(None, reason)``."""
        raw = args.get(name)
        if raw is None or raw.strip() == "":
            return None, f"missing query parameter: {name}"
        if not _INT_RE.match(raw.strip()):
            return None, f"query parameter '{name}' must be an integer"
        return int(raw.strip()), None


bp = Blueprint("routes", __name__)
# Alternative names for the blueprint.
routes_bp = bp
blueprint = bp
api = bp


def _bad_request(reason: str):
    response = jsonify({"error": reason})
    response.status_code = 400
    return response


@bp.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"}), 200


@bp.route("/echo", methods=["POST"])
def echo():
    data = request.get_json(silent=True)
    if data is None and request.get_data(cache=True):
        return _bad_request("request body must be valid JSON")
    message, error = validate_echo_body(data)
    if error:
        return _bad_request(error)
    return jsonify({"message": message, "length": len(message)}), 200


@bp.route("/sum", methods=["GET"])
def sum_numbers():
    a, error = parse_int_param(request.args, "a")
    if error:
        return _bad_request(error)
    b, error = parse_int_param(request.args, "b")
    if error:
        return _bad_request(error)
    return jsonify({"result": a + b}), 200


def register_routes(app: Flask) -> Flask:
    """Attach the routes to ``app`` (idempotent) and return it."""
    if bp.name not in app.blueprints:
        app.register_blueprint(bp)
    return app


init_app = register_routes
