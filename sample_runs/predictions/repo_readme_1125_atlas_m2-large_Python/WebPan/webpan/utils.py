"""Small helpers: time formatting, filename checks, JSON body parsing, URLs."""
import os
import re
import unicodedata
from datetime import datetime, timezone
from typing import Any, Dict, Optional

from flask import current_app, request

from .errors import INVALID_FORMAT, VALIDATION_ERROR, APIError

MAX_FILENAME_LENGTH = 255

# Executables and server-side scripts are refused ("prevent malicious uploads").
BLOCKED_EXTENSIONS = {
    "exe", "dll", "com", "bat", "cmd", "scr", "pif", "msi", "msp", "cpl", "vbs", "vbe",
    "wsf", "wsh", "ps1", "psm1", "hta", "jse", "lnk", "reg", "php", "php3", "php4", "php5",
    "phtml", "phar", "asp", "aspx", "jsp", "jspx", "cgi",
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def utc_iso(ts: Optional[float] = None) -> str:
    dt = datetime.now(timezone.utc) if ts is None else datetime.fromtimestamp(ts, timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def clean_filename(name: Optional[str]) -> str:
    """Return a safe display filename (no directories / control chars) or raise 400."""
    if not name:
        raise APIError(400, VALIDATION_ERROR, "Filename is required")
    name = unicodedata.normalize("NFC", name)
    name = name.replace("\\", "/").split("/")[-1]  # drop any client-side path
    name = _CONTROL.sub("", name).strip()
    if name in ("", ".", ".."):
        raise APIError(400, VALIDATION_ERROR, "Invalid filename")
    if len(name) > MAX_FILENAME_LENGTH:
        stem, ext = os.path.splitext(name)
        name = stem[: MAX_FILENAME_LENGTH - len(ext)] + ext
    check_extension(name)
    return name


def validate_new_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise APIError(400, VALIDATION_ERROR, "Field 'new_name' is required and must be a non-empty string")
    name = unicodedata.normalize("NFC", name.strip())
    if "/" in name or "\\" in name or _CONTROL.search(name) or name in (".", ".."):
        raise APIError(400, VALIDATION_ERROR, "new_name must not contain path separators or control characters")
    if len(name) > MAX_FILENAME_LENGTH:
        raise APIError(400, VALIDATION_ERROR, f"new_name must be at most {MAX_FILENAME_LENGTH} characters")
    check_extension(name)
    return name


def check_extension(name: str) -> None:
    parts = name.lower().split(".")
    if len(parts) > 1 and parts[-1] in BLOCKED_EXTENSIONS:
        raise APIError(400, INVALID_FORMAT, f"File type '.{parts[-1]}' is not allowed")


def json_body(required: bool = True) -> Dict[str, Any]:
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise APIError(400, VALIDATION_ERROR, "Request body must be a JSON object")
        return {}
    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise APIError(400, VALIDATION_ERROR, "Request body must be a valid JSON object")
    return data


def absolute_url(path: str) -> str:
    base = current_app.config["WEBPAN"].public_base_url or request.host_url.rstrip("/")
    return base + path


def client_ip() -> str:
    return request.headers.get("X-Forwarded-For", request.remote_addr or "").split(",")[0].strip()
