"""Entry point: ``python app.py`` starts the service on port 5000."""
from multilingual import create_app
from multilingual.config import Config

app = create_app()

if __name__ == "__main__":
    cfg = Config.from_env()
    app.run(host=cfg.host, port=cfg.port, debug=False, threaded=True, use_reloader=False)
