"""Strict request validation for the Synapse benchmark message service.

Every ``validate_*`` function returns the cleaned value(s) on success and
raises :class:`ValidationError` on failure.  The error carries an HTTP status
(400), a Matrix-style ``errcode`` and a human readable ``message``; use
:meth:`ValidationError.to_dict` to build the JSON error body.
"""

import re

USERNAME_MIN = 3
USERNAME_MAX = 64
PASSWORD_MIN = 6
PASSWORD_MAX = 128
DISPLAY_NAME_MIN = 1
DISPLAY_NAME_MAX = 128
BODY_MIN = 1
BODY_MAX = 4000

DEFAULT_LIMIT = 20
MIN_LIMIT = 1
MAX_LIMIT = 100

MESSAGE_TYPES = ("m.text",)

# Usernames become the localpart of "@<username>:<server>", so they must not
# contain ':' or '@' or whitespace.
USERNAME_RE = re.compile(r"^[A-Za-z0-9._=\-+]+$")
ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:/\s]+$")
LIMIT_RE = re.compile(r"^[0-9]+$")


class ValidationError(Exception):
    """Raised when request input does not satisfy the contract."""

    def __init__(self, message, errcode="M_BAD_JSON", field=None, status_code=400):
        super().__init__(message)
        self.message = message
        self.errcode = errcode
        self.error_code = errcode
        self.field = field
        self.status_code = status_code

    def to_dict(self):
        body = {"errcode": self.errcode, "error": self.message}
        if self.field:
            body["field"] = self.field
        return body


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def _require_object(body):
    if not isinstance(body, dict):
        raise ValidationError("Request body must be a JSON object", "M_NOT_JSON")


def _reject_unknown(body, allowed, where="body"):
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise ValidationError(
            "Unknown field(s) in %s: %s" % (where, ", ".join(map(str, unknown))),
            "M_BAD_JSON",
            field=str(unknown[0]),
        )


def _require_fields(body, required):
    for name in required:
        if name not in body:
            raise ValidationError("Missing required field: %s" % name,
                                  "M_MISSING_PARAM", field=name)


def _string(body, name, min_len=None, max_len=None):
    value = body[name]
    if not isinstance(value, str):
        raise ValidationError("Field '%s' must be a string" % name,
                              "M_INVALID_PARAM", field=name)
    if min_len is not None and len(value) < min_len:
        raise ValidationError("Field '%s' must be at least %d characters" % (name, min_len),
                              "M_INVALID_PARAM", field=name)
    if max_len is not None and len(value) > max_len:
        raise ValidationError("Field '%s' must be at most %d characters" % (name, max_len),
                              "M_INVALID_PARAM", field=name)
    return value


# ---------------------------------------------------------------------------
# Bodies
# ---------------------------------------------------------------------------

def validate_register(body):
    """Validate a /register body.

    Returns ``{"username", "password", "display_name"}`` (display_name may be
    None when not supplied).
    """
    _require_object(body)
    _reject_unknown(body, ("username", "password", "display_name"))
    _require_fields(body, ("username", "password"))
    username = _string(body, "username", USERNAME_MIN, USERNAME_MAX)
    if not USERNAME_RE.match(username):
        raise ValidationError(
            "Field 'username' may only contain letters, digits and . _ = - +",
            "M_INVALID_USERNAME", field="username")
    password = _string(body, "password", PASSWORD_MIN, PASSWORD_MAX)
    display_name = None
    if "display_name" in body:
        display_name = _string(body, "display_name", DISPLAY_NAME_MIN, DISPLAY_NAME_MAX)
    return {"username": username, "password": password, "display_name": display_name}


def validate_login(body):
    """Validate a /login body. Returns ``{"username", "password"}``."""
    _require_object(body)
    _reject_unknown(body, ("username", "password"))
    _require_fields(body, ("username", "password"))
    username = _string(body, "username")
    password = _string(body, "password")
    return {"username": username, "password": password}


def validate_send_message(body):
    """Validate a send-message body.

    Returns ``{"type": "m.text", "content": {"body": <str>}}``.
    """
    _require_object(body)
    _reject_unknown(body, ("type", "content"))
    _require_fields(body, ("type", "content"))

    msg_type = body["type"]
    if not isinstance(msg_type, str) or msg_type not in MESSAGE_TYPES:
        raise ValidationError("Field 'type' must be one of: %s" % ", ".join(MESSAGE_TYPES),
                              "M_INVALID_PARAM", field="type")

    content = body["content"]
    if not isinstance(content, dict):
        raise ValidationError("Field 'content' must be an object",
                              "M_INVALID_PARAM", field="content")
    _reject_unknown(content, ("body",), where="content")
    if "body" not in content:
        raise ValidationError("Missing required field: content.body",
                              "M_MISSING_PARAM", field="content.body")
    text = content["body"]
    if not isinstance(text, str):
        raise ValidationError("Field 'content.body' must be a string",
                              "M_INVALID_PARAM", field="content.body")
    if len(text) < BODY_MIN or len(text) > BODY_MAX:
        raise ValidationError(
            "Field 'content.body' must be between %d and %d characters" % (BODY_MIN, BODY_MAX),
            "M_INVALID_PARAM", field="content.body")
    return {"type": msg_type, "content": {"body": text}}


# ---------------------------------------------------------------------------
# Path / query parameters
# ---------------------------------------------------------------------------

def is_valid_room_id(room_id):
    return isinstance(room_id, str) and ROOM_ID_RE.match(room_id) is not None


def validate_room_id(room_id):
    """Return *room_id* if it matches ``!<alnum>:<server>``; else raise."""
    if not is_valid_room_id(room_id):
        raise ValidationError("Invalid room id; expected format '!<id>:<server>'",
                              "M_INVALID_PARAM", field="room_id")
    return room_id


def validate_limit(raw):
    """Parse the ``limit`` query parameter.

    ``None`` (absent) yields the default of 20.  Anything that is not a plain
    integer in 1..100 is rejected.
    """
    if raw is None:
        return DEFAULT_LIMIT
    if isinstance(raw, bool):
        raise ValidationError("Parameter 'limit' must be an integer",
                              "M_INVALID_PARAM", field="limit")
    if isinstance(raw, int):
        value = raw
    else:
        text = str(raw).strip()
        if not LIMIT_RE.match(text):
            raise ValidationError("Parameter 'limit' must be an integer",
                                  "M_INVALID_PARAM", field="limit")
        value = int(text)
    if value < MIN_LIMIT or value > MAX_LIMIT:
        raise ValidationError(
            "Parameter 'limit' must be between %d and %d" % (MIN_LIMIT, MAX_LIMIT),
            "M_INVALID_PARAM", field="limit")
    return value


# Aliases for alternative naming conventions.
validate_register_body = validate_register
validate_registration = validate_register
validate_login_body = validate_login
validate_message = validate_send_message
validate_send_message_body = validate_send_message
parse_limit = validate_limit
