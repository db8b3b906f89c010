"""Entry point: ``python app.py`` serves WebPan on 0.0.0.0:8080 with waitress."""
import logging

from waitress import serve

from webpan import create_app
from webpan.config import Config

app = create_app()

if __name__ == "__main__":
    cfg: Config = app.config["WEBPAN"]
    logging.getLogger(__name__).info("WebPan listening on %s:%s", cfg.host, cfg.port)
    serve(app, host=cfg.host, port=cfg.port, threads=cfg.threads,
          max_request_body_size=cfg.max_request_bytes, channel_timeout=300)
