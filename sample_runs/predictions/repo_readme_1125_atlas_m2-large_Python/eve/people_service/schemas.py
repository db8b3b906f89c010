"""Cerberus schemas of the exposed resources."""

_NAME_RULES = {
    "type": "string",
    "minlength": 1,
    "maxlength": 120,
    "empty": False,
    "required": True,
}

PEOPLE_SCHEMA = {
    "firstname": dict(_NAME_RULES),
    "lastname": dict(_NAME_RULES),
    # Free-form role such as "admin" or "user".
    "role": {
        "type": "string",
        "minlength": 1,
        "maxlength": 64,
        "empty": False,
        "required": True,
    },
}
