"""Matrix-style JSON errors: ``{"errcode": "M_...", "error": "..."}``."""
import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

log = logging.getLogger("synapse_service")


class ApiError(Exception):
    def __init__(self, status: int, errcode: str, message: str):
        super().__init__(message)
        self.status = status
        self.errcode = errcode
        self.message = message


def bad_json(message: str) -> ApiError:
    return ApiError(400, "M_BAD_JSON", message)


def not_json(message: str = "Content not JSON.") -> ApiError:
    return ApiError(400, "M_NOT_JSON", message)


def invalid_param(message: str) -> ApiError:
    return ApiError(400, "M_INVALID_PARAM", message)


def _payload(errcode: str, message: str):
    return {"errcode": errcode, "error": message}


_HTTP_ERRCODES = {
    401: "M_UNAUTHORIZED",
    403: "M_FORBIDDEN",
    404: "M_UNRECOGNIZED",
    405: "M_UNRECOGNIZED",
    413: "M_TOO_LARGE",
}


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        response = jsonify(_payload(exc.errcode, exc.message))
        response.status_code = exc.status
        if exc.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="synapse-benchmark"'
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        response = exc.get_response()  # keeps e.g. the Allow header of a 405
        code = exc.code or 500
        response.set_data(
            app.json.dumps(_payload(_HTTP_ERRCODES.get(code, "M_UNKNOWN"), exc.description or exc.name))
        )
        response.content_type = "application/json"
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error")
        response = jsonify(_payload("M_UNKNOWN", "Internal server error"))
        response.status_code = 500
        return response
