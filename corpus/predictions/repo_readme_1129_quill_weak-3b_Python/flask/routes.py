from flask import Blueprint, jsonify, request

bp = Blueprint("api", __name__)


def bad_request(reason):
    return jsonify({"error": reason}), 400


@bp.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"}), 200


@bp.route("/echo", methods=["POST"])
def echo():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return bad_request("request body must be a JSON object")
    if "message" not in data:
        return bad_request("missing field: message")
    message = data["message"]
    if not isinstance(message, str):
        return bad_request("message must be a string")
    return jsonify({"message": message, "length": len(message)}), 200


def parse_int(value):
    if value is None:
        return None
    try:
        return int(value.strip())
    except (ValueError, AttributeError):
        return None


@bp.route("/sum", methods=["GET"])
def sum_numbers():
    a_raw = request.args.get("a")
    b_raw = request.args.get("b")
    if a_raw is None or b_raw is None:
        return bad_request("missing parameter: a and b are required")
    a = parse_int(a_raw)
    b = parse_int(b_raw)
    if a is None or b is None:
        return bad_request("parameters a and b must be integers")
    return jsonify({"result": a + b}), 200
