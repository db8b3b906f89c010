"""HTTP endpoints of the quote board."""
from flask import Blueprint, jsonify, request

from .store import store

bp = Blueprint("quotes", __name__)


@bp.get("/health")
def health():
    return jsonify(status="ok")


@bp.post("/quotes")
def create_quote():
    data = request.get_json(silent=True) or {}
    text, author = data.get("text"), data.get("author")
    for field, value in (("text", text), ("author", author)):
        if not isinstance(value, str) or not value.strip():
            return jsonify(error=f"{field} is required"), 400
    return jsonify(store.add(text, author)), 201


@bp.get("/quotes")
def list_quotes():
    return jsonify(store.ranked())


@bp.post("/quotes/<int:quote_id>/vote")
def vote(quote_id):
    result = store.vote(quote_id)
    if result is None:
        return jsonify(error="quote not found"), 404
    return jsonify(result)


@bp.get("/quotes/random")
def random_quote():
    quote = store.random()
    if quote is None:
        return jsonify(error="no quotes yet"), 404
    return jsonify(quote)
