"""Flask entry point for the URL shortener."""
from flask import Flask, jsonify, redirect, request

from codes import is_valid_url
from storage import LinkStore

app = Flask(__name__)
links = LinkStore()


@app.get("/health")
def health():
    return jsonify(status="ok")


@app.post("/api/shorten")
def shorten():
    data = request.get_json(silent=True) or {}
    url = data.get("url")
    if not is_valid_url(url):
        return jsonify(error="url must be an http:// or https:// URL"), 400
    code = links.add(url)
    return jsonify(code=code, url=url, short_url=request.host_url + code), 201


@app.get("/api/stats/<code>")
def stats(code):
    link = links.get(code)
    if link is None:
        return jsonify(error="unknown code"), 404
    return jsonify(code=code, url=link["url"], hits=link["hits"])


@app.get("/<code>")
def follow(code):
    link = links.hit(code)
    if link is None:
        return jsonify(error="unknown code"), 404
    return redirect(link["url"], code=302)


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=18082)
