from datetime import datetime, timezone

from flask import Blueprint, current_app

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return {
        "status": "ok",
        "service": current_app.extensions["settings"].service_name,
        "time": now.isoformat().replace("+00:00", "Z"),
    }
