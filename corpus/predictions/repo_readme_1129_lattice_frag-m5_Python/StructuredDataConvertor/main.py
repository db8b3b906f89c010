"""FastAPI application entry point for StructuredDataConvertor.

Routes:
    GET  /health                 - health check (root alias)
    GET  /api/v1/health          - health check
    POST /api/v1/convert         - single conversion
    POST /api/v1/convert/batch   - batch conversion
"""

import logging
from datetime import datetime, timezone

import uvicorn
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import __version__
from app.schemas import (
    BatchConversionRequest,
    BatchConversionResponse,
    ConversionRequest,
    ConversionResponse,
    HealthResponse,
)
from app.service import convert_batch, convert_single

logging.basicConfig(
    level=logging.INFO,
    format="%(asctime)s %(levelname)s %(name)s: %(message)s",
)
logger = logging.getLogger("structured_data_convertor")

app = FastAPI(
    title="StructuredDataConvertor",
    description="Bidirectional conversion between Excel, CSV and PDF formats.",
    version=__version__,
)

api_router = APIRouter(prefix="/api/v1")


def _health_payload() -> HealthResponse:
    return HealthResponse(
        status="healthy",
        timestamp=datetime.now(timezone.utc).isoformat(),
        version=__version__,
    )


@app.get("/health", response_model=HealthResponse)
def root_health() -> HealthResponse:
    """Health check available at the root path."""
    return _health_payload()


@api_router.get("/health", response_model=HealthResponse)
def health() -> HealthResponse:
    """Health check under the API base path."""
    return _health_payload()


@api_router.post("/convert", response_model=ConversionResponse)
def convert(request: ConversionRequest):
    """Convert a single base64-encoded document from one format to another."""
    try:
        result = convert_single(request)
    except ValueError as exc:
        logger.info("Conversion rejected: %s", exc)
        return JSONResponse(
            status_code=400,
            content={
                "success": False,
                "message": str(exc),
                "result": None,
                "metadata": None,
            },
        )
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Conversion failed")
        return JSONResponse(
            status_code=500,
            content={
                "success": False,
                "message": f"Conversion failed: {exc}",
                "result": None,
                "metadata": None,
            },
        )

    if not result.success:
        return JSONResponse(status_code=400, content=_dump(result))
    return result


@api_router.post("/convert/batch", response_model=BatchConversionResponse)
def convert_batch_endpoint(request: BatchConversionRequest):
    """Convert several documents, optionally in parallel; failures are reported per item."""
    try:
        return convert_batch(request)
    except ValueError as exc:
        logger.info("Batch conversion rejected: %s", exc)
        return JSONResponse(
            status_code=400,
            content={"success": False, "message": str(exc), "results": [], "summary": None},
        )
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Batch conversion failed")
        return JSONResponse(
            status_code=500,
            content={
                "success": False,
                "message": f"Batch conversion failed: {exc}",
                "results": [],
                "summary": None,
            },
        )


app.include_router(api_router)


def _dump(model) -> dict:
    """Serialize a pydantic model (v1 or v2) into a plain dict."""
    if hasattr(model, "model_dump"):
        return model.model_dump()
    return model.dict()


def _json_safe(value):
    """Make validation error details JSON-serializable."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


@app.exception_handler(RequestValidationError)
async def validation_exception_handler(request: Request, exc: RequestValidationError):
    errors = _json_safe(exc.errors())
    messages = []
    for err in errors if isinstance(errors, list) else []:
        loc = ".".join(str(part) for part in err.get("loc", []) if part != "body")
        messages.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return JSONResponse(
        status_code=422,
        content={
            "success": False,
            "message": "Validation error: " + "; ".join(messages) if messages else "Validation error",
            "detail": errors,
        },
    )


@app.exception_handler(StarletteHTTPException)
async def http_exception_handler(request: Request, exc: StarletteHTTPException):
    return JSONResponse(
        status_code=exc.status_code,
        content={"success": False, "message": str(exc.detail), "detail": exc.detail},
        headers=getattr(exc, "headers", None),
    )


@app.exception_handler(Exception)
async def unhandled_exception_handler(request: Request, exc: Exception):
    logger.exception("Unhandled error while processing %s %s", request.method, request.url.path)
    return JSONResponse(
        status_code=500,
        content={"success": False, "message": f"Internal server error: {exc}"},
    )


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8000)
