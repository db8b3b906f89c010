"""Minimal Flask microservice: health, echo, sum."""
from flask import Flask

from app.config import Config
from app.errors import register_error_handlers
from app.routes import bp


def create_app(config: type = Config) -> Flask:
    application = Flask(__name__)
    application.config.from_object(config)
    application.register_blueprint(bp)
    register_error_handlers(application)
    return application


app = create_app()
