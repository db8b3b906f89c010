"""Multilingual and multi-timezone support service.

Application factory: builds the Flask app, registers the ``/api/*`` routes
and installs JSON error handlers that follow the README's error format::

    {"success": false, "error": "Error message description"}
"""

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from .routes import api_bp

logger = logging.getLogger(__name__)


def _error(message, status):
    response = jsonify({"success": False, "error": message})
    response.status_code = status
    return response


def create_app(config=None):
    """Create and configure the Flask application."""
    app = Flask(__name__)

    # Keep non-ASCII characters (e.g. Chinese translations) readable in JSON.
    app.config["JSON_AS_ASCII"] = False
    app.config["JSON_SORT_KEYS"] = False
    if hasattr(app, "json") and hasattr(app.json, "ensure_ascii"):
        app.json.ensure_ascii = False
        app.json.sort_keys = False

    if config:
        app.config.update(config)

    app.register_blueprint(api_bp)

    @app.errorhandler(400)
    def bad_request(err):
        description = getattr(err, "description", None) or "Bad request"
        return _error(description, 400)

    @app.errorhandler(404)
    def not_found(err):
        return _error("Resource not found", 404)

    @app.errorhandler(405)
    def method_not_allowed(err):
        return _error("Method not allowed", 405)

    @app.errorhandler(500)
    def internal_error(err):
        return _error("Internal server error", 500)

    @app.errorhandler(HTTPException)
    def http_exception(err):
        return _error(err.description or err.name, err.code or 500)

    @app.errorhandler(Exception)
    def unhandled_exception(err):
        if isinstance(err, HTTPException):
            return _error(err.description or err.name, err.code or 500)
        logger.exception("Unhandled error: %s", err)
        return _error("Internal server error", 500)

    return app
