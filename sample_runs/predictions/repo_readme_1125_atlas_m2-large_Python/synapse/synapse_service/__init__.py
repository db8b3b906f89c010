"""Synapse Message Service (benchmark version)."""
from flask import Flask

from .config import Settings
from .errors import register_error_handlers
from .routes import register_routes
from .store import MemoryStore


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    app.extensions["settings"] = settings
    app.extensions["store"] = MemoryStore()
    register_error_handlers(app)
    register_routes(app)
    return app


__all__ = ["create_app", "Settings"]
