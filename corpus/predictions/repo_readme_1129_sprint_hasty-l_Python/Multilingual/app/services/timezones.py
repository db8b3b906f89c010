"""Timezone conversion and localisation helpers."""
from datetime import datetime

import pytz
from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime

from app.errors import APIError


def parse_iso(value: str) -> datetime:
    s = value.strip()
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(s)
    except ValueError:
        raise APIError(f"Invalid ISO 8601 datetime: {value}", 400)


def get_tz(name: str):
    try:
        return pytz.timezone(name.strip())
    except pytz.UnknownTimeZoneError:
        raise APIError(f"Invalid timezone: {name}", 400)


def attach_tz(dt: datetime, tz) -> datetime:
    if dt.tzinfo is None:
        return tz.localize(dt)
    return dt.astimezone(tz)


def convert(dt_str: str, from_tz: str, to_tz: str):
    src = get_tz(from_tz)
    dst = get_tz(to_tz)
    dt = attach_tz(parse_iso(dt_str), src)
    return dt, dt.astimezone(dst)


def localize(dt_str: str, tz_name: str, locale_code: str) -> str:
    tz = get_tz(tz_name)
    try:
        loc = Locale.parse(locale_code.strip().replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        raise APIError(f"Invalid locale: {locale_code}", 400)
    dt = attach_tz(parse_iso(dt_str), tz)
    return format_datetime(dt, format="full", tzinfo=tz, locale=loc)
