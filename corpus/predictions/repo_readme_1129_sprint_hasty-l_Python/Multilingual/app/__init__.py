"""Application factory."""
import logging

from flask import Flask

from app.config import Config
from app.errors import register_error_handlers
from app.routes.i18n import bp as i18n_bp


def create_app(config_object: type = Config) -> Flask:
    app = Flask(__name__)
    app.config.from_object(config_object)
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    logging.basicConfig(level=app.config.get("LOG_LEVEL", "INFO"))

    app.register_blueprint(i18n_bp)
    register_error_handlers(app)

    @app.get("/health")
    def health():
        return {"status": "ok"}

    return app
