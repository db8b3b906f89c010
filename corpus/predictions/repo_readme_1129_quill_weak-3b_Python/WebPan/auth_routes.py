from flask import Blueprint, jsonify, request
from werkzeug.security import check_password_hash, generate_password_hash

import config
from models import User, db
from utils import error, make_token

auth_bp = Blueprint("auth", __name__, url_prefix="/api/v1/auth")


@auth_bp.route("/register", methods=["POST"])
def register():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    email = data.get("email")
    if not username or not password or not email:
        return error("username, password and email are required", "INVALID_INPUT", 400)
    if User.query.filter_by(username=username).first():
        return error("Username already exists", "USER_EXISTS", 409)
    user = User(username=username, email=email, password_hash=generate_password_hash(password))
    db.session.add(user)
    db.session.commit()
    return jsonify({"success": True, "message": "User registered successfully", "user_id": user.id}), 201


@auth_bp.route("/login", methods=["POST"])
def login():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    if not username or not password:
        return error("username and password are required", "INVALID_INPUT", 400)
    user = User.query.filter_by(username=username).first()
    if not user or not check_password_hash(user.password_hash, password):
        return error("Invalid username or password", "AUTH_INVALID", 401)
    return jsonify({
        "success": True,
        "token": make_token(user.id),
        "user_id": user.id,
        "expires_in": config.TOKEN_EXPIRES,
    })
