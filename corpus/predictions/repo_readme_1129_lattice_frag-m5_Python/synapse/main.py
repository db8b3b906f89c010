"""Synapse Message Service (benchmark version) entry point.

Includes the API routes, converts request validation failures into JSON 400
responses and renders HTTP errors as JSON bodies. Runs on 0.0.0.0:8080
(port overridable through the environment via ``config``).
"""

import logging

import uvicorn
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from config import PORT, SERVICE_NAME
from routes import router

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
logger = logging.getLogger("synapse")

app = FastAPI(title=SERVICE_NAME)
app.include_router(router)


_ERRCODES = {
    400: "M_BAD_JSON",
    401: "M_UNKNOWN_TOKEN",
    403: "M_FORBIDDEN",
    404: "M_NOT_FOUND",
    405: "M_UNRECOGNIZED",
    409: "M_USER_IN_USE",
    500: "M_UNKNOWN",
}


@app.exception_handler(RequestValidationError)
async def validation_exception_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
    details = jsonable_encoder(
        [
            {
                "loc": list(err.get("loc", [])),
                "msg": err.get("msg"),
                "type": err.get("type"),
            }
            for err in exc.errors()
        ]
    )
    return JSONResponse(
        status_code=400,
        content={
            "errcode": "M_BAD_JSON",
            "error": "Invalid request",
            "details": details,
        },
    )


@app.exception_handler(StarletteHTTPException)
async def http_exception_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail
    if isinstance(detail, dict):
        content = dict(detail)
        content.setdefault("errcode", _ERRCODES.get(exc.status_code, "M_UNKNOWN"))
        content.setdefault("error", str(detail.get("message", "Request failed")))
    else:
        content = {
            "errcode": _ERRCODES.get(exc.status_code, "M_UNKNOWN"),
            "error": str(detail) if detail else "Request failed",
        }
    return JSONResponse(
        status_code=exc.status_code,
        content=jsonable_encoder(content),
        headers=getattr(exc, "headers", None),
    )


@app.exception_handler(Exception)
async def unhandled_exception_handler(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("Unhandled error on %s %s", request.method, request.url.path)
    return JSONResponse(
        status_code=500,
        content={"errcode": "M_UNKNOWN", "error": "Internal server error"},
    )


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(PORT))
