"""File storage for WebPan.

Responsibilities:
  * saving uploaded files to disk (one directory per user),
  * enforcing the maximum single file size and the per-user quota,
  * deleting stored files,
  * streaming files back for download,
  * computing quota figures for ``GET /api/v1/storage/quota``.

Files are stored as ``<STORAGE_DIR>/<user_id>/<file_id>``; the original file
name, MIME type, etc. are kept in the database by the caller.
"""

import mimetypes
import os
import shutil
import tempfile
import threading
import uuid

from flask import send_file

MB = 1024 * 1024
GB = 1024 * MB

STORAGE_DIR = os.path.abspath(
    os.environ.get("WEBPAN_STORAGE_DIR")
    or os.environ.get("STORAGE_DIR")
    or os.path.join(os.path.dirname(os.path.abspath(__file__)), "uploads")
)
MAX_FILE_SIZE = int(os.environ.get("WEBPAN_MAX_FILE_SIZE", 100 * MB))
DEFAULT_QUOTA = int(os.environ.get("WEBPAN_DEFAULT_QUOTA", 10 * GB))

CHUNK_SIZE = 64 * 1024

# Extensions refused to "prevent malicious file uploads".
BLOCKED_EXTENSIONS = {
    "exe", "dll", "bat", "cmd", "com", "scr", "msi", "vbs", "vbe",
    "ps1", "jar", "php", "phtml", "asp", "aspx", "jsp", "cgi",
}

_quota_lock = threading.Lock()


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class StorageError(Exception):
    """Base storage error carrying an error code and an HTTP status."""

    error_code = "STORAGE_ERROR"
    status_code = 500

    def __init__(self, message, details=None, error_code=None, status_code=None):
        super().__init__(message)
        self.message = message
        self.details = details
        if error_code is not None:
            self.error_code = error_code
        if status_code is not None:
            self.status_code = status_code

    def to_dict(self):
        body = {"success": False, "error": self.message, "error_code": self.error_code}
        if self.details:
            body["details"] = self.details
        return body


class FileTooLargeError(StorageError):
    error_code = "FILE_TOO_LARGE"
    status_code = 413


class QuotaExceededError(StorageError):
    error_code = "QUOTA_EXCEEDED"
    status_code = 413


class InvalidFormatError(StorageError):
    error_code = "INVALID_FORMAT"
    status_code = 400


class StoredFileNotFoundError(StorageError):
    error_code = "FILE_NOT_FOUND"
    status_code = 404


# ---------------------------------------------------------------------------
# Paths and names
# ---------------------------------------------------------------------------

def ensure_storage_dir():
    os.makedirs(STORAGE_DIR, exist_ok=True)
    return STORAGE_DIR


def _safe_component(value):
    value = str(value)
    cleaned = "".join(c for c in value if c.isalnum() or c in "-_")
    if not cleaned:
        raise InvalidFormatError("Invalid identifier")
    return cleaned


def user_dir(user_id):
    return os.path.join(STORAGE_DIR, _safe_component(user_id))


def get_file_path(user_id, file_id):
    """Absolute path on disk of a stored file."""
    return os.path.join(user_dir(user_id), _safe_component(file_id))


def sanitize_filename(filename):
    """Strip directory parts and control characters from a client filename."""
    if filename is None:
        return ""
    name = str(filename).replace("\\", "/").split("/")[-1]
    name = "".join(c for c in name if c.isprintable() and c not in '<>:"|?*')
    name = name.strip().strip(".").strip()
    return name[:255]


def is_allowed_filename(filename):
    name = sanitize_filename(filename)
    if not name:
        return False
    _, ext = os.path.splitext(name)
    return ext.lower().lstrip(".") not in BLOCKED_EXTENSIONS


def validate_filename(filename):
    """Return the sanitized filename or raise InvalidFormatError."""
    name = sanitize_filename(filename)
    if not name:
        raise InvalidFormatError("Invalid or missing filename")
    _, ext = os.path.splitext(name)
    if ext.lower().lstrip(".") in BLOCKED_EXTENSIONS:
        raise InvalidFormatError("File format not supported",
                                 details="Extension '%s' is not allowed" % ext)
    return name


def guess_mime_type(filename, fallback=None):
    mime, _ = mimetypes.guess_type(filename or "")
    if mime:
        return mime
    if fallback and fallback != "application/octet-stream":
        return fallback
    return "application/octet-stream"


# ---------------------------------------------------------------------------
# Size and quota
# ---------------------------------------------------------------------------

def get_used_space(user_id):
    """Total bytes stored on disk for a user."""
    directory = user_dir(user_id)
    total = 0
    if not os.path.isdir(directory):
        return 0
    for entry in os.scandir(directory):
        try:
            if entry.is_file() and not entry.name.startswith(".tmp"):
                total += entry.stat().st_size
        except OSError:
            continue
    return total


def check_file_size(size, max_size=None):
    """Raise FileTooLargeError if *size* exceeds the single file limit."""
    limit = MAX_FILE_SIZE if max_size is None else max_size
    if size is not None and size > limit:
        raise FileTooLargeError(
            "File too large",
            details="Maximum file size is %d bytes" % limit,
        )
    return True


def check_quota(user_id, additional_size, quota=None, used_space=None):
    """Raise QuotaExceededError if storing *additional_size* would exceed quota."""
    total = DEFAULT_QUOTA if quota is None else quota
    used = get_used_space(user_id) if used_space is None else used_space
    if used + (additional_size or 0) > total:
        raise QuotaExceededError(
            "Storage quota exceeded",
            details="Used %d of %d bytes; file needs %d bytes" % (used, total, additional_size or 0),
        )
    return True


def get_quota_info(user_id, used_space=None, quota=None):
    """Quota figures in the format of ``GET /api/v1/storage/quota``."""
    total = DEFAULT_QUOTA if quota is None else quota
    used = get_used_space(user_id) if used_space is None else used_space
    available = max(total - used, 0)
    percentage = round(used * 100.0 / total, 2) if total > 0 else 0.0
    return {
        "used_space": used,
        "total_space": total,
        "available_space": available,
        "usage_percentage": percentage,
    }


# ---------------------------------------------------------------------------
# Saving
# ---------------------------------------------------------------------------

def save_file(file_storage, user_id, file_id=None, max_size=None, quota=None):
    """Save an uploaded file (werkzeug ``FileStorage``) for *user_id*.

    The stream is written to a temporary file while counting bytes so that a
    file larger than the limit is rejected without being kept.  The quota is
    checked against the actual size before the file is moved into place.

    Returns a dict: ``file_id``, ``filename``, ``size``, ``mime_type``,
    ``path`` (alias ``storage_path``).
    Raises FileTooLargeError, QuotaExceededError or InvalidFormatError.
    """
    if file_storage is None:
        raise InvalidFormatError("No file provided")
    filename = validate_filename(getattr(file_storage, "filename", None))
    limit = MAX_FILE_SIZE if max_size is None else max_size

    # Fast rejection when the client announced the size.
    announced = getattr(file_storage, "content_length", None)
    if announced:
        check_file_size(announced, limit)

    file_id = _safe_component(file_id) if file_id else uuid.uuid4().hex
    directory = user_dir(user_id)
    os.makedirs(directory, exist_ok=True)

    fd, tmp_path = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    size = 0
    try:
        with os.fdopen(fd, "wb") as out:
            stream = getattr(file_storage, "stream", file_storage)
            while True:
                chunk = stream.read(CHUNK_SIZE)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    raise FileTooLargeError(
                        "File too large",
                        details="Maximum file size is %d bytes" % limit,
                    )
                out.write(chunk)

        final_path = get_file_path(user_id, file_id)
        with _quota_lock:
            check_quota(user_id, size, quota=quota)
            os.replace(tmp_path, final_path)
    except Exception:
        _silent_remove(tmp_path)
        raise

    mime_type = guess_mime_type(filename, getattr(file_storage, "mimetype", None))
    return {
        "file_id": file_id,
        "filename": filename,
        "size": size,
        "mime_type": mime_type,
        "path": final_path,
        "storage_path": final_path,
    }


def save_bytes(data, filename, user_id, file_id=None, quota=None):
    """Save raw bytes (convenience for tests / internal use)."""
    import io

    class _Wrapper:
        def __init__(self):
            self.filename = filename
            self.stream = io.BytesIO(data)
            self.mimetype = None
            self.content_length = len(data)

    return save_file(_Wrapper(), user_id, file_id=file_id, quota=quota)


# ---------------------------------------------------------------------------
# Deletion
# ---------------------------------------------------------------------------

def _silent_remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def delete_file(path_or_user_id, file_id=None):
    """Delete a stored file.

    Accepts either an absolute path (as returned by :func:`save_file`) or
    ``(user_id, file_id)``.  Returns True if a file was removed.
    """
    if file_id is None:
        path = str(path_or_user_id)
    else:
        path = get_file_path(path_or_user_id, file_id)
    path = os.path.abspath(path)
    if not path.startswith(STORAGE_DIR + os.sep):
        return False
    if os.path.isfile(path):
        try:
            os.remove(path)
            return True
        except OSError:
            return False
    return False


def delete_user_files(user_id):
    shutil.rmtree(user_dir(user_id), ignore_errors=True)


def file_exists(path_or_user_id, file_id=None):
    path = str(path_or_user_id) if file_id is None else get_file_path(path_or_user_id, file_id)
    return os.path.isfile(path)


# ---------------------------------------------------------------------------
# Download
# ---------------------------------------------------------------------------

def stream_file(path, filename=None, mime_type=None, as_attachment=True):
    """Return a Flask response streaming the file at *path*.

    Raises StoredFileNotFoundError if the file is missing on disk.
    """
    path = os.path.abspath(str(path))
    if not os.path.isfile(path):
        raise StoredFileNotFoundError("File not found")
    download_name = filename or os.path.basename(path)
    mimetype = mime_type or guess_mime_type(download_name)
    try:
        return send_file(path, mimetype=mimetype, as_attachment=as_attachment,
                         download_name=download_name, conditional=True)
    except TypeError:  # Flask < 2.0
        return send_file(path, mimetype=mimetype, as_attachment=as_attachment,
                         attachment_filename=download_name, conditional=True)


def iter_file(path, chunk_size=CHUNK_SIZE):
    """Generator yielding the content of *path* in chunks."""
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(chunk_size)
            if not chunk:
                break
            yield chunk


# Aliases
send_stored_file = stream_file
download_file = stream_file
get_quota = get_quota_info
get_storage_usage = get_used_space

ensure_storage_dir()
