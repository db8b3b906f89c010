from flask import jsonify


def parse_int(value):
    try:
        return int(value.strip())
    except (ValueError, TypeError, AttributeError):
        return None


def bad_request(reason):
    return jsonify({'error': reason}), 400
