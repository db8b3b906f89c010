from flask import Flask, jsonify, redirect, request

from utils import make_code, valid_url

app = Flask(__name__)

# code -> {"url": ..., "hits": ...}
urls = {}


@app.route("/health")
def health():
    return jsonify({"status": "ok"})


@app.route("/api/shorten", methods=["POST"])
def shorten():
    data = request.get_json(silent=True) or {}
    url = data.get("url")
    if not valid_url(url):
        return jsonify({"error": "invalid url"}), 400
    code = make_code()
    while code in urls:
        code = make_code()
    urls[code] = {"url": url, "hits": 0}
    return jsonify({"code": code, "url": url, "short_url": request.host_url + code}), 201


@app.route("/api/stats/<code>")
def stats(code):
    if code not in urls:
        return jsonify({"error": "not found"}), 404
    entry = urls[code]
    return jsonify({"code": code, "url": entry["url"], "hits": entry["hits"]})


@app.route("/<code>")
def go(code):
    if code not in urls:
        return jsonify({"error": "not found"}), 404
    urls[code]["hits"] += 1
    return redirect(urls[code]["url"], code=302)


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=18082)
