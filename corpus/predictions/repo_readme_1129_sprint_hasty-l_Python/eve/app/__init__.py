"""Eve-style REST service backed by an in-process document store."""
from flask import Flask

from app.config import Config
from app.errors import register_error_handlers
from app.resources import bp


def create_app(config: type = Config) -> Flask:
    app = Flask(__name__)
    app.config.from_object(config)
    app.json.sort_keys = False
    app.url_map.strict_slashes = False
    app.register_blueprint(bp)
    register_error_handlers(app)
    return app
