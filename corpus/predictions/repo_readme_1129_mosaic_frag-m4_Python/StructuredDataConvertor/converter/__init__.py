"""StructuredDataConvertor application package.

Provides the application factory which creates the FastAPI app and mounts
the conversion API under ``/api/v1``.
"""

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from .api import router

__version__ = "1.0.0"

API_PREFIX = "/api/v1"

logger = logging.getLogger(__name__)


def create_app() -> FastAPI:
    """Create the FastAPI application with the API mounted at ``/api/v1``."""
    app = FastAPI(
        title="StructuredDataConvertor",
        description="Bidirectional conversion between Excel, CSV and PDF formats.",
        version=__version__,
    )

    app.include_router(router, prefix=API_PREFIX)

    @app.exception_handler(Exception)
    async def unhandled_exception_handler(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("Unhandled error while processing %s", request.url.path)
        return JSONResponse(
            status_code=500,
            content={
                "success": False,
                "message": f"Internal server error: {exc}",
                "result": None,
                "metadata": None,
            },
        )

    return app


app = create_app()
