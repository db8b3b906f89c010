"""Synapse Message Service (benchmark version).

Application factory: creates the FastAPI app, registers the routes and
installs error handlers that always answer with a JSON body of the form::

    {"errcode": "M_...", "error": "human readable reason"}

for the 400/401/404/409/422 family of errors.
"""

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .routes import router

SERVICE_NAME = "synapse-benchmark"

logger = logging.getLogger("synapse_service")

_ERRCODES = {
    400: "M_BAD_JSON",
    401: "M_UNKNOWN_TOKEN",
    403: "M_FORBIDDEN",
    404: "M_NOT_FOUND",
    405: "M_UNRECOGNIZED",
    409: "M_USER_IN_USE",
    422: "M_INVALID_PARAM",
    500: "M_UNKNOWN",
}


def error_response(status_code, message, errcode=None, headers=None):
    """Build a JSON error response."""
    body = {
        "errcode": errcode or _ERRCODES.get(status_code, "M_UNKNOWN"),
        "error": message,
    }
    return JSONResponse(status_code=status_code, content=body, headers=headers)


def register_error_handlers(app: FastAPI) -> None:
    """Install the JSON error handlers on ``app``."""

    @app.exception_handler(StarletteHTTPException)
    async def http_exception_handler(request: Request, exc: StarletteHTTPException):
        status_code = exc.status_code
        detail = exc.detail
        headers = getattr(exc, "headers", None)

        # FastAPI's HTTPBearer rejects a missing header with 403; the contract wants 401.
        if status_code == 403 and detail == "Not authenticated":
            return error_response(
                401, "Missing access token", "M_MISSING_TOKEN",
                headers={"WWW-Authenticate": "Bearer"},
            )

        if isinstance(detail, dict):
            content = dict(detail)
            if "error" not in content:
                content["error"] = content.pop("message", None) or content.pop("detail", None) or "Request failed"
            content.setdefault("errcode", _ERRCODES.get(status_code, "M_UNKNOWN"))
            return JSONResponse(
                status_code=status_code, content=jsonable_encoder(content), headers=headers
            )

        message = str(detail) if detail else "Request failed"
        if status_code == 404 and message == "Not Found":
            message = "Unrecognized request"
        return error_response(status_code, message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_exception_handler(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        # Malformed JSON bodies are a 400; well-formed bodies that break the schema are 422.
        if any(err.get("type") in ("json_invalid", "value_error.jsondecode") for err in errors):
            return error_response(400, "Request body is not valid JSON", "M_NOT_JSON")
        parts = []
        for err in errors:
            loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
            parts.append(f"{loc or 'body'}: {err.get('msg', 'invalid value')}")
        return error_response(422, "; ".join(parts) or "Invalid request", "M_INVALID_PARAM")

    @app.exception_handler(Exception)
    async def unhandled_exception_handler(request: Request, exc: Exception):
        logger.exception("Unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "Internal server error", "M_UNKNOWN")


def create_app() -> FastAPI:
    """Create and configure the FastAPI application."""
    app = FastAPI(title="Synapse Message Service (Benchmark Version)", version="1.0.0")
    app.include_router(router)
    register_error_handlers(app)
    return app


app = create_app()
