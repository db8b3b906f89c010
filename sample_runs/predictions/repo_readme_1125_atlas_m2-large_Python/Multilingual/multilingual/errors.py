"""Error type and JSON error handlers ({"success": false, "error": "..."})."""
import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

logger = logging.getLogger(__name__)


class APIError(Exception):
    """An error that is reported to the client with a given HTTP status."""

    def __init__(self, message: str, status_code: int = 400):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


def error_response(message: str, status_code: int):
    return jsonify({"success": False, "error": message}), status_code


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api_error(exc: APIError):
        return error_response(exc.message, exc.status_code)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        messages = {
            400: "Bad request",
            404: "Resource not found",
            405: "Method not allowed",
            413: "Request entity too large",
            415: "Unsupported media type",
        }
        code = exc.code or 500
        return error_response(messages.get(code, exc.description or exc.name), code)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        logger.exception("Unhandled error: %s", exc)
        return error_response("Internal server error", 500)
