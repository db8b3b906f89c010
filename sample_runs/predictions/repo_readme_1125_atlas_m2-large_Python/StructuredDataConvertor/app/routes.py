"""API routes mounted under /api/v1."""
from datetime import datetime, timezone

from fastapi import APIRouter

from .config import settings
from .schemas import (
    BatchConvertRequest,
    BatchConvertResponse,
    ConvertRequest,
    ConvertResponse,
    HealthResponse,
)
from .services import conversion

router = APIRouter()


def health_payload() -> HealthResponse:
    return HealthResponse(
        status="healthy",
        timestamp=datetime.now(timezone.utc).isoformat(),
        version=settings.version,
    )


@router.get("/health", response_model=HealthResponse, summary="Service health check")
def health() -> HealthResponse:
    return health_payload()


# Plain ``def`` handlers run in FastAPI's thread pool, so CPU-bound
# conversions do not block the event loop.
@router.post("/convert", response_model=ConvertResponse, summary="Convert one file")
def convert(request: ConvertRequest) -> ConvertResponse:
    return conversion.convert(request)


@router.post("/convert/batch", response_model=BatchConvertResponse, summary="Convert many files")
def convert_batch(request: BatchConvertRequest) -> BatchConvertResponse:
    return conversion.convert_batch(request)
