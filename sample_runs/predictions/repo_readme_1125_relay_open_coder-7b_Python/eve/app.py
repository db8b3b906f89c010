from flask import Flask, jsonify
from routes import people_bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(people_bp)

    @app.errorhandler(404)
    def not_found(e):
        return jsonify({'_status': 'ERR', '_error': {'code': 404, 'message': 'Not Found'}}), 404

    @app.errorhandler(405)
    def method_not_allowed(e):
        return jsonify({'_status': 'ERR', '_error': {'code': 405, 'message': 'Method Not Allowed'}}), 405

    return app


app = create_app()

if __name__ == '__main__':
    app.run(host='0.0.0.0', port=5001)
