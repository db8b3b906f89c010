"""Access / audit logging (database table + logger)."""
import logging
from typing import Optional

from ..db import get_db
from ..utils import client_ip, utc_iso

logger = logging.getLogger("webpan.audit")


def record(action: str, user_id: Optional[str], target: Optional[str] = None,
           details: Optional[str] = None) -> None:
    ip = client_ip()
    try:
        get_db().execute(
            "INSERT INTO audit_log (at, user_id, action, target, ip, details) VALUES (?, ?, ?, ?, ?, ?)",
            (utc_iso(), user_id, action, target, ip, details),
        )
    except Exception:  # auditing must never break the request
        logger.exception("Failed to write audit record")
    logger.info("action=%s user=%s target=%s ip=%s %s", action, user_id, target, ip, details or "")
