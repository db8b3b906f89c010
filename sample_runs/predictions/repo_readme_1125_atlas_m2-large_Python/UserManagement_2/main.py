"""Entry point: ``python main.py`` serves the API (default 0.0.0.0:8080)."""
import uvicorn

from app.config import settings
from app.main import app

if __name__ == "__main__":
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=settings.log_level.lower())
