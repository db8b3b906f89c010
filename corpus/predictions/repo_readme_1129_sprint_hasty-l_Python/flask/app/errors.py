from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


class BadRequest(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(BadRequest)
    def _bad_request(err: BadRequest):
        return jsonify({"error": err.message}), 400

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        return jsonify({"error": err.description or err.name}), err.code
