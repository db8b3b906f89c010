"""Datetime helpers: ISO 8601 parsing, IANA timezone handling and
locale-aware datetime formatting.

All public functions raise ``TimezoneError`` (a ``ValueError`` subclass)
with a human readable message when the input is invalid, so callers can
turn it into a 400 response.
"""

import re
from datetime import datetime

import pytz


class TimezoneError(ValueError):
    """Raised for invalid datetimes, timezones or locales."""


# language[_COUNTRY] or language-COUNTRY, e.g. "en", "en_US", "zh-CN"
_LOCALE_RE = re.compile(r"^([A-Za-z]{2,3})(?:[_-]([A-Za-z]{2}|[0-9]{3}))?$")

_EXTRA_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z",
    "%Y-%m-%dT%H:%M:%S.%f%z",
    "%Y-%m-%d %H:%M:%S%z",
    "%Y%m%dT%H%M%S",
    "%Y%m%dT%H%M%S%z",
    "%Y-%m-%dT%H:%M",
)


# --------------------------------------------------------------------------
# Parsing / validation
# --------------------------------------------------------------------------

def parse_iso_datetime(value):
    """Parse an ISO 8601 string into a ``datetime`` (naive or aware)."""
    if not isinstance(value, str) or not value.strip():
        raise TimezoneError("datetime must be a non-empty ISO 8601 string")

    text = value.strip()
    if text[-1] in ("Z", "z"):
        text = text[:-1] + "+00:00"

    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass

    for fmt in _EXTRA_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue

    raise TimezoneError(
        "Invalid datetime format: '{}'. Expected ISO 8601 (e.g. '2025-10-30T12:00:00')".format(value)
    )


def get_timezone(name):
    """Return the pytz timezone for an IANA name or raise ``TimezoneError``."""
    if not isinstance(name, str) or not name.strip():
        raise TimezoneError("timezone must be a non-empty string")
    try:
        return pytz.timezone(name.strip())
    except pytz.UnknownTimeZoneError:
        raise TimezoneError("Invalid timezone: '{}'".format(name))


def is_valid_timezone(name):
    """True if ``name`` is a known IANA timezone."""
    try:
        get_timezone(name)
        return True
    except TimezoneError:
        return False


def _attach_timezone(dt, tz):
    """Interpret a naive datetime in ``tz``; convert an aware one to ``tz``."""
    if dt.tzinfo is None or dt.tzinfo.utcoffset(dt) is None:
        return tz.localize(dt)
    return tz.normalize(dt.astimezone(tz))


# --------------------------------------------------------------------------
# Conversion
# --------------------------------------------------------------------------

def convert_timezone(datetime_str, from_timezone, to_timezone):
    """Convert ``datetime_str`` from one timezone to another.

    Returns a tuple ``(original_iso, converted_iso)`` of ISO 8601 strings
    carrying their UTC offsets.
    """
    dt = parse_iso_datetime(datetime_str)
    src_tz = get_timezone(from_timezone)
    dst_tz = get_timezone(to_timezone)

    original = _attach_timezone(dt, src_tz)
    converted = dst_tz.normalize(original.astimezone(dst_tz))
    return original.isoformat(), converted.isoformat()


# --------------------------------------------------------------------------
# Locale-aware formatting
# --------------------------------------------------------------------------

_MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July",
           "August", "September", "October", "November", "December"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
           "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet",
           "août", "septembre", "octobre", "novembre", "décembre"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli",
           "August", "September", "Oktober", "November", "Dezember"],
    "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno",
           "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
    "pt": ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
           "agosto", "setembro", "outubro", "novembro", "dezembro"],
    "ru": ["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
           "августа", "сентября", "октября", "ноября", "декабря"],
}


def _hms(dt):
    return "{:02d}:{:02d}:{:02d}".format(dt.hour, dt.minute, dt.second)


def _format_en_us(dt):
    hour12 = dt.hour % 12 or 12
    ampm = "AM" if dt.hour < 12 else "PM"
    return "{} {}, {} {:02d}:{:02d}:{:02d} {}".format(
        _MONTHS["en"][dt.month - 1], dt.day, dt.year,
        hour12, dt.minute, dt.second, ampm,
    )


def _format_en(dt):
    return "{} {} {} {}".format(dt.day, _MONTHS["en"][dt.month - 1], dt.year, _hms(dt))


def _format_zh(dt):
    return "{}年{}月{}日 {}".format(dt.year, dt.month, dt.day, _hms(dt))


def _format_ja(dt):
    return "{}年{}月{}日 {}時{:02d}分{:02d}秒".format(
        dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second)


def _format_ko(dt):
    return "{}년 {}월 {}일 {}".format(dt.year, dt.month, dt.day, _hms(dt))


def _format_es(dt):
    return "{} de {} de {}, {}".format(dt.day, _MONTHS["es"][dt.month - 1], dt.year, _hms(dt))


def _format_pt(dt):
    return "{} de {} de {} {}".format(dt.day, _MONTHS["pt"][dt.month - 1], dt.year, _hms(dt))


def _format_fr(dt):
    return "{} {} {} {}".format(dt.day, _MONTHS["fr"][dt.month - 1], dt.year, _hms(dt))


def _format_de(dt):
    return "{}. {} {} {}".format(dt.day, _MONTHS["de"][dt.month - 1], dt.year, _hms(dt))


def _format_it(dt):
    return "{} {} {} {}".format(dt.day, _MONTHS["it"][dt.month - 1], dt.year, _hms(dt))


def _format_ru(dt):
    return "{} {} {} г. {}".format(dt.day, _MONTHS["ru"][dt.month - 1], dt.year, _hms(dt))


def _format_default(dt):
    return dt.strftime("%Y-%m-%d %H:%M:%S")


_LANGUAGE_FORMATTERS = {
    "en": _format_en,
    "zh": _format_zh,
    "ja": _format_ja,
    "ko": _format_ko,
    "es": _format_es,
    "pt": _format_pt,
    "fr": _format_fr,
    "de": _format_de,
    "it": _format_it,
    "ru": _format_ru,
}


def parse_locale(locale):
    """Split a locale code into ``(language, country)``; country may be None."""
    if not isinstance(locale, str) or not locale.strip():
        raise TimezoneError("locale must be a non-empty string (e.g. 'en_US')")
    match = _LOCALE_RE.match(locale.strip())
    if not match:
        raise TimezoneError(
            "Invalid locale: '{}'. Expected format language_COUNTRY (e.g. 'en_US')".format(locale)
        )
    language = match.group(1).lower()
    country = match.group(2).upper() if match.group(2) else None
    return language, country


def format_for_locale(dt, locale):
    """Format an (aware) datetime according to ``locale``."""
    language, country = parse_locale(locale)
    if language == "en" and country in (None, "US"):
        text = _format_en_us(dt)
    else:
        formatter = _LANGUAGE_FORMATTERS.get(language, _format_default)
        text = formatter(dt)
    tz_abbr = dt.strftime("%Z") if dt.tzinfo is not None else ""
    return "{} {}".format(text, tz_abbr).strip()


def localize_datetime(datetime_str, timezone, locale):
    """Return ``datetime_str`` expressed in ``timezone`` and formatted for ``locale``.

    A naive datetime is interpreted as local time in ``timezone``; an aware
    datetime is converted into ``timezone`` first.
    """
    dt = parse_iso_datetime(datetime_str)
    tz = get_timezone(timezone)
    parse_locale(locale)
    localized = _attach_timezone(dt, tz)
    return format_for_locale(localized, locale)
