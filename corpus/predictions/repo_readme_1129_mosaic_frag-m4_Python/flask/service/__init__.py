"""Flask microservice: health check, echo and sum.

Application factory: creates the Flask app, registers the routes and the
JSON error handlers so that every error response is ``application/json``.
"""

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from .routes import bp


def _json_error(code, message):
    response = jsonify({"error": message})
    response.status_code = code
    return response


def register_error_handlers(app):
    """Make every HTTP error a JSON body of the form ``{"error": reason}``."""

    @app.errorhandler(400)
    def bad_request(err):
        return _json_error(400, getattr(err, "description", None) or "bad request")

    @app.errorhandler(404)
    def not_found(err):
        return _json_error(404, "not found")

    @app.errorhandler(405)
    def method_not_allowed(err):
        return _json_error(405, "method not allowed")

    @app.errorhandler(HTTPException)
    def http_error(err):
        return _json_error(err.code or 500, err.description or err.name)

    @app.errorhandler(500)
    def internal_error(err):
        return _json_error(500, "internal server error")


def create_app(config=None):
    """Create and configure the Flask application."""
    app = Flask(__name__)
    if config:
        app.config.update(config)

    app.register_blueprint(bp)
    register_error_handlers(app)

    return app
