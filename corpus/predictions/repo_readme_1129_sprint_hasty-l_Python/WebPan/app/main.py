import logging
import os

from fastapi import FastAPI

from app.core.config import settings
from app.core.errors import register_handlers
from app.db import init_db
from app.routers import auth, files

logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")

app = FastAPI(title=settings.APP_NAME, version=settings.VERSION)
register_handlers(app)
app.include_router(auth.router, prefix=settings.API_PREFIX)
app.include_router(files.router, prefix=settings.API_PREFIX)


@app.on_event("startup")
def _startup() -> None:
    os.makedirs(settings.STORAGE_DIR, exist_ok=True)
    init_db()


@app.get("/health")
def health():
    return {"success": True, "status": "healthy"}
