"""Input validation for the /echo and /sum endpoints.

Each validator returns ``(value, error)`` where ``error`` is ``None`` on
success or a human-readable reason string; :func:`error_response` turns a
reason into a JSON 400 response. :class:`ValidationError` is also provided
for callers that prefer exceptions (see the ``*_or_raise`` helpers).
"""

import re

from flask import jsonify

_INT_RE = re.compile(r"^[+-]?\d+$")


class ValidationError(ValueError):
    """Invalid request input; ``reason`` is the message for the client."""

    def __init__(self, reason, status_code=400):
        super().__init__(reason)
        self.reason = reason
        self.status_code = status_code


def error_response(reason, status_code=400):
    """JSON error response ``{"error": reason}`` with the given status."""
    response = jsonify({"error": reason})
    response.status_code = status_code
    return response


def validate_echo_body(data):
    """Check the /echo JSON body; returns ``(message, error)``."""
    if data is None:
        return None, "request body must be valid JSON"
    if not isinstance(data, dict):
        return None, "request body must be a JSON object"
    if "message" not in data:
        return None, "missing 'message' field"
    message = data["message"]
    if not isinstance(message, str):
        return None, "'message' must be a string"
    return message, None


def parse_int_param(args, name):
    """Read integer query parameter *name* from *args*; ``(value, error)``."""
    raw = args.get(name) if args is not None else None
    if raw is None:
        return None, "missing query parameter '{}'".format(name)
    text = raw.strip() if isinstance(raw, str) else raw
    if not isinstance(text, str) or not _INT_RE.match(text):
        return None, "query parameter '{}' must be an integer".format(name)
    return int(text), None


def validate_sum_params(args):
    """Check ``a`` and ``b``; returns ``((a, b), error)``."""
    a, error = parse_int_param(args, "a")
    if error:
        return None, error
    b, error = parse_int_param(args, "b")
    if error:
        return None, error
    return (a, b), None


def validate_echo_or_raise(data):
    message, error = validate_echo_body(data)
    if error:
        raise ValidationError(error)
    return message


def validate_sum_or_raise(args):
    values, error = validate_sum_params(args)
    if error:
        raise ValidationError(error)
    return values


# Aliases
validate_echo = validate_echo_body
validate_echo_payload = validate_echo_body
parse_int = parse_int_param
get_int_param = parse_int_param
