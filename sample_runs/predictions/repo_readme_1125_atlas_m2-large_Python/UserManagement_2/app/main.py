"""FastAPI application factory."""
import logging
import time
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request

from .config import settings
from .database import init_db
from .errors import register_exception_handlers
from .routers import health, users

logging.basicConfig(level=settings.log_level.upper(),
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")
logger = logging.getLogger("app")


@asynccontextmanager
async def lifespan(_: FastAPI):
    init_db()
    yield


def create_app() -> FastAPI:
    application = FastAPI(title="ProjectC User Management", version=settings.version,
                          lifespan=lifespan)
    register_exception_handlers(application)
    application.include_router(users.router, prefix=settings.api_prefix)
    application.include_router(health.router, prefix=settings.api_prefix)
    application.include_router(health.router)  # /health as well

    @application.middleware("http")
    async def access_log(request: Request, call_next):
        started = time.perf_counter()
        response = await call_next(request)
        logger.info("%s %s -> %s (%.1f ms)", request.method, request.url.path,
                    response.status_code, (time.perf_counter() - started) * 1000)
        return response

    return application


app = create_app()
