"""JSON error responses."""
import json

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


class ValidationError(Exception):
    """Raised for client input that violates the API contract (-> 400)."""

    def __init__(self, message: str, status_code: int = 400):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


def error_response(message: str, status_code: int):
    return jsonify({"error": message}), status_code


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ValidationError)
    def _validation_error(exc: ValidationError):
        return error_response(exc.message, exc.status_code)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        # keep the headers werkzeug sets (e.g. ``Allow`` on 405)
        response = exc.get_response()
        response.data = json.dumps({"error": exc.description or exc.name})
        response.content_type = "application/json"
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - safety net
        app.logger.exception("unhandled error")
        return error_response("internal server error", 500)
