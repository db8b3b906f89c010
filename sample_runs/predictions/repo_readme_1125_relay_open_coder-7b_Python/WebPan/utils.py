from datetime import datetime, timezone
from flask import jsonify


def now():
    return datetime.now(timezone.utc)


def to_iso(dt):
    return dt.strftime('%Y-%m-%dT%H:%M:%SZ')


def now_iso():
    return to_iso(now())


def error_response(error, error_code, status=400, details=None):
    body = {'success': False, 'error': error, 'error_code': error_code}
    if details:
        body['details'] = details
    return jsonify(body), status
