FIELDS = ["firstname", "lastname", "role"]


def validate(data, partial=False):
    if not isinstance(data, dict):
        return {"_error": "Invalid JSON body"}
    errors = {}
    for key in data:
        if key not in FIELDS:
            errors[key] = "unknown field"
    for field in FIELDS:
        if field in data:
            if not isinstance(data[field], str):
                errors[field] = "must be of string type"
        elif not partial:
            errors[field] = "required field"
    return errors
