import logging
from typing import Optional

from sqlalchemy.orm import Session

from app.models import AccessLog

log = logging.getLogger("webpan.audit")


def record(db: Session, action: str, user_id: Optional[str] = None, file_id: Optional[str] = None,
           detail: Optional[str] = None, ip: Optional[str] = None) -> None:
    try:
        db.add(AccessLog(action=action, user_id=user_id, file_id=file_id, detail=detail, ip=ip))
        db.commit()
    except Exception:  # noqa: BLE001
        db.rollback()
    log.info("action=%s user=%s file=%s detail=%s ip=%s", action, user_id, file_id, detail, ip)
