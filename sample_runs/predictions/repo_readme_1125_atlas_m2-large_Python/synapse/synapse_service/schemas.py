"""JSON Schemas (2020-12) of the request bodies, as given by the contract."""

REGISTER_REQUEST = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["username", "password"],
    "properties": {
        "username": {"type": "string", "minLength": 3, "maxLength": 64},
        "password": {"type": "string", "minLength": 6, "maxLength": 128},
        "display_name": {"type": "string", "minLength": 1, "maxLength": 128},
    },
    "additionalProperties": False,
}

LOGIN_REQUEST = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["username", "password"],
    "properties": {
        "username": {"type": "string"},
        "password": {"type": "string"},
    },
    "additionalProperties": False,
}

SEND_MESSAGE_REQUEST = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["type", "content"],
    "properties": {
        "type": {"type": "string", "enum": ["m.text"]},
        "content": {
            "type": "object",
            "required": ["body"],
            "properties": {
                "body": {"type": "string", "minLength": 1, "maxLength": 4000},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}
