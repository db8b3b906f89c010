"""Input validation for the echo and sum endpoints.

Each validator returns the cleaned values or raises :class:`ValidationError`
whose ``reason`` (also its ``str()``) describes what is wrong.
"""

import re

_INT_RE = re.compile(r"^[+-]?\d+$")


class ValidationError(ValueError):
    """Raised when request input does not satisfy the API contract."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def validate_echo_body(data):
    """Validate the parsed JSON body of ``POST /echo``.

    ``data`` is the result of parsing the request body (None if the body was
    missing or not valid JSON). Returns the message string.
    """
    if data is None:
        raise ValidationError("request body must be a JSON object with a 'message' field")
    if not isinstance(data, dict):
        raise ValidationError("request body must be a JSON object")
    if "message" not in data:
        raise ValidationError("missing required field 'message'")
    message = data["message"]
    if not isinstance(message, str):
        raise ValidationError("field 'message' must be a string")
    return message


def _parse_int(name, raw):
    if raw is None:
        raise ValidationError("missing required query parameter '%s'" % name)
    text = str(raw).strip()
    if text == "":
        raise ValidationError("query parameter '%s' must not be empty" % name)
    if not _INT_RE.match(text):
        raise ValidationError("query parameter '%s' must be an integer" % name)
    return int(text)


def validate_sum_query(args):
    """Validate the query parameters of ``GET /sum``.

    ``args`` is a mapping such as ``request.args``. Returns ``(a, b)`` ints.
    """
    a = _parse_int("a", args.get("a"))
    b = _parse_int("b", args.get("b"))
    return a, b
