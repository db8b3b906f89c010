import hashlib
import json
import time

ALLOWED_FIELDS = ['firstname', 'lastname', 'role']


def compute_etag(doc):
    data = {k: v for k, v in doc.items() if k != '_etag'}
    raw = json.dumps(data, sort_keys=True) + str(time.time())
    return hashlib.sha1(raw.encode('utf-8')).hexdigest()


def strip_etag(value):
    if value is None:
        return None
    value = value.strip()
    if value.startswith('W/'):
        value = value[2:]
    return value.strip('"')


def validate_people(data, partial=False):
    errors = {}
    if not isinstance(data, dict):
        return {'_body': 'must be a JSON object'}
    for key in data:
        if key not in ALLOWED_FIELDS:
            errors[key] = 'unknown field'
    for field in ALLOWED_FIELDS:
        if field in data:
            if not isinstance(data[field], str):
                errors[field] = 'must be of string type'
        elif not partial:
            errors[field] = 'required field'
    return errors
