"""/api/v1/storage: quota information."""
from flask import Blueprint, g

from ..security import login_required
from ..services.files import used_space

bp = Blueprint("storage", __name__, url_prefix="/api/v1/storage")


@bp.get("/quota")
@login_required
def quota():
    used = used_space(g.user["id"])
    total = int(g.user["quota_bytes"])
    return {
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": max(total - used, 0),
        "usage_percentage": round(used / total * 100, 2) if total else 0.0,
    }
