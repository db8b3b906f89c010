from flask import Flask

from .accounts import bp as accounts_bp
from .health import bp as health_bp
from .rooms import bp as rooms_bp


def register_routes(app: Flask) -> None:
    app.register_blueprint(health_bp)
    app.register_blueprint(accounts_bp)
    app.register_blueprint(rooms_bp)
