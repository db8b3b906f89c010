"""Eve-like REST service exposing the ``people`` resource.

Application factory: creates the Flask app, registers the people routes and
installs JSON error handlers (404, 405, 400, 412, 428) using Eve's error
envelope::

    {"_status": "ERR", "_error": {"code": 412, "message": "..."}}
"""

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from .people import people_bp

_DEFAULT_MESSAGES = {
    400: "Bad request",
    404: "Resource not found",
    405: "Method not allowed",
    412: "Client and server etags don't match",
    428: "To edit a document its etag must be provided using the If-Match header",
    500: "Internal server error",
}


def _error_response(code, message):
    response = jsonify({"_status": "ERR", "_error": {"code": code, "message": message}})
    response.status_code = code
    return response


def _message_for(err, code):
    description = getattr(err, "description", None)
    # Werkzeug's generic descriptions are long; prefer our own defaults for them,
    # but keep custom descriptions passed via abort(code, description=...).
    default_description = None
    cls = type(err)
    if isinstance(err, HTTPException):
        default_description = getattr(cls, "description", None)
    if description and description != default_description:
        return description
    return _DEFAULT_MESSAGES.get(code, getattr(err, "name", "Error"))


def register_error_handlers(app):
    """Register JSON error handlers on ``app``."""

    def make_handler(code):
        def handler(err):
            return _error_response(code, _message_for(err, code))

        return handler

    for code in (400, 404, 405, 412, 428):
        app.register_error_handler(code, make_handler(code))

    @app.errorhandler(HTTPException)
    def handle_http_exception(err):
        code = err.code or 500
        return _error_response(code, _message_for(err, code))

    @app.errorhandler(500)
    def handle_internal_error(err):
        return _error_response(500, _DEFAULT_MESSAGES[500])


def create_app(config=None):
    """Create and configure the Flask application."""
    app = Flask(__name__)
    if config:
        app.config.update(config)

    app.url_map.strict_slashes = False

    app.register_blueprint(people_bp)
    register_error_handlers(app)

    return app
