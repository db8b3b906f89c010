"""Request parsing and JSON Schema validation."""
from typing import Any

from flask import request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .errors import bad_json, invalid_param, not_json

_validators: dict[int, Draft202012Validator] = {}


def _validator(schema: dict) -> Draft202012Validator:
    key = id(schema)
    if key not in _validators:
        Draft202012Validator.check_schema(schema)
        _validators[key] = Draft202012Validator(schema)
    return _validators[key]


def json_body(schema: dict) -> dict[str, Any]:
    """Parse the request body as JSON and validate it against ``schema``."""
    raw = request.get_data(cache=True)
    if not raw or not raw.strip():
        raise not_json("Request body is empty; a JSON object is expected.")
    data = request.get_json(silent=True, force=True)
    if data is None:
        raise not_json("Request body is not valid JSON.")
    error = best_match(_validator(schema).iter_errors(data))
    if error is not None:
        location = "/".join(str(p) for p in error.absolute_path)
        where = f" at '{location}'" if location else ""
        raise bad_json(f"Invalid request{where}: {error.message}")
    return data


def int_query_param(name: str, default: int, minimum: int, maximum: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    raw = raw.strip()
    try:
        value = int(raw, 10)
    except ValueError:
        raise invalid_param(f"'{name}' must be an integer") from None
    if not minimum <= value <= maximum:
        raise invalid_param(f"'{name}' must be between {minimum} and {maximum}")
    return value
