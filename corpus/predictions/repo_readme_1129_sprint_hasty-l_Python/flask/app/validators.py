from typing import Any, Mapping

from app.errors import BadRequest


def require_string(payload: Any, field: str) -> str:
    if not isinstance(payload, dict):
        raise BadRequest("request body must be a JSON object")
    if field not in payload:
        raise BadRequest(f"'{field}' is required")
    value = payload[field]
    if not isinstance(value, str):
        raise BadRequest(f"'{field}' must be a string")
    return value


def require_int_arg(args: Mapping[str, str], name: str) -> int:
    raw = args.get(name)
    if raw is None or raw.strip() == "":
        raise BadRequest(f"query parameter '{name}' is required")
    try:
        return int(raw.strip())
    except ValueError:
        raise BadRequest(f"query parameter '{name}' must be an integer")
