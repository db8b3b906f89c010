"""FastAPI application."""
import logging

from fastapi import FastAPI

from .config import settings
from .errors import register_exception_handlers
from .routes import health_payload, router

logging.basicConfig(level=settings.log_level.upper(),
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def create_app() -> FastAPI:
    application = FastAPI(
        title="StructuredDataConvertor",
        version=settings.version,
        description="Bidirectional conversion between Excel, CSV and PDF.",
    )
    application.include_router(router, prefix=settings.api_prefix)
    register_exception_handlers(application)

    @application.get("/health", include_in_schema=False)
    def root_health():
        return health_payload()

    @application.get("/", include_in_schema=False)
    def index():
        return {
            "service": "StructuredDataConvertor",
            "version": settings.version,
            "endpoints": [f"{settings.api_prefix}/health", f"{settings.api_prefix}/convert",
                          f"{settings.api_prefix}/convert/batch"],
        }

    return application


app = create_app()
