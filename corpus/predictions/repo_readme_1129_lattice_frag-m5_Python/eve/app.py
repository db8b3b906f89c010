"""Builds the Eve-style Flask application and runs it on 0.0.0.0:5001."""

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from config import PORT
from routes import people_bp


def _error(code, message):
    response = jsonify(
        {
            "_status": "ERR",
            "_error": {"code": code, "message": message},
        }
    )
    response.status_code = code
    return response


def create_app():
    """Create the Flask application with routes and JSON error handlers."""
    app = Flask(__name__)
    app.url_map.strict_slashes = False

    app.register_blueprint(people_bp)

    @app.errorhandler(400)
    def bad_request(error):
        return _error(400, getattr(error, "description", None) or "Bad Request")

    @app.errorhandler(404)
    def not_found(error):
        return _error(404, "The requested resource was not found")

    @app.errorhandler(405)
    def method_not_allowed(error):
        return _error(405, "The method is not allowed for the requested URL")

    @app.errorhandler(412)
    def precondition_failed(error):
        return _error(
            412,
            getattr(error, "description", None)
            or "Client and server etags don't match",
        )

    @app.errorhandler(422)
    def unprocessable(error):
        return _error(422, getattr(error, "description", None) or "Unprocessable Entity")

    @app.errorhandler(428)
    def precondition_required(error):
        return _error(
            428,
            getattr(error, "description", None)
            or "To edit a document its etag must be provided using the If-Match header",
        )

    @app.errorhandler(500)
    def internal_error(error):
        return _error(500, "Internal Server Error")

    @app.errorhandler(Exception)
    def unhandled(error):
        if isinstance(error, HTTPException):
            return _error(error.code or 500, error.description or error.name)
        app.logger.exception("Unhandled exception: %s", error)
        return _error(500, "Internal Server Error")

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
