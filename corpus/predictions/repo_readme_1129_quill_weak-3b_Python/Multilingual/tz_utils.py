from datetime import datetime
import pytz
from babel.dates import format_datetime


def parse_dt(dt_str):
    return datetime.fromisoformat(dt_str)


def convert_timezone(dt_str, from_tz, to_tz):
    src = pytz.timezone(from_tz)
    dst = pytz.timezone(to_tz)
    dt = parse_dt(dt_str)
    if dt.tzinfo is None:
        dt = src.localize(dt)
    converted = dt.astimezone(dst)
    return dt.isoformat(), converted.isoformat()


def localize_datetime(dt_str, tz, locale):
    zone = pytz.timezone(tz)
    dt = parse_dt(dt_str)
    if dt.tzinfo is None:
        dt = zone.localize(dt)
    else:
        dt = dt.astimezone(zone)
    return format_datetime(dt, format="full", locale=locale)
