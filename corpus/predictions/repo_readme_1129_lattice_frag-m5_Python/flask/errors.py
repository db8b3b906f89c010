"""JSON error responses for the Flask microservice."""
from flask import jsonify
from werkzeug.exceptions import HTTPException


def error_response(message, status_code=400):
    """Build a JSON error response with an ``error`` reason."""
    response = jsonify({"error": message, "status": status_code})
    response.status_code = status_code
    return response


def bad_request(message):
    return error_response(message, 400)


def register_error_handlers(app):
    """Attach JSON handlers for 400, 404, 405 and 500 to ``app``."""

    @app.errorhandler(400)
    def handle_bad_request(error):
        description = getattr(error, "description", None) or "Bad request"
        return error_response(description, 400)

    @app.errorhandler(404)
    def handle_not_found(error):
        return error_response("Not found", 404)

    @app.errorhandler(405)
    def handle_method_not_allowed(error):
        response = error_response("Method not allowed", 405)
        valid = getattr(error, "valid_methods", None)
        if valid:
            response.headers["Allow"] = ", ".join(valid)
        return response

    @app.errorhandler(500)
    def handle_internal_error(error):
        return error_response("Internal server error", 500)

    @app.errorhandler(HTTPException)
    def handle_http_exception(error):
        code = error.code or 500
        return error_response(error.description or error.name, code)

    @app.errorhandler(Exception)
    def handle_unexpected(error):
        if isinstance(error, HTTPException):
            return handle_http_exception(error)
        app.logger.exception("Unhandled exception")
        return error_response("Internal server error", 500)

    return app
