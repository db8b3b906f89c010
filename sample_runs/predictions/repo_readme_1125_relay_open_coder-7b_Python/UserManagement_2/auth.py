import os
import datetime
from functools import wraps

import jwt
from flask import request, g

from utils import error_response

SECRET_KEY = os.environ.get('JWT_SECRET', 'projectc-jwt-secret')
TOKEN_EXPIRES_IN = int(os.environ.get('JWT_EXPIRES_IN', 3600))


def create_access_token(user_id):
    payload = {
        'sub': str(user_id),
        'exp': datetime.datetime.utcnow() + datetime.timedelta(seconds=TOKEN_EXPIRES_IN),
        'iat': datetime.datetime.utcnow(),
    }
    token = jwt.encode(payload, SECRET_KEY, algorithm='HS256')
    if isinstance(token, bytes):
        token = token.decode('utf-8')
    return token


def decode_token(token):
    return jwt.decode(token, SECRET_KEY, algorithms=['HS256'])


def token_required(f):
    @wraps(f)
    def decorated(*args, **kwargs):
        auth_header = request.headers.get('Authorization', '')
        if not auth_header.startswith('Bearer '):
            return error_response('Authorization token is missing', 'UNAUTHORIZED', 401)
        token = auth_header[7:]
        try:
            payload = decode_token(token)
        except jwt.ExpiredSignatureError:
            return error_response('Token has expired', 'TOKEN_EXPIRED', 401)
        except jwt.InvalidTokenError:
            return error_response('Invalid token', 'INVALID_TOKEN', 401)
        g.current_user_id = int(payload['sub'])
        return f(*args, **kwargs)
    return decorated
