"""Payload validation for the ``people`` resource.

Both validators return a dict mapping field name -> error message
(Eve-style ``_issues``). An empty dict means the payload is valid.
"""

ALLOWED_FIELDS = ("firstname", "lastname", "role")
REQUIRED_FIELDS = ("firstname", "lastname")
MAX_FIELD_LENGTH = 256


def _check_fields(payload, errors):
    """Type/unknown-field checks shared by create and update."""
    for key, value in payload.items():
        if key not in ALLOWED_FIELDS:
            errors[key] = "unknown field"
            continue
        if not isinstance(value, str):
            errors[key] = "must be of string type"
        elif not value.strip():
            errors[key] = "empty values not allowed"
        elif len(value) > MAX_FIELD_LENGTH:
            errors[key] = "max length is {}".format(MAX_FIELD_LENGTH)


def validate_create(payload):
    """Validate a POST /people body; returns a dict of field errors."""
    if not isinstance(payload, dict):
        return {"_body": "request body must be a JSON object"}
    errors = {}
    for field in REQUIRED_FIELDS:
        if field not in payload or payload.get(field) is None:
            errors[field] = "required field"
    _check_fields({k: v for k, v in payload.items() if k not in errors}, errors)
    return errors


def validate_update(payload):
    """Validate a PUT /people/{id} body (any subset of the fields)."""
    if not isinstance(payload, dict):
        return {"_body": "request body must be a JSON object"}
    errors = {}
    if not payload:
        errors["_body"] = "at least one of {} is required".format(", ".join(ALLOWED_FIELDS))
        return errors
    _check_fields(payload, errors)
    return errors


def extract_fields(payload):
    """Return only the allowed fields of *payload* (after validation)."""
    if not isinstance(payload, dict):
        return {}
    return {k: payload[k] for k in ALLOWED_FIELDS if k in payload}


# Aliases for other naming conventions.
validate_create_payload = validate_create
validate_person_create = validate_create
validate_update_payload = validate_update
validate_person_update = validate_update
