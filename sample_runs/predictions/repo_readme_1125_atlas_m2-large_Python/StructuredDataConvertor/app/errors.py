"""Domain errors and FastAPI exception handlers."""
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

logger = logging.getLogger(__name__)


class ConversionError(Exception):
    """A conversion failed because of the request or its data (reported to the client)."""

    def __init__(self, message: str, status_code: int = 400):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


def _failure(message: str, status_code: int, **extra) -> JSONResponse:
    body = {"success": False, "message": message}
    body.update(extra)
    return JSONResponse(status_code=status_code, content=body)


def _describe(errors) -> str:
    parts = []
    for err in errors:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{loc or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def register_exception_handlers(app: FastAPI) -> None:
    @app.exception_handler(ConversionError)
    async def _conversion_error(_: Request, exc: ConversionError):
        return _failure(exc.message, exc.status_code, result=None, metadata=None)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError):
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()
        ]
        return _failure("Invalid request: " + _describe(errors), 422, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException):
        return _failure(str(exc.detail), exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception):
        logger.exception("Unhandled error: %s", exc)
        return _failure("Internal server error", 500)
