from datetime import datetime, timezone

from fastapi import FastAPI

from app.config import settings
from app.errors import register_handlers
from app.routers import auth, rooms

app = FastAPI(title="Synapse Message Service (Benchmark)", version="1.0.0")
register_handlers(app)
app.include_router(auth.router)
app.include_router(rooms.router)


@app.get("/health")
def health():
    return {
        "status": "ok",
        "service": settings.SERVICE_NAME,
        "time": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
