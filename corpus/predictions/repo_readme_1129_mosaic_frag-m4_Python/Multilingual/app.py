"""Entry point for the Multilingual and Multi-Timezone Support Service."""
from multilingual import create_app

app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000, debug=False, threaded=True)
