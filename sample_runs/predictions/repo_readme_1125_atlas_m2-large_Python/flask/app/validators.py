"""Input parsing helpers."""
import re

from flask import Request

from .errors import ValidationError

_INT_RE = re.compile(r"^[+-]?\d+$")


def json_object(request: Request) -> dict:
    """Return the request body as a JSON object or raise ValidationError."""
    # ``force``: also accept a JSON body sent without the JSON content type.
    data = request.get_json(silent=True, force=True)
    if data is None:
        raise ValidationError("request body must be valid JSON")
    if not isinstance(data, dict):
        raise ValidationError("request body must be a JSON object")
    return data


def required_string(data: dict, field: str) -> str:
    if field not in data:
        raise ValidationError(f"'{field}' is required")
    value = data[field]
    if not isinstance(value, str):
        raise ValidationError(f"'{field}' must be a string")
    return value


def query_int(args, name: str) -> int:
    raw = args.get(name)
    if raw is None or raw.strip() == "":
        raise ValidationError(f"query parameter '{name}' is required")
    raw = raw.strip()
    if not _INT_RE.match(raw):
        raise ValidationError(f"query parameter '{name}' must be an integer")
    return int(raw)
