"""Resource schema and validation (cerberus-like, minimal)."""
from typing import Any, Dict

PEOPLE_SCHEMA = {
    "firstname": {"type": str, "required": True, "maxlength": 120},
    "lastname": {"type": str, "required": True, "maxlength": 120},
    "role": {"type": str, "required": True, "maxlength": 64},
}


def validate(doc: Any, schema: Dict[str, dict], partial: bool = False) -> Dict[str, str]:
    issues: Dict[str, str] = {}
    if not isinstance(doc, dict):
        return {"_body": "must be a JSON object"}
    for key in doc:
        if key.startswith("_") or key == "id":
            continue
        if key not in schema:
            issues[key] = "unknown field"
    for field, rules in schema.items():
        if field not in doc:
            if rules.get("required") and not partial:
                issues[field] = "required field"
            continue
        value = doc[field]
        if not isinstance(value, rules["type"]) or isinstance(value, bool):
            issues[field] = f"must be of {rules['type'].__name__} type"
            continue
        if rules.get("required") and isinstance(value, str) and not value.strip():
            issues[field] = "empty values not allowed"
            continue
        if "maxlength" in rules and len(value) > rules["maxlength"]:
            issues[field] = f"max length is {rules['maxlength']}"
    return issues
