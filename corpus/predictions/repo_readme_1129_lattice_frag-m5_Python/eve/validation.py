"""Validation of `people` payloads against the resource schema.

Both validators return a dict mapping field names to error messages; an empty
dict means the payload is valid. Meta fields managed by the server (keys
starting with an underscore such as ``_id`` or ``_etag``) are ignored.
"""
from config import PEOPLE_SCHEMA

_TYPE_MAP = {
    "string": str,
    "str": str,
    "integer": int,
    "int": int,
    "float": float,
    "number": (int, float),
    "boolean": bool,
    "bool": bool,
    "dict": dict,
    "list": list,
}


def _is_meta_field(name):
    return isinstance(name, str) and (name.startswith("_") or name == "id")


def _expected_type(rule):
    declared = rule.get("type", "string") if isinstance(rule, dict) else "string"
    if isinstance(declared, type):
        return declared
    return _TYPE_MAP.get(str(declared).lower(), str)


def _type_name(expected):
    if isinstance(expected, tuple):
        return "number"
    return {str: "string", int: "integer", float: "float", bool: "boolean", dict: "dict", list: "list"}.get(
        expected, getattr(expected, "__name__", "value")
    )


def _check_value(field, value, rule):
    """Return an error message for ``value`` or None if it is acceptable."""
    rule = rule if isinstance(rule, dict) else {}
    if value is None:
        if rule.get("nullable", False):
            return None
        return "null value not allowed"

    expected = _expected_type(rule)
    # bool is a subclass of int; do not accept it where a number is expected
    if isinstance(value, bool) and expected is not bool and not (
        isinstance(expected, tuple) and bool in expected
    ):
        return "must be of %s type" % _type_name(expected)
    if not isinstance(value, expected):
        return "must be of %s type" % _type_name(expected)

    if isinstance(value, str):
        if rule.get("empty", True) is False and not value.strip():
            return "empty values not allowed"
        minlength = rule.get("minlength")
        if minlength is not None and len(value) < minlength:
            return "min length is %d" % minlength
        maxlength = rule.get("maxlength")
        if maxlength is not None and len(value) > maxlength:
            return "max length is %d" % maxlength

    allowed = rule.get("allowed")
    if allowed is not None and value not in allowed:
        return "unallowed value %r" % (value,)
    return None


def _validate(payload, partial):
    if not isinstance(payload, dict):
        return {"_payload": "request body must be a JSON object"}

    errors = {}
    fields = {k: v for k, v in payload.items() if not _is_meta_field(k)}

    if not fields:
        return {"_payload": "document is empty"}

    for name, value in fields.items():
        if name not in PEOPLE_SCHEMA:
            errors[name] = "unknown field"
            continue
        message = _check_value(name, value, PEOPLE_SCHEMA[name])
        if message:
            errors[name] = message

    if not partial:
        for name, rule in PEOPLE_SCHEMA.items():
            if isinstance(rule, dict) and rule.get("required") and name not in fields:
                errors[name] = "required field"

    return errors


def validate_create(payload):
    """Validate a full document for POST /people."""
    return _validate(payload, partial=False)


def validate_update(payload):
    """Validate a partial document for PUT /people/<id>."""
    return _validate(payload, partial=True)
