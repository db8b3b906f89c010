import logging
from flask import Blueprint, request, g

from models import (
    create_user,
    get_user_by_id,
    get_user_by_username,
    get_user_by_email,
    verify_password,
    update_user,
    delete_user,
)
from auth import create_access_token, token_required, TOKEN_EXPIRES_IN
from utils import validate_email, error_response, success_response

logger = logging.getLogger(__name__)

user_bp = Blueprint('users', __name__)


@user_bp.route('/register', methods=['POST'])
def register():
    data = request.get_json(silent=True)
    if not data:
        return error_response('Invalid JSON body', 'INVALID_INPUT', 400)

    username = data.get('username')
    email = data.get('email')
    password = data.get('password')
    full_name = data.get('full_name')

    errors = {}
    if not isinstance(username, str) or not (3 <= len(username) <= 20):
        errors['username'] = 'Username must be 3-20 characters'
    if not validate_email(email):
        errors['email'] = 'Invalid email format'
    if not isinstance(password, str) or not (6 <= len(password) <= 50):
        errors['password'] = 'Password must be 6-50 characters'
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors['full_name'] = 'Full name must be at most 100 characters'

    if errors:
        return error_response('Validation failed', 'VALIDATION_ERROR', 400, errors)

    if get_user_by_username(username):
        return error_response('Username already exists', 'USERNAME_EXISTS', 409)
    if get_user_by_email(email):
        return error_response('Email already exists', 'EMAIL_EXISTS', 409)

    user = create_user(username, email, password, full_name)
    logger.info('User registered: %s', username)

    return success_response('User registered successfully', {
        'user_id': user['user_id'],
        'username': user['username'],
        'email': user['email'],
        'full_name': user['full_name'],
        'created_at': user['created_at'],
    }, 201)


@user_bp.route('/login', methods=['POST'])
def login():
    data = request.get_json(silent=True)
    if not data:
        return error_response('Invalid JSON body', 'INVALID_INPUT', 400)

    username = data.get('username')
    password = data.get('password')
    if not username or not password:
        return error_response('Username and password are required', 'VALIDATION_ERROR', 400)

    row = get_user_by_username(username)
    if row is None or not verify_password(row, password):
        return error_response('Invalid username or password', 'INVALID_CREDENTIALS', 401)

    token = create_access_token(row['id'])
    return success_response('Login successful', {
        'access_token': token,
        'token_type': 'Bearer',
        'expires_in': TOKEN_EXPIRES_IN,
        'user': {
            'user_id': row['id'],
            'username': row['username'],
            'email': row['email'],
            'full_name': row['full_name'] or '',
        }
    })


@user_bp.route('/<int:user_id>', methods=['GET'])
@token_required
def get_user(user_id):
    user = get_user_by_id(user_id)
    if user is None:
        return error_response('User not found', 'USER_NOT_FOUND', 404)
    if g.current_user_id != user_id:
        return error_response('Permission denied', 'FORBIDDEN', 403)
    return success_response('User retrieved successfully', user)


@user_bp.route('/<int:user_id>', methods=['PUT'])
@token_required
def update(user_id):
    user = get_user_by_id(user_id)
    if user is None:
        return error_response('User not found', 'USER_NOT_FOUND', 404)
    if g.current_user_id != user_id:
        return error_response('Permission denied', 'FORBIDDEN', 403)

    data = request.get_json(silent=True)
    if data is None:
        return error_response('Invalid JSON body', 'INVALID_INPUT', 400)

    email = data.get('email')
    full_name = data.get('full_name')

    errors = {}
    if email is not None and not validate_email(email):
        errors['email'] = 'Invalid email format'
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors['full_name'] = 'Full name must be at most 100 characters'
    if errors:
        return error_response('Validation failed', 'VALIDATION_ERROR', 400, errors)

    if email is not None:
        existing = get_user_by_email(email)
        if existing and existing['id'] != user_id:
            return error_response('Email already exists', 'EMAIL_EXISTS', 409)

    updated = update_user(user_id, email=email, full_name=full_name)
    return success_response('User updated successfully', {
        'user_id': updated['user_id'],
        'username': updated['username'],
        'email': updated['email'],
        'full_name': updated['full_name'],
        'updated_at': updated['updated_at'],
    })


@user_bp.route('/<int:user_id>', methods=['DELETE'])
@token_required
def delete(user_id):
    user = get_user_by_id(user_id)
    if user is None:
        return error_response('User not found', 'USER_NOT_FOUND', 404)
    if g.current_user_id != user_id:
        return error_response('Permission denied', 'FORBIDDEN', 403)
    delete_user(user_id)
    return success_response('User deleted successfully')
