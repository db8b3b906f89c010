"""Error types and JSON error handlers."""
from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


class APIError(Exception):
    def __init__(self, message: str, status_code: int = 400):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


def error_response(message: str, status_code: int):
    resp = jsonify({"success": False, "error": message})
    resp.status_code = status_code
    return resp


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api_error(err: APIError):
        return error_response(err.message, err.status_code)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        return error_response(err.description or err.name, err.code or 500)

    @app.errorhandler(Exception)
    def _unhandled(err: Exception):
        app.logger.exception("Unhandled error")
        return error_response(f"Internal server error: {err}", 500)
