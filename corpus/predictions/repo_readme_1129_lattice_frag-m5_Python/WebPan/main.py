"""WebPan - File Storage and Sharing Service entry point.

Mounts the authentication and file routers under ``/api/v1``, installs the
unified error format ``{success: false, error, error_code, details}``, logs
every request (access/audit log) and runs uvicorn on 0.0.0.0:8080.
"""

import logging
import os
import time
from typing import Any, Optional

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import config
from auth import router as auth_router
from database import Base, engine
from files import router as files_router

logging.basicConfig(
    level=logging.INFO,
    format="%(asctime)s %(levelname)s %(name)s: %(message)s",
)
logger = logging.getLogger("webpan")
access_logger = logging.getLogger("webpan.access")

os.makedirs(config.STORAGE_DIR, exist_ok=True)
Base.metadata.create_all(bind=engine)

app = FastAPI(
    title="WebPan - File Storage and Sharing Service",
    version="1.0.0",
)

app.include_router(auth_router, prefix="/api/v1")
app.include_router(files_router, prefix="/api/v1")


# --------------------------------------------------------------------------- #
# Access logging
# --------------------------------------------------------------------------- #

@app.middleware("http")
async def access_log_middleware(request: Request, call_next):
    start = time.perf_counter()
    client = request.client.host if request.client else "-"
    try:
        response = await call_next(request)
    except Exception:
        duration_ms = (time.perf_counter() - start) * 1000
        access_logger.exception(
            "%s %s %s -> 500 (%.1f ms)", client, request.method, request.url.path, duration_ms
        )
        raise
    duration_ms = (time.perf_counter() - start) * 1000
    access_logger.info(
        "%s %s %s -> %s (%.1f ms)",
        client,
        request.method,
        request.url.path,
        response.status_code,
        duration_ms,
    )
    return response


# --------------------------------------------------------------------------- #
# Unified error handling
# --------------------------------------------------------------------------- #

_DEFAULT_ERROR_CODES = {
    400: "BAD_REQUEST",
    401: "AUTH_REQUIRED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    410: "SHARE_EXPIRED",
    413: "FILE_TOO_LARGE",
    415: "INVALID_FORMAT",
    422: "VALIDATION_ERROR",
    500: "INTERNAL_ERROR",
    507: "QUOTA_EXCEEDED",
}


def error_response(
    status_code: int,
    error: str,
    error_code: str,
    details: Optional[Any] = None,
    headers: Optional[dict] = None,
) -> JSONResponse:
    body = {"success": False, "error": error, "error_code": error_code}
    if details is not None:
        body["details"] = details if isinstance(details, str) else str(details)
    return JSONResponse(status_code=status_code, content=body, headers=headers)


@app.exception_handler(StarletteHTTPException)
async def http_exception_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail
    error_code = _DEFAULT_ERROR_CODES.get(exc.status_code, "HTTP_ERROR")
    details = None
    if isinstance(detail, dict):
        error = str(detail.get("error") or detail.get("message") or "Request failed")
        error_code = str(detail.get("error_code") or error_code)
        details = detail.get("details")
    else:
        error = str(detail) if detail else "Request failed"
        if exc.status_code == 404 and error == "Not Found":
            error = "Resource not found"
    return error_response(
        exc.status_code, error, error_code, details, headers=getattr(exc, "headers", None)
    )


@app.exception_handler(RequestValidationError)
async def validation_exception_handler(
    request: Request, exc: RequestValidationError
) -> JSONResponse:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", []) if p not in ("body", "query", "path", "form"))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return error_response(
        422,
        "Invalid request parameters",
        "VALIDATION_ERROR",
        "; ".join(parts) if parts else None,
    )


@app.exception_handler(Exception)
async def unhandled_exception_handler(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("Unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "Internal server error", "INTERNAL_ERROR")


@app.get("/health")
def health() -> dict:
    return {"success": True, "status": "healthy"}


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(config.PORT))
