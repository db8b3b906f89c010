"""Timezone conversion and localized datetime formatting.

All public functions raise ``ValueError`` with a human readable message when
the input is invalid, so callers can turn that into a 400 response.
"""
import re
from datetime import datetime

import pytz
from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime

from config import SUPPORTED_LOCALES

_LOCALE_PATTERN = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$")


def parse_iso_datetime(value):
    """Parse an ISO 8601 datetime string into a ``datetime`` object.

    Accepts a trailing ``Z`` (UTC) as well as explicit offsets. The result may
    be naive (no offset given) or aware.
    """
    if not isinstance(value, str) or not value.strip():
        raise ValueError("datetime must be a non-empty ISO 8601 string")
    text = value.strip()
    if text.endswith("Z") or text.endswith("z"):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    # A few common ISO variants that fromisoformat on older Pythons rejects.
    for fmt in (
        "%Y-%m-%dT%H:%M:%S.%f%z",
        "%Y-%m-%dT%H:%M:%S%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%dT%H:%M:%S.%f",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d",
    ):
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise ValueError("Invalid datetime format: '%s'. Expected ISO 8601 format" % value)


def is_valid_timezone(name):
    """Return True when ``name`` is a known IANA timezone."""
    if not isinstance(name, str) or not name.strip():
        return False
    try:
        pytz.timezone(name.strip())
        return True
    except (pytz.UnknownTimeZoneError, AttributeError, ValueError):
        return False


def get_timezone(name):
    """Return the pytz timezone for ``name`` or raise ``ValueError``."""
    if not is_valid_timezone(name):
        raise ValueError("Invalid timezone: '%s'" % name)
    return pytz.timezone(name.strip())


def _babel_locale(code):
    """Return a Babel ``Locale`` for ``code`` or None when it is not usable."""
    if not isinstance(code, str) or not code.strip():
        return None
    text = code.strip()
    if not _LOCALE_PATTERN.match(text):
        return None
    try:
        return Locale.parse(text.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None


def is_valid_locale(code):
    """Return True when ``code`` is a supported or Babel-known locale."""
    if not isinstance(code, str) or not code.strip():
        return False
    if code.strip() in SUPPORTED_LOCALES:
        return True
    return _babel_locale(code) is not None


def localize_to(dt, tz):
    """Attach ``tz`` to a naive datetime, or convert an aware one to ``tz``."""
    if dt.tzinfo is None or dt.tzinfo.utcoffset(dt) is None:
        return tz.localize(dt)
    return dt.astimezone(tz)


def convert_timezone(datetime_str, from_timezone, to_timezone):
    """Convert ``datetime_str`` from ``from_timezone`` to ``to_timezone``.

    Returns a dict with ``original_datetime``, ``converted_datetime``,
    ``from_timezone`` and ``to_timezone`` (ISO 8601 strings with offsets).
    """
    source_tz = get_timezone(from_timezone)
    target_tz = get_timezone(to_timezone)
    dt = parse_iso_datetime(datetime_str)
    original = localize_to(dt, source_tz)
    converted = original.astimezone(target_tz)
    converted = target_tz.normalize(converted)
    return {
        "original_datetime": original.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": from_timezone.strip(),
        "to_timezone": to_timezone.strip(),
    }


def localize_datetime(datetime_str, timezone, locale):
    """Format ``datetime_str`` in ``timezone`` for ``locale``.

    A naive datetime is interpreted as being in ``timezone``; an aware one is
    converted to it. Returns a dict with ``formatted_datetime``, ``timezone``
    and ``locale``.
    """
    tz = get_timezone(timezone)
    if not is_valid_locale(locale):
        raise ValueError("Invalid locale: '%s'" % locale)
    babel_locale = _babel_locale(locale)
    if babel_locale is None:
        raise ValueError("Invalid locale: '%s'" % locale)
    dt = parse_iso_datetime(datetime_str)
    local_dt = localize_to(dt, tz)
    formatted = format_datetime(local_dt, format="long", tzinfo=tz, locale=babel_locale)
    return {
        "formatted_datetime": formatted,
        "timezone": timezone.strip(),
        "locale": locale.strip(),
    }
