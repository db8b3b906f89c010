from flask import Flask, jsonify

from routes import todos_bp

app = Flask(__name__)
app.register_blueprint(todos_bp)


@app.route("/health")
def health():
    return jsonify({"status": "ok"})


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=18080)
