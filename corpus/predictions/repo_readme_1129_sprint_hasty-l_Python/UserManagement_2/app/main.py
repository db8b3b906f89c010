"""Application entry point."""
import logging
from datetime import datetime, timezone

from fastapi import FastAPI

from app.core.config import settings
from app.core.errors import register_exception_handlers
from app.db import init_db
from app.routers import users

logging.basicConfig(level=settings.LOG_LEVEL, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

app = FastAPI(title=settings.APP_NAME, version=settings.VERSION)
register_exception_handlers(app)
app.include_router(users.router, prefix=settings.API_PREFIX)


@app.on_event("startup")
def on_startup() -> None:
    init_db()


def _health():
    return {"success": True, "status": "healthy", "timestamp": datetime.now(timezone.utc).isoformat()}


app.add_api_route("/health", _health, methods=["GET"])
app.add_api_route(f"{settings.API_PREFIX}/health", _health, methods=["GET"])
