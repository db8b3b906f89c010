from typing import Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class APIError(Exception):
    def __init__(self, status_code: int, error: str, error_code: str, details: Optional[str] = None):
        self.status_code = status_code
        self.error = error
        self.error_code = error_code
        self.details = details


def error_body(error: str, error_code: str, details: Optional[str] = None) -> dict:
    body = {"success": False, "error": error, "error_code": error_code}
    if details:
        body["details"] = details
    return body


def register_handlers(app: FastAPI) -> None:
    @app.exception_handler(APIError)
    async def _api(request: Request, exc: APIError):
        return JSONResponse(status_code=exc.status_code, content=error_body(exc.error, exc.error_code, exc.details))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        msgs = []
        for e in exc.errors():
            loc = ".".join(str(p) for p in e.get("loc", []) if p not in ("body", "query", "path", "form"))
            msgs.append(f"{loc}: {e.get('msg')}")
        return JSONResponse(status_code=400, content=error_body("Invalid request", "INVALID_INPUT", "; ".join(msgs)))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        code = {401: "AUTH_REQUIRED", 403: "AUTH_INVALID", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(
            exc.status_code, "HTTP_ERROR")
        return JSONResponse(status_code=exc.status_code, content=error_body(str(exc.detail), code))

    @app.exception_handler(Exception)
    async def _unhandled(request: Request, exc: Exception):
        return JSONResponse(status_code=500, content=error_body("Internal server error", "INTERNAL_ERROR", str(exc)))
