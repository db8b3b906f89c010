"""ISO-8601 parsing and IANA timezone conversion (pytz)."""
import re
from datetime import datetime
from typing import Tuple

import pytz
from pytz.tzinfo import BaseTzInfo

from ..errors import APIError

_ZULU = re.compile(r"[zZ]$")


def parse_iso_datetime(value: str) -> datetime:
    """Parse an ISO 8601 datetime string (naive or with an offset / ``Z``)."""
    text = value.strip()
    text = _ZULU.sub("+00:00", text)
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise APIError(
            f"Invalid datetime format: '{value}'. Expected ISO 8601, e.g. '2025-10-30T12:00:00'",
            400,
        )


def get_timezone(name: str) -> BaseTzInfo:
    """Return a pytz timezone for an IANA name or raise a 400 APIError."""
    try:
        return pytz.timezone(name.strip())
    except (pytz.UnknownTimeZoneError, AttributeError, ValueError):
        raise APIError(f"Invalid timezone: '{name}'", 400)


def attach_timezone(dt: datetime, tz: BaseTzInfo) -> datetime:
    """Interpret a naive datetime as wall-clock time in ``tz``; convert aware ones to ``tz``."""
    if dt.tzinfo is None or dt.tzinfo.utcoffset(dt) is None:
        return tz.localize(dt)
    return tz.normalize(dt.astimezone(tz))


def convert(dt: datetime, from_tz: BaseTzInfo, to_tz: BaseTzInfo) -> Tuple[datetime, datetime]:
    original = attach_timezone(dt, from_tz)
    converted = to_tz.normalize(original.astimezone(to_tz))
    return original, converted
