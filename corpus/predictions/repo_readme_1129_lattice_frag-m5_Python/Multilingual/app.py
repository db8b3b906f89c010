"""Application entry point for the Multilingual and Multi-Timezone Support Service."""

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from config import PORT
from routes import api_bp


def create_app():
    """Create and configure the Flask application."""
    app = Flask(__name__)

    # Keep non-ASCII characters (e.g. Chinese translations) readable in JSON output.
    app.config["JSON_AS_ASCII"] = False
    if hasattr(app, "json") and hasattr(app.json, "ensure_ascii"):
        app.json.ensure_ascii = False

    app.register_blueprint(api_bp)

    @app.errorhandler(400)
    def bad_request(error):
        description = getattr(error, "description", None) or "Bad request"
        return jsonify({"success": False, "error": description}), 400

    @app.errorhandler(404)
    def not_found(error):
        return jsonify({"success": False, "error": "Resource not found"}), 404

    @app.errorhandler(405)
    def method_not_allowed(error):
        return jsonify({"success": False, "error": "Method not allowed"}), 405

    @app.errorhandler(500)
    def internal_error(error):
        return jsonify({"success": False, "error": "Internal server error"}), 500

    @app.errorhandler(Exception)
    def unhandled_exception(error):
        if isinstance(error, HTTPException):
            return (
                jsonify({"success": False, "error": error.description or error.name}),
                error.code or 500,
            )
        app.logger.exception("Unhandled exception: %s", error)
        return jsonify({"success": False, "error": "Internal server error"}), 500

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, debug=False)
