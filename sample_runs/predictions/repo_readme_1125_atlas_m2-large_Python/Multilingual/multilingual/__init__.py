"""Multilingual and multi-timezone support service (Flask application factory)."""
import logging
from typing import Optional

from flask import Flask, jsonify

from .config import Config
from .errors import register_error_handlers
from .routes import api
from .services.translator import Translator


def create_app(config: Optional[Config] = None) -> Flask:
    config = config or Config.from_env()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    app = Flask(__name__)
    app.config["SERVICE_CONFIG"] = config
    app.config["MAX_CONTENT_LENGTH"] = 1024 * 1024  # 1 MiB request bodies
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.extensions["translator"] = Translator(
        online=config.online_translation,
        timeout=config.translation_timeout,
        retry_after=config.online_retry_after,
    )

    app.register_blueprint(api)
    register_error_handlers(app)

    @app.get("/health")
    def health():
        return jsonify({"success": True, "status": "healthy"})

    return app
