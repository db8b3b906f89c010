from flask import Blueprint, request, jsonify
from utils import parse_int, bad_request

api = Blueprint('api', __name__)


@api.route('/health', methods=['GET'])
def health():
    return jsonify({'status': 'ok'}), 200


@api.route('/echo', methods=['POST'])
def echo():
    data = request.get_json(silent=True)
    if data is None or not isinstance(data, dict):
        return bad_request('Request body must be a JSON object')
    if 'message' not in data:
        return bad_request('Missing field: message')
    message = data['message']
    if not isinstance(message, str):
        return bad_request('Field message must be a string')
    return jsonify({'message': message, 'length': len(message)}), 200


@api.route('/sum', methods=['GET'])
def sum_numbers():
    a = request.args.get('a')
    b = request.args.get('b')
    if a is None or b is None:
        return bad_request('Missing query parameters: a and b are required')
    a_val = parse_int(a)
    b_val = parse_int(b)
    if a_val is None or b_val is None:
        return bad_request('Parameters a and b must be integers')
    return jsonify({'result': a_val + b_val}), 200
