"""Locale-aware datetime formatting (Babel)."""
import re
from datetime import datetime

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime

from ..errors import APIError

_LOCALE_RE = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z]{4})?([_-]([A-Za-z]{2}|[0-9]{3}))?$")
FORMATS = ("short", "medium", "long", "full")


def parse_locale(code: str) -> Locale:
    text = code.strip()
    if not _LOCALE_RE.match(text):
        raise APIError(
            f"Invalid locale: '{code}'. Expected format language_COUNTRY, e.g. 'en_US'", 400
        )
    try:
        return Locale.parse(text.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        raise APIError(f"Unsupported locale: '{code}'", 400)


def format_localized(dt: datetime, locale: Locale, fmt: str = "full") -> str:
    if fmt not in FORMATS:
        raise APIError(f"Invalid format: '{fmt}'. Expected one of {', '.join(FORMATS)}", 400)
    return format_datetime(dt, format=fmt, tzinfo=dt.tzinfo, locale=locale)
