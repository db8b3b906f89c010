from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


class APIError(Exception):
    def __init__(self, status: int, message: str, issues=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.issues = issues


def error_payload(status: int, message: str, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    resp = jsonify(body)
    resp.status_code = status
    return resp


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api(err: APIError):
        return error_payload(err.status, err.message, err.issues)

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        return error_payload(err.code or 500, err.description or err.name)

    @app.errorhandler(Exception)
    def _other(err: Exception):
        app.logger.exception("unhandled")
        return error_payload(500, "Internal server error")
