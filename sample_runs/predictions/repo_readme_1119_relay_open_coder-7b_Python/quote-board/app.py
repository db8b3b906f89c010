from flask import Flask, jsonify, request
from flask_quotes_toolkit import pick_random

app = Flask(__name__)

quotes = []


def find_quote(quote_id):
    for q in quotes:
        if q["id"] == quote_id:
            return q
    return None


@app.route("/health")
def health():
    return jsonify({"status": "ok"})


@app.route("/quotes", methods=["POST"])
def add_quote():
    data = request.get_json(silent=True) or {}
    if not data.get("text") or not data.get("author"):
        return jsonify({"error": "text and author are required"}), 400
    quote = {"id": len(quotes) + 1, "text": data["text"], "author": data["author"], "votes": 0}
    quotes.append(quote)
    return jsonify(quote), 201


@app.route("/quotes", methods=["GET"])
def get_quotes():
    return jsonify(sorted(quotes, key=lambda q: q["votes"], reverse=True))


@app.route("/quotes/<int:quote_id>/vote", methods=["POST"])
def vote(quote_id):
    quote = find_quote(quote_id)
    if quote is None:
        return jsonify({"error": "quote not found"}), 404
    quote["votes"] += 1
    return jsonify({"id": quote["id"], "votes": quote["votes"]})


@app.route("/quotes/random")
def random_quote():
    if not quotes:
        return jsonify({"error": "no quotes"}), 404
    return jsonify(pick_random(quotes))


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=18084)
