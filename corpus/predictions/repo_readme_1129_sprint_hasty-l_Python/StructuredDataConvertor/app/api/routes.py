"""HTTP routes."""
from datetime import datetime, timezone

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.core.config import settings
from app.schemas import (
    BatchConversionRequest,
    BatchConversionResponse,
    ConversionRequest,
    ConversionResponse,
    HealthResponse,
)
from app.services import converter
from app.services.readers import ConversionError

router = APIRouter()


@router.get("/health", response_model=HealthResponse)
def health() -> HealthResponse:
    return HealthResponse(
        status="healthy",
        timestamp=datetime.now(timezone.utc).isoformat(),
        version=settings.version,
    )


@router.post("/convert", response_model=ConversionResponse)
def convert(req: ConversionRequest):
    try:
        return converter.convert(req)
    except ConversionError as exc:
        return JSONResponse(
            status_code=400,
            content={"success": False, "message": str(exc), "result": None, "metadata": None},
        )


@router.post("/convert/batch", response_model=BatchConversionResponse)
def convert_batch(req: BatchConversionRequest):
    if len(req.conversions) > settings.max_batch_size:
        return JSONResponse(
            status_code=400,
            content={"success": False, "message": f"Batch size exceeds limit of {settings.max_batch_size}",
                     "results": [], "summary": {"total_count": len(req.conversions), "success_count": 0,
                                                "failure_count": len(req.conversions), "total_time": 0.0}},
        )
    return converter.convert_batch(req)
