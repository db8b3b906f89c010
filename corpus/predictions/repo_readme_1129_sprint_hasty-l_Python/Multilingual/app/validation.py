"""Request payload helpers."""
from typing import Any, Dict, Iterable

from flask import request

from app.errors import APIError


def get_json_body() -> Dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        raise APIError("Request body must be valid JSON", 400)
    if not isinstance(data, dict):
        raise APIError("Request body must be a JSON object", 400)
    return data


def require_fields(data: Dict[str, Any], fields: Iterable[str]) -> None:
    missing = [f for f in fields if f not in data or data[f] is None]
    if missing:
        raise APIError(f"Missing required field(s): {', '.join(missing)}", 400)
    for f in fields:
        if not isinstance(data[f], str):
            raise APIError(f"Field '{f}' must be a string", 400)
        if not data[f].strip():
            raise APIError(f"Field '{f}' must not be empty", 400)
