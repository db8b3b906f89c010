"""Helpers for validating JSON request bodies."""
from typing import Any, Dict, Iterable

from flask import request

from .errors import APIError


def get_json_object() -> Dict[str, Any]:
    """Return the request body as a dict, or raise a 400 APIError."""
    data = request.get_json(force=True, silent=True)
    if data is None:
        raise APIError("Request body must be valid JSON", 400)
    if not isinstance(data, dict):
        raise APIError("Request body must be a JSON object", 400)
    return data


def require_strings(data: Dict[str, Any], fields: Iterable[str]) -> Dict[str, str]:
    """Ensure every field is present, a string and not blank; return stripped values."""
    fields = list(fields)
    missing = [f for f in fields if data.get(f) is None]
    if missing:
        raise APIError("Missing required field(s): " + ", ".join(missing), 400)
    values: Dict[str, str] = {}
    for field in fields:
        value = data[field]
        if not isinstance(value, str):
            raise APIError(f"Field '{field}' must be a string", 400)
        if not value.strip():
            raise APIError(f"Field '{field}' must not be empty", 400)
        values[field] = value
    return values
