"""WebPan: file storage and sharing service (Flask application factory)."""
import logging
import os
import secrets
from pathlib import Path
from typing import Optional

from flask import Flask

from . import db
from .config import Config
from .errors import register_error_handlers
from .routes import auth, files, shares, storage


def _load_secret(cfg: Config) -> str:
    """Use WEBPAN_SECRET_KEY, else a key generated once and kept in the data dir."""
    if cfg.secret_key:
        return cfg.secret_key
    path: Path = cfg.data_dir / ".secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
    except FileExistsError:
        return path.read_text().strip()
    return key


def create_app(config: Optional[Config] = None) -> Flask:
    cfg = config or Config.from_env()
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    cfg.data_dir.mkdir(parents=True, exist_ok=True)
    cfg.storage_dir.mkdir(parents=True, exist_ok=True)

    app = Flask(__name__)
    app.config["WEBPAN"] = cfg
    app.config["SECRET_KEY"] = _load_secret(cfg)
    app.config["MAX_CONTENT_LENGTH"] = cfg.max_request_bytes
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    db.init_app(app)
    for module in (auth, files, shares, storage):
        app.register_blueprint(module.bp)
    register_error_handlers(app)

    @app.get("/health")
    @app.get("/api/v1/health")
    def health():
        return {"success": True, "status": "healthy"}

    return app
