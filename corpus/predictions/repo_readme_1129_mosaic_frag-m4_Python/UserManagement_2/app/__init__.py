"""ProjectC - User Management Microservice.

Application factory: creates the FastAPI app, configures logging, registers
the user routes, the health check endpoint and the unified error handlers.

Every error is returned in the unified format::

    {
        "success": false,
        "message": "error description",
        "error_code": "ERROR_CODE",
        "details": {...}            # optional
    }
"""

import logging
import os
from datetime import datetime, timezone

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .routes import router

SERVICE_NAME = "user-management-service"
SERVICE_VERSION = "1.0.0"

logger = logging.getLogger("app")

_STATUS_ERROR_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    422: "VALIDATION_ERROR",
    500: "INTERNAL_ERROR",
}


def setup_logging() -> None:
    """Configure root logging from the LOG_LEVEL environment variable."""
    level_name = os.environ.get("LOG_LEVEL", "INFO").upper()
    level = getattr(logging, level_name, logging.INFO)
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s [%(name)s] %(message)s",
    )
    logger.setLevel(level)


def error_response(status_code, message, error_code=None, details=None, headers=None):
    """Build a JSONResponse in the unified error format."""
    body = {
        "success": False,
        "message": message,
        "error_code": error_code or _STATUS_ERROR_CODES.get(status_code, "ERROR"),
    }
    if details is not None:
        body["details"] = details
    return JSONResponse(
        status_code=status_code,
        content=jsonable_encoder(body),
        headers=headers,
    )


def _validation_details(errors):
    details = {}
    for err in errors:
        loc = [str(part) for part in err.get("loc", ()) if part not in ("body", "query", "path")]
        field = ".".join(loc) or "body"
        details.setdefault(field, []).append(err.get("msg", "Invalid value"))
    return details


def register_error_handlers(app: FastAPI) -> None:
    """Install the handlers that turn all errors into the unified envelope."""

    @app.exception_handler(StarletteHTTPException)
    async def http_exception_handler(request: Request, exc: StarletteHTTPException):
        status_code = exc.status_code
        detail = exc.detail
        headers = getattr(exc, "headers", None)

        # Missing Bearer credentials (FastAPI's HTTPBearer) -> 401.
        if status_code == 403 and detail == "Not authenticated":
            status_code = 401
            headers = {"WWW-Authenticate": "Bearer"}

        if isinstance(detail, dict):
            if "success" in detail and "message" in detail:
                content = dict(detail)
                content["success"] = False
                content.setdefault(
                    "error_code", _STATUS_ERROR_CODES.get(status_code, "ERROR")
                )
                return JSONResponse(
                    status_code=status_code,
                    content=jsonable_encoder(content),
                    headers=headers,
                )
            return error_response(
                status_code,
                detail.get("message") or detail.get("detail") or "Request failed",
                detail.get("error_code"),
                detail.get("details"),
                headers,
            )

        message = str(detail) if detail else "Request failed"
        if status_code == 404 and message == "Not Found":
            message = "Resource not found"
        if status_code == 405:
            message = "Method not allowed"
        return error_response(status_code, message, None, None, headers)

    @app.exception_handler(RequestValidationError)
    async def validation_exception_handler(request: Request, exc: RequestValidationError):
        return error_response(
            422,
            "Validation error",
            "VALIDATION_ERROR",
            _validation_details(exc.errors()),
        )

    @app.exception_handler(Exception)
    async def unhandled_exception_handler(request: Request, exc: Exception):
        logger.exception("Unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "Internal server error", "INTERNAL_ERROR")


def create_app() -> FastAPI:
    """Create and configure the FastAPI application."""
    setup_logging()

    app = FastAPI(
        title="ProjectC - User Management Microservice",
        version=SERVICE_VERSION,
    )

    app.include_router(router)

    def _health_payload():
        return {
            "success": True,
            "status": "healthy",
            "service": SERVICE_NAME,
            "version": SERVICE_VERSION,
            "timestamp": datetime.now(timezone.utc).isoformat(),
        }

    @app.get("/health")
    async def health():
        return _health_payload()

    @app.get("/api/v1/health")
    async def api_health():
        return _health_payload()

    register_error_handlers(app)

    @app.middleware("http")
    async def log_requests(request: Request, call_next):
        response = await call_next(request)
        logger.info("%s %s -> %s", request.method, request.url.path, response.status_code)
        return response

    logger.info("%s initialised", SERVICE_NAME)
    return app


app = create_app()
