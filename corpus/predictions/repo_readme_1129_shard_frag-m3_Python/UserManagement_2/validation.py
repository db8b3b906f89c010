"""Input validation rules for the user management service.

Each ``validate_*`` function takes the decoded JSON body of a request and
returns a cleaned dictionary containing only the accepted fields.  When the
payload is invalid a :class:`ValidationError` is raised; it carries an HTTP
status, a machine readable ``error_code`` and a ``details`` mapping of
``field -> problem description`` that can be put straight into the unified
error response::

    {"success": false, "message": ..., "error_code": ..., "details": {...}}
"""

import re

# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 20
PASSWORD_MIN_LENGTH = 6
PASSWORD_MAX_LENGTH = 50
FULL_NAME_MAX_LENGTH = 100
EMAIL_MAX_LENGTH = 254

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.\-]+$")
EMAIL_PATTERN = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+"
    r"@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)+$"
)

# ---------------------------------------------------------------------------
# Error codes
# ---------------------------------------------------------------------------

VALIDATION_ERROR = "VALIDATION_ERROR"
INVALID_REQUEST = "INVALID_REQUEST"


class ValidationError(Exception):
    """Raised when a request payload does not satisfy the validation rules."""

    def __init__(self, message="Validation failed", error_code=VALIDATION_ERROR,
                 details=None, status_code=400):
        super().__init__(message)
        self.message = message
        self.error_code = error_code
        self.details = details or {}
        self.status_code = status_code

    def to_dict(self):
        body = {
            "success": False,
            "message": self.message,
            "error_code": self.error_code,
        }
        if self.details:
            body["details"] = self.details
        return body


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def _ensure_object(data):
    if not isinstance(data, dict):
        raise ValidationError(
            "Request body must be a JSON object",
            error_code=INVALID_REQUEST,
            details={"body": "Expected a JSON object"},
        )


def _fail_if_errors(errors):
    if errors:
        raise ValidationError("Validation failed", error_code=VALIDATION_ERROR,
                              details=errors)


def is_valid_email(value):
    """Return True when *value* looks like a valid email address."""
    if not isinstance(value, str):
        return False
    value = value.strip()
    if not value or len(value) > EMAIL_MAX_LENGTH:
        return False
    local, _, _domain = value.rpartition("@")
    if len(local) > 64:
        return False
    if ".." in value:
        return False
    return EMAIL_PATTERN.match(value) is not None


def _check_username(value, errors):
    if value is None:
        errors["username"] = "Username is required"
        return None
    if not isinstance(value, str):
        errors["username"] = "Username must be a string"
        return None
    value = value.strip()
    if not value:
        errors["username"] = "Username is required"
        return None
    if not (USERNAME_MIN_LENGTH <= len(value) <= USERNAME_MAX_LENGTH):
        errors["username"] = "Username must be between %d and %d characters" % (
            USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH)
        return None
    if not USERNAME_PATTERN.match(value):
        errors["username"] = ("Username may only contain letters, digits, "
                              "underscores, dots and hyphens")
        return None
    return value


def _check_email(value, errors, required=True):
    if value is None:
        if required:
            errors["email"] = "Email is required"
        return None
    if not isinstance(value, str):
        errors["email"] = "Email must be a string"
        return None
    value = value.strip()
    if not value:
        errors["email"] = "Email is required" if required else "Email must not be empty"
        return None
    if not is_valid_email(value):
        errors["email"] = "Invalid email format"
        return None
    return value


def _check_password(value, errors):
    if value is None:
        errors["password"] = "Password is required"
        return None
    if not isinstance(value, str):
        errors["password"] = "Password must be a string"
        return None
    if not value:
        errors["password"] = "Password is required"
        return None
    if not (PASSWORD_MIN_LENGTH <= len(value) <= PASSWORD_MAX_LENGTH):
        errors["password"] = "Password must be between %d and %d characters" % (
            PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
        return None
    return value


def _check_full_name(value, errors):
    """Optional full name; ``None`` is accepted and normalised to ''."""
    if value is None:
        return ""
    if not isinstance(value, str):
        errors["full_name"] = "Full name must be a string"
        return None
    value = value.strip()
    if len(value) > FULL_NAME_MAX_LENGTH:
        errors["full_name"] = "Full name must be at most %d characters" % FULL_NAME_MAX_LENGTH
        return None
    return value


# ---------------------------------------------------------------------------
# Public validators
# ---------------------------------------------------------------------------

def validate_registration(data):
    """Validate a registration payload.

    Returns ``{"username", "email", "password", "full_name"}``.
    Raises :class:`ValidationError` on failure.
    """
    _ensure_object(data)
    errors = {}
    username = _check_username(data.get("username"), errors)
    email = _check_email(data.get("email"), errors, required=True)
    password = _check_password(data.get("password"), errors)
    full_name = _check_full_name(data.get("full_name"), errors)
    _fail_if_errors(errors)
    return {
        "username": username,
        "email": email,
        "password": password,
        "full_name": full_name,
    }


def validate_login(data):
    """Validate a login payload.

    Only presence and type are checked (length rules are not applied so a
    wrong password simply fails authentication).  Returns
    ``{"username", "password"}``.
    """
    _ensure_object(data)
    errors = {}
    username = data.get("username")
    password = data.get("password")

    if username is None or (isinstance(username, str) and not username.strip()):
        errors["username"] = "Username is required"
    elif not isinstance(username, str):
        errors["username"] = "Username must be a string"

    if password is None or (isinstance(password, str) and password == ""):
        errors["password"] = "Password is required"
    elif not isinstance(password, str):
        errors["password"] = "Password must be a string"

    _fail_if_errors(errors)
    return {"username": username.strip(), "password": password}


UPDATABLE_FIELDS = ("email", "full_name")


def validate_update(data):
    """Validate an update payload.

    Only ``email`` and ``full_name`` may be changed; at least one of them must
    be supplied.  Returns a dict with the supplied (cleaned) fields only.
    """
    _ensure_object(data)
    errors = {}
    cleaned = {}

    if "email" in data:
        email = _check_email(data.get("email"), errors, required=True)
        if email is not None:
            cleaned["email"] = email

    if "full_name" in data:
        full_name = _check_full_name(data.get("full_name"), errors)
        if full_name is not None:
            cleaned["full_name"] = full_name

    _fail_if_errors(errors)

    if not any(field in data for field in UPDATABLE_FIELDS):
        raise ValidationError(
            "No updatable fields provided",
            error_code=VALIDATION_ERROR,
            details={"fields": "Provide at least one of: %s" % ", ".join(UPDATABLE_FIELDS)},
        )
    return cleaned


# Aliases for alternative naming conventions.
validate_register = validate_registration
validate_registration_payload = validate_registration
validate_login_payload = validate_login
validate_update_payload = validate_update
validate_user_update = validate_update
