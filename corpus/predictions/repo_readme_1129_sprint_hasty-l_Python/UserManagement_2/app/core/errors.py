"""Unified error handling."""
from typing import Any, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class APIException(Exception):
    def __init__(self, status_code: int, message: str, error_code: str, details: Optional[Any] = None):
        self.status_code = status_code
        self.message = message
        self.error_code = error_code
        self.details = details


def _body(message: str, error_code: str, details: Optional[Any] = None) -> dict:
    body = {"success": False, "message": message, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return body


_STATUS_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    422: "VALIDATION_ERROR",
}


def register_exception_handlers(app: FastAPI) -> None:
    @app.exception_handler(APIException)
    async def _api_exc(request: Request, exc: APIException):
        return JSONResponse(status_code=exc.status_code, content=_body(exc.message, exc.error_code, exc.details))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        details = []
        for err in exc.errors():
            details.append({
                "field": ".".join(str(p) for p in err.get("loc", []) if p != "body"),
                "message": err.get("msg"),
                "type": err.get("type"),
            })
        return JSONResponse(status_code=400, content=_body("Validation failed", "VALIDATION_ERROR", {"errors": details}))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        return JSONResponse(
            status_code=exc.status_code,
            content=_body(str(exc.detail), _STATUS_CODES.get(exc.status_code, "HTTP_ERROR")),
        )

    @app.exception_handler(Exception)
    async def _unhandled(request: Request, exc: Exception):
        return JSONResponse(status_code=500, content=_body("Internal server error", "INTERNAL_ERROR"))
