import logging
import os

from flask import Flask, jsonify

import config
from auth_routes import auth_bp
from file_routes import files_bp
from models import db
from share_routes import share_bp

logging.basicConfig(level=logging.INFO)


def create_app():
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = config.DATABASE_URI
    app.config["SQLALCHEMY_TRACK_MODIFICATIONS"] = False
    app.config["MAX_CONTENT_LENGTH"] = config.MAX_FILE_SIZE * 5
    db.init_app(app)
    app.register_blueprint(auth_bp)
    app.register_blueprint(files_bp)
    app.register_blueprint(share_bp)

    @app.errorhandler(404)
    def not_found(e):
        return jsonify({"success": False, "error": "Not found", "error_code": "NOT_FOUND"}), 404

    @app.errorhandler(413)
    def too_large(e):
        return jsonify({"success": False, "error": "File too large", "error_code": "FILE_TOO_LARGE"}), 413

    with app.app_context():
        os.makedirs(config.UPLOAD_FOLDER, exist_ok=True)
        db.create_all()
    return app


app = create_app()

if __name__ == "__main__":
    app.run(host="0.0.0.0", port=8080, threaded=True)
