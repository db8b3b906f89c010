import os
import logging
from flask import Flask, jsonify

from config import UPLOAD_FOLDER, MAX_FILE_SIZE, PORT
from auth import auth_bp
from files import files_bp
from share import share_bp, storage_bp

logging.basicConfig(level=logging.INFO)


def create_app():
    app = Flask(__name__)
    app.config['MAX_CONTENT_LENGTH'] = MAX_FILE_SIZE * 10
    os.makedirs(UPLOAD_FOLDER, exist_ok=True)

    app.register_blueprint(auth_bp, url_prefix='/api/v1/auth')
    app.register_blueprint(files_bp, url_prefix='/api/v1/files')
    app.register_blueprint(share_bp, url_prefix='/api/v1/share')
    app.register_blueprint(storage_bp, url_prefix='/api/v1/storage')

    @app.errorhandler(404)
    def not_found(e):
        return jsonify({'success': False, 'error': 'Not found', 'error_code': 'NOT_FOUND'}), 404

    @app.errorhandler(413)
    def too_large(e):
        return jsonify({'success': False, 'error': 'File too large', 'error_code': 'FILE_TOO_LARGE'}), 413

    return app


app = create_app()

if __name__ == '__main__':
    app.run(host='0.0.0.0', port=PORT, threaded=True)
