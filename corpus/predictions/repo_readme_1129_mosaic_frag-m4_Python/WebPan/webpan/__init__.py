"""WebPan - File Storage and Sharing Service.

Application factory: creates the FastAPI app, makes sure the storage
directories and the database exist, mounts every router under ``/api/v1``
and installs handlers that render errors in the unified format::

    {"success": false, "error": "...", "error_code": "...", "details": "..."}
"""

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .auth import router as auth_router
from .db import init_db
from .files import router as files_router
from .sharing import router as sharing_router

API_PREFIX = "/api/v1"

logger = logging.getLogger("webpan")

_DEFAULT_ERROR_CODES = {
    400: "INVALID_REQUEST",
    401: "AUTH_REQUIRED",
    403: "ACCESS_DENIED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    410: "SHARE_EXPIRED",
    413: "FILE_TOO_LARGE",
    415: "INVALID_FORMAT",
    422: "INVALID_REQUEST",
    507: "QUOTA_EXCEEDED",
    500: "INTERNAL_ERROR",
}


def error_response(status_code, error, error_code=None, details=None, headers=None):
    """Build a JSONResponse in WebPan's unified error format."""
    body = {
        "success": False,
        "error": error,
        "error_code": error_code or _DEFAULT_ERROR_CODES.get(status_code, "ERROR"),
    }
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=jsonable_encoder(body), headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    """Register handlers that turn exceptions into error-code responses."""

    @app.exception_handler(StarletteHTTPException)
    async def http_exception_handler(request: Request, exc: StarletteHTTPException):
        status_code = exc.status_code
        detail = exc.detail
        headers = getattr(exc, "headers", None)

        # FastAPI's HTTPBearer answers 403 "Not authenticated" when no token is sent.
        if status_code == 403 and detail == "Not authenticated":
            return error_response(
                401, "Authentication required", "AUTH_REQUIRED",
                headers={"WWW-Authenticate": "Bearer"},
            )

        if isinstance(detail, dict):
            content = dict(detail)
            content["success"] = False
            if "error" not in content:
                content["error"] = content.pop("message", None) or "Request failed"
            content.setdefault("error_code", _DEFAULT_ERROR_CODES.get(status_code, "ERROR"))
            return JSONResponse(
                status_code=status_code, content=jsonable_encoder(content), headers=headers
            )

        message = str(detail) if detail else "Request failed"
        if status_code == 404 and message == "Not Found":
            message = "Resource not found"
        return error_response(status_code, message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_exception_handler(request: Request, exc: RequestValidationError):
        parts = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
            parts.append(f"{loc or 'request'}: {err.get('msg', 'invalid value')}")
        return error_response(400, "Invalid request", "INVALID_REQUEST", "; ".join(parts))

    @app.exception_handler(Exception)
    async def unhandled_exception_handler(request: Request, exc: Exception):
        logger.exception("Unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "Internal server error", "INTERNAL_ERROR")


def create_app() -> FastAPI:
    """Create and configure the WebPan application."""
    logging.basicConfig(level=logging.INFO)

    init_db()

    app = FastAPI(
        title="WebPan",
        description="File storage and sharing service",
        version="1.0.0",
    )

    app.include_router(auth_router, prefix=API_PREFIX)
    app.include_router(files_router, prefix=API_PREFIX)
    app.include_router(sharing_router, prefix=API_PREFIX)

    install_error_handlers(app)

    @app.get("/health")
    async def health():
        return {"success": True, "status": "ok"}

    return app


app = create_app()
