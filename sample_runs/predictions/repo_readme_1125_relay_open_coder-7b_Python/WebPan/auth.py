import uuid
import secrets
import time
from functools import wraps

from flask import Blueprint, request, jsonify, g
from werkzeug.security import generate_password_hash, check_password_hash

import storage
from config import TOKEN_EXPIRES_IN, DEFAULT_QUOTA
from utils import error_response

auth_bp = Blueprint('auth', __name__)


def get_user_from_token():
    header = request.headers.get('Authorization', '')
    if not header.startswith('Bearer '):
        return None
    token = header[7:].strip()
    info = storage.tokens.get(token)
    if not info:
        return None
    if info['expires_at'] < time.time():
        storage.tokens.pop(token, None)
        return None
    return storage.users.get(info['user_id'])


def login_required(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        header = request.headers.get('Authorization', '')
        if not header:
            return error_response('Authentication required', 'AUTH_REQUIRED', 401)
        user = get_user_from_token()
        if user is None:
            return error_response('Invalid or expired token', 'AUTH_INVALID', 401)
        g.user = user
        return f(*args, **kwargs)
    return wrapper


@auth_bp.route('/register', methods=['POST'])
def register():
    data = request.get_json(silent=True) or {}
    username = data.get('username')
    password = data.get('password')
    email = data.get('email')

    if not username or not password or not email:
        return error_response('username, password and email are required', 'INVALID_FORMAT', 400)
    if not isinstance(username, str) or not isinstance(password, str) or not isinstance(email, str):
        return error_response('Invalid field types', 'INVALID_FORMAT', 400)
    if '@' not in email:
        return error_response('Invalid email', 'INVALID_FORMAT', 400)

    with storage.lock:
        if storage.find_user_by_username(username):
            return error_response('Username already exists', 'USER_EXISTS', 409)
        user_id = str(uuid.uuid4())
        storage.users[user_id] = {
            'user_id': user_id,
            'username': username,
            'password_hash': generate_password_hash(password),
            'email': email,
            'used_space': 0,
            'quota': DEFAULT_QUOTA,
        }

    return jsonify({
        'success': True,
        'message': 'User registered successfully',
        'user_id': user_id
    }), 201


@auth_bp.route('/login', methods=['POST'])
def login():
    data = request.get_json(silent=True) or {}
    username = data.get('username')
    password = data.get('password')

    if not username or not password:
        return error_response('username and password are required', 'INVALID_FORMAT', 400)

    user = storage.find_user_by_username(username)
    if user is None or not check_password_hash(user['password_hash'], password):
        return error_response('Invalid username or password', 'AUTH_INVALID', 401)

    token = secrets.token_hex(32)
    storage.tokens[token] = {
        'user_id': user['user_id'],
        'expires_at': time.time() + TOKEN_EXPIRES_IN
    }
    return jsonify({
        'success': True,
        'token': token,
        'user_id': user['user_id'],
        'expires_in': TOKEN_EXPIRES_IN
    }), 200
