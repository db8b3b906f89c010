"""Health check."""
from datetime import datetime, timezone

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..config import settings
from ..database import ping

router = APIRouter(tags=["health"])


def health_response() -> JSONResponse:
    db_ok = ping()
    return JSONResponse(status_code=200 if db_ok else 503, content={
        "success": db_ok,
        "status": "healthy" if db_ok else "unhealthy",
        "database": "ok" if db_ok else "unavailable",
        "version": settings.version,
        "timestamp": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z"),
    })


@router.get("/health")
def health():
    return health_response()
