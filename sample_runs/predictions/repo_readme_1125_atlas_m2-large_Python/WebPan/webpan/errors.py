"""Error codes, APIError and JSON error handlers."""
import logging
from typing import Optional

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

logger = logging.getLogger(__name__)

AUTH_REQUIRED = "AUTH_REQUIRED"
AUTH_INVALID = "AUTH_INVALID"
ACCESS_DENIED = "ACCESS_DENIED"
FILE_NOT_FOUND = "FILE_NOT_FOUND"
FILE_TOO_LARGE = "FILE_TOO_LARGE"
QUOTA_EXCEEDED = "QUOTA_EXCEEDED"
INVALID_FORMAT = "INVALID_FORMAT"
SHARE_EXPIRED = "SHARE_EXPIRED"
SHARE_NOT_FOUND = "SHARE_NOT_FOUND"
VALIDATION_ERROR = "VALIDATION_ERROR"
USER_EXISTS = "USER_EXISTS"
NOT_FOUND = "NOT_FOUND"
METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
INTERNAL_ERROR = "INTERNAL_ERROR"


class APIError(Exception):
    def __init__(self, status_code: int, error_code: str, message: str,
                 details: Optional[str] = None):
        super().__init__(message)
        self.status_code = status_code
        self.error_code = error_code
        self.message = message
        self.details = details

    def to_dict(self) -> dict:
        body = {"success": False, "error": self.message, "error_code": self.error_code}
        if self.details:
            body["details"] = self.details
        return body


def error_response(status_code: int, error_code: str, message: str, details: Optional[str] = None):
    return APIError(status_code, error_code, message, details).to_dict(), status_code


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api_error(exc: APIError):
        response = jsonify(exc.to_dict())
        response.status_code = exc.status_code
        if exc.status_code == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(_exc):
        return error_response(413, FILE_TOO_LARGE, "Request body too large")

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if exc.code == 404:
            return error_response(404, NOT_FOUND, "Resource not found")
        if exc.code == 405:
            return error_response(405, METHOD_NOT_ALLOWED, "Method not allowed")
        if exc.code == 400:
            return error_response(400, VALIDATION_ERROR, "Bad request", exc.description)
        return error_response(exc.code or 500, "HTTP_ERROR", exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        logger.exception("Unhandled error: %s", exc)
        return error_response(500, INTERNAL_ERROR, "Internal server error")
