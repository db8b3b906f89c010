"""Flask microservice: health check, echo and sum."""
from flask import Flask

from .config import Config
from .errors import register_error_handlers
from .routes import bp


def create_app(config_object=Config) -> Flask:
    flask_app = Flask(__name__)
    flask_app.config.from_object(config_object)
    flask_app.json.sort_keys = False
    flask_app.register_blueprint(bp)
    register_error_handlers(flask_app)
    return flask_app


# Module level instance for ``flask --app app run`` and simple imports.
app = create_app()

__all__ = ["create_app", "app"]
