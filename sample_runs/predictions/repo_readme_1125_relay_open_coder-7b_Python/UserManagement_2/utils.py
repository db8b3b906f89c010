import re
from flask import jsonify

EMAIL_REGEX = re.compile(r'^[\w\.\+\-]+@[\w\-]+\.[\w\.\-]+$')


def validate_email(email):
    if not isinstance(email, str):
        return False
    return EMAIL_REGEX.match(email) is not None


def error_response(message, error_code, status=400, details=None):
    body = {
        'success': False,
        'message': message,
        'error_code': error_code,
    }
    if details is not None:
        body['details'] = details
    return jsonify(body), status


def success_response(message, data=None, status=200):
    body = {'success': True, 'message': message}
    if data is not None:
        body['data'] = data
    return jsonify(body), status
