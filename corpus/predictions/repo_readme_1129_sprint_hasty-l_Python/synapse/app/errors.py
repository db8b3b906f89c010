"""Matrix-flavoured error responses."""
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class MatrixError(Exception):
    def __init__(self, status: int, errcode: str, error: str):
        self.status = status
        self.errcode = errcode
        self.error = error


def register_handlers(app: FastAPI) -> None:
    @app.exception_handler(MatrixError)
    async def _matrix(request: Request, exc: MatrixError):
        return JSONResponse(status_code=exc.status, content={"errcode": exc.errcode, "error": exc.error})

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        parts = []
        for e in exc.errors():
            loc = ".".join(str(p) for p in e.get("loc", []) if p != "body")
            parts.append(f"{loc}: {e.get('msg')}")
        return JSONResponse(status_code=400, content={"errcode": "M_BAD_JSON", "error": "; ".join(parts) or "Invalid request"})

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        code = {404: "M_NOT_FOUND", 405: "M_UNRECOGNIZED", 401: "M_UNKNOWN_TOKEN", 403: "M_FORBIDDEN"}.get(
            exc.status_code, "M_UNKNOWN")
        return JSONResponse(status_code=exc.status_code, content={"errcode": code, "error": str(exc.detail)})

    @app.exception_handler(Exception)
    async def _unhandled(request: Request, exc: Exception):
        return JSONResponse(status_code=500, content={"errcode": "M_UNKNOWN", "error": "Internal server error"})
