"""Detect well-known binary file signatures for format validation."""
from typing import Optional

_SIGNATURES = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "ZIP/XLSX"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office (XLS)"),
    (b"\x89PNG", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF8", "GIF"),
)


def detect_binary_format(data: bytes) -> Optional[str]:
    head = data.lstrip()[:16] if data[:1].isspace() else data[:16]
    for signature, name in _SIGNATURES:
        if head.startswith(signature):
            return name
    return None


def is_pdf(data: bytes) -> bool:
    return b"%PDF-" in data[:1024]


def is_zip(data: bytes) -> bool:
    return data.startswith(b"PK\x03\x04")


def is_ole(data: bytes) -> bool:
    return data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
