"""Minimal Flask microservice: /health, /echo and /sum.

Provides an application factory (``create_app``) plus a module-level ``app``
instance.  The endpoints themselves live in ``routes.py``; this module
registers them and installs JSON error handlers for 400 and 404 so every
error response is ``application/json`` with an error reason.
"""

import os

from flask import Blueprint, Flask, jsonify
from werkzeug.exceptions import HTTPException

import routes


def _register_routes(app):
    """Register the endpoints defined in ``routes.py`` on ``app``."""
    for name in ("register_routes", "register", "init_app", "init_routes",
                 "setup_routes"):
        func = getattr(routes, name, None)
        if callable(func):
            func(app)
            return
    for name in ("bp", "blueprint", "routes_bp", "api", "api_bp", "main", "routes"):
        candidate = getattr(routes, name, None)
        if isinstance(candidate, Blueprint):
            app.register_blueprint(candidate)
            return
    for value in vars(routes).values():
        if isinstance(value, Blueprint):
            app.register_blueprint(value)
            return
    raise RuntimeError("routes.py does not expose a blueprint or register function")


def _error_body(error, reason):
    return jsonify({"error": error, "reason": reason})


def create_app(config=None):
    """Create and configure the Flask application."""
    app = Flask(__name__)
    if config:
        app.config.update(config)

    _register_routes(app)

    @app.errorhandler(400)
    def bad_request(exc):
        reason = getattr(exc, "description", None) or "Bad request"
        return _error_body("bad_request", reason), 400

    @app.errorhandler(404)
    def not_found(exc):
        return _error_body("not_found", "The requested resource was not found"), 404

    @app.errorhandler(405)
    def method_not_allowed(exc):
        return _error_body("method_not_allowed",
                           "The method is not allowed for the requested URL"), 405

    @app.errorhandler(HTTPException)
    def http_error(exc):
        return _error_body(exc.name.lower().replace(" ", "_"),
                           exc.description or exc.name), exc.code or 500

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")))
