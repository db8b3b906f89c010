"""Builds the Flask application and runs it on 0.0.0.0:5000.

The application is also exposed as the module-level ``app`` so it can be
imported directly (e.g. by tests or a WSGI server).
"""

from flask import Flask

from config import PORT
from errors import register_error_handlers
from routes import bp


def create_app():
    """Create and configure a Flask application instance."""
    app = Flask(__name__)
    app.register_blueprint(bp)
    register_error_handlers(app)
    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT)
