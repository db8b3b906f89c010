from datetime import datetime, timedelta
from functools import wraps

import jwt
from flask import g, jsonify, request

import config
from models import User


def error(message, code, status):
    return jsonify({"success": False, "error": message, "error_code": code}), status


def make_token(user_id):
    payload = {"user_id": user_id, "exp": datetime.utcnow() + timedelta(seconds=config.TOKEN_EXPIRES)}
    return jwt.encode(payload, config.SECRET_KEY, algorithm="HS256")


def user_from_request():
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    token = header[7:]
    try:
        payload = jwt.decode(token, config.SECRET_KEY, algorithms=["HS256"])
    except jwt.PyJWTError:
        return None
    return User.query.get(payload.get("user_id"))


def login_required(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization")
        if not header:
            return error("Authentication required", "AUTH_REQUIRED", 401)
        user = user_from_request()
        if user is None:
            return error("Authentication failed", "AUTH_INVALID", 401)
        g.user = user
        return f(*args, **kwargs)
    return wrapper


def iso(dt):
    if dt is None:
        return None
    return dt.replace(microsecond=0).isoformat() + "Z"
