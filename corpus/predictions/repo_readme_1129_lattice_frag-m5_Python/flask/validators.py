"""Input validation for the echo body and the sum query parameters.

Each validator returns the parsed value(s) together with an error reason;
the error reason is ``None`` when the input is valid.
"""

import re

_INTEGER_RE = re.compile(r"^[+-]?[0-9]+$")


def validate_echo_body(body):
    """Validate the JSON body of ``POST /echo``.

    Returns ``(message, error)``. ``body`` must be a JSON object with a
    string field ``message``.
    """
    if body is None:
        return None, "request body must be a JSON object"
    if not isinstance(body, dict):
        return None, "request body must be a JSON object"
    if "message" not in body:
        return None, "'message' is required"
    message = body["message"]
    if not isinstance(message, str):
        return None, "'message' must be a string"
    return message, None


def _parse_strict_int(name, raw):
    """Parse ``raw`` as a strict integer; return ``(value, error)``."""
    if raw is None:
        return None, "'{}' is required".format(name)
    if not isinstance(raw, str):
        raw = str(raw)
    if raw == "":
        return None, "'{}' must not be empty".format(name)
    if not _INTEGER_RE.match(raw):
        return None, "'{}' must be an integer".format(name)
    return int(raw), None


def validate_sum_query(args):
    """Validate the query parameters of ``GET /sum``.

    ``args`` is a mapping (e.g. ``request.args``). Returns ``(a, b, error)``.
    Both ``a`` and ``b`` must be present and strictly integers.
    """
    a, error = _parse_strict_int("a", args.get("a"))
    if error:
        return None, None, error
    b, error = _parse_strict_int("b", args.get("b"))
    if error:
        return None, None, error
    return a, b, None
