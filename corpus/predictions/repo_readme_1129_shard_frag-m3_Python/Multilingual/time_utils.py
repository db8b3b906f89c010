"""Datetime helpers for the Multilingual service.

Responsibilities:
  * parsing ISO 8601 datetime strings (with or without an offset / trailing "Z"),
  * converting datetimes between IANA time zones,
  * formatting datetimes for a locale (e.g. en_US, zh_CN, es_ES),
  * validating every user-supplied value.

Every validation problem raises :class:`TimeUtilsError`, a subclass of
``ValueError``, so callers may catch either and turn it into a 400 response.
The high-level helpers (:func:`convert_timezone`, :func:`localize_datetime`)
return dictionaries shaped like the API responses described in the README.
"""

import re
from datetime import datetime, timezone as dt_timezone

try:  # pytz is the documented dependency
    import pytz  # type: ignore
except ImportError:  # pragma: no cover - fallback when pytz is missing
    pytz = None

try:  # pragma: no cover - only used when pytz is unavailable
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # type: ignore
except ImportError:  # pragma: no cover
    ZoneInfo = None
    ZoneInfoNotFoundError = Exception


class TimeUtilsError(ValueError):
    """Raised when a datetime, timezone or locale value is invalid."""


# Friendly aliases so callers can use whichever name they expect.
ValidationError = TimeUtilsError
TimezoneError = TimeUtilsError


# --------------------------------------------------------------------------
# Generic validation helpers
# --------------------------------------------------------------------------

def _require_string(value, field_name):
    """Ensure *value* is a non-empty string and return it stripped."""
    if value is None:
        raise TimeUtilsError("Missing required field: {}".format(field_name))
    if not isinstance(value, str):
        raise TimeUtilsError("Field '{}' must be a string".format(field_name))
    value = value.strip()
    if not value:
        raise TimeUtilsError("Field '{}' must not be empty".format(field_name))
    return value


# --------------------------------------------------------------------------
# ISO datetime parsing
# --------------------------------------------------------------------------

_ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def parse_iso_datetime(value, field_name="datetime"):
    """Parse an ISO 8601 datetime string.

    Accepts forms such as ``2025-10-30T12:00:00``, ``2025-10-30 12:00``,
    ``2025-10-30T12:00:00.123456``, ``2025-10-30T12:00:00+08:00``,
    ``2025-10-30T12:00:00Z`` and a bare date ``2025-10-30``.

    Returns a :class:`datetime.datetime` that is naive when the input carried
    no offset and aware otherwise.
    """
    text = _require_string(value, field_name)

    if not _ISO_DATE_RE.match(text):
        raise TimeUtilsError(
            "Invalid datetime format for '{}': expected ISO 8601 "
            "(e.g. '2025-10-30T12:00:00')".format(field_name)
        )

    candidate = text
    # Python < 3.11 does not understand a trailing "Z" in fromisoformat.
    if candidate.endswith(("Z", "z")):
        candidate = candidate[:-1] + "+00:00"

    try:
        parsed = datetime.fromisoformat(candidate)
    except (ValueError, TypeError):
        parsed = None

    if parsed is None:
        # A few extra tolerated layouts (e.g. offset without colon).
        for fmt in ("%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z",
                    "%Y-%m-%dT%H:%M%z", "%Y-%m-%d %H:%M:%S%z"):
            try:
                parsed = datetime.strptime(candidate, fmt)
                break
            except ValueError:
                continue

    if parsed is None:
        raise TimeUtilsError(
            "Invalid datetime format for '{}': expected ISO 8601 "
            "(e.g. '2025-10-30T12:00:00')".format(field_name)
        )
    return parsed


# Alias names
parse_datetime = parse_iso_datetime


# --------------------------------------------------------------------------
# Time zones
# --------------------------------------------------------------------------

def get_timezone(name, field_name="timezone"):
    """Return a tzinfo for the IANA time zone *name* or raise TimeUtilsError."""
    tz_name = _require_string(name, field_name)

    if pytz is not None:
        try:
            return pytz.timezone(tz_name)
        except Exception:  # pytz.UnknownTimeZoneError and friends
            raise TimeUtilsError(
                "Invalid timezone for '{}': {}".format(field_name, tz_name)
            )

    if ZoneInfo is not None:  # pragma: no cover - fallback path
        try:
            return ZoneInfo(tz_name)
        except (ZoneInfoNotFoundError, ValueError, KeyError, OSError):
            raise TimeUtilsError(
                "Invalid timezone for '{}': {}".format(field_name, tz_name)
            )

    if tz_name.upper() in ("UTC", "GMT", "ETC/UTC"):  # pragma: no cover
        return dt_timezone.utc
    raise TimeUtilsError(  # pragma: no cover
        "Invalid timezone for '{}': {}".format(field_name, tz_name)
    )


def validate_timezone(name, field_name="timezone"):
    """Validate a timezone name; returns the cleaned name."""
    get_timezone(name, field_name)
    return name.strip()


def is_valid_timezone(name):
    """Boolean convenience wrapper around :func:`get_timezone`."""
    try:
        get_timezone(name)
        return True
    except TimeUtilsError:
        return False


def attach_timezone(dt, tz):
    """Interpret *dt* in *tz*.

    Naive datetimes are localized to *tz*; aware datetimes are converted to it.
    """
    if dt.tzinfo is None or dt.tzinfo.utcoffset(dt) is None:
        if hasattr(tz, "localize"):  # pytz zones need localize()
            return tz.localize(dt)
        return dt.replace(tzinfo=tz)
    return to_timezone(dt, tz)


def to_timezone(dt, tz):
    """Convert an aware datetime to *tz* (normalizing for pytz)."""
    converted = dt.astimezone(tz)
    if hasattr(tz, "normalize"):
        converted = tz.normalize(converted)
    return converted


def convert_timezone(datetime_str, from_timezone=None, to_timezone_name=None,
                     **kwargs):
    """Convert *datetime_str* from one IANA time zone to another.

    Can also be called with the request payload dict as the only argument.
    Returns a dict shaped like the /api/timezone response.
    """
    if isinstance(datetime_str, dict) and from_timezone is None \
            and to_timezone_name is None:
        payload = datetime_str
        datetime_str = payload.get("datetime")
        from_timezone = payload.get("from_timezone")
        to_timezone_name = payload.get("to_timezone")
    if to_timezone_name is None:
        to_timezone_name = kwargs.get("to_timezone", kwargs.get("to_tz"))
    if from_timezone is None:
        from_timezone = kwargs.get("from_tz")

    # Validate all inputs (in request order) before doing any work.
    _require_string(datetime_str, "datetime")
    _require_string(from_timezone, "from_timezone")
    _require_string(to_timezone_name, "to_timezone")

    naive_or_aware = parse_iso_datetime(datetime_str, "datetime")
    source_tz = get_timezone(from_timezone, "from_timezone")
    target_tz = get_timezone(to_timezone_name, "to_timezone")

    original = attach_timezone(naive_or_aware, source_tz)
    converted = to_timezone(original, target_tz)

    return {
        "success": True,
        "original_datetime": original.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": from_timezone.strip(),
        "to_timezone": to_timezone_name.strip(),
    }


# --------------------------------------------------------------------------
# Locales
# --------------------------------------------------------------------------

_LOCALE_RE = re.compile(r"^([A-Za-z]{2,3})(?:[_-]([A-Za-z]{2}|\d{3}))?$")

# ISO 639-1 codes we accept as a locale's language part.
_KNOWN_LANGUAGES = {
    "af", "am", "ar", "az", "be", "bg", "bn", "bs", "ca", "cs", "cy", "da",
    "de", "el", "en", "eo", "es", "et", "eu", "fa", "fi", "fr", "ga", "gl",
    "gu", "he", "hi", "hr", "hu", "hy", "id", "is", "it", "ja", "ka", "kk",
    "km", "kn", "ko", "ky", "lo", "lt", "lv", "mk", "ml", "mn", "mr", "ms",
    "mt", "my", "nb", "ne", "nl", "no", "pa", "pl", "pt", "ro", "ru", "si",
    "sk", "sl", "sq", "sr", "sv", "sw", "ta", "te", "th", "tl", "tr", "uk",
    "ur", "uz", "vi", "zh", "zu",
}

_EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
              "August", "September", "October", "November", "December"]
_EN_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday"]

# Per-language formatting data. The pattern placeholders are filled by
# _render(); "{tz}" is the zone abbreviation (e.g. CST, EDT).
_LANGUAGE_FORMATS = {
    "en": {
        "months": _EN_MONTHS,
        "days": _EN_DAYS,
        "pattern": "{weekday}, {month_name} {day}, {year} {hour12}:{minute}:{second} {ampm} {tz}",
        "am": "AM", "pm": "PM",
    },
    "zh": {
        "months": ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月",
                   "9月", "10月", "11月", "12月"],
        "days": ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六",
                 "星期日"],
        "pattern": "{year}年{month}月{day}日 {weekday} {hour24}:{minute}:{second} {tz}",
    },
    "ja": {
        "months": ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月",
                   "9月", "10月", "11月", "12月"],
        "days": ["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日",
                 "日曜日"],
        "pattern": "{year}年{month}月{day}日 {weekday} {hour24}:{minute}:{second} {tz}",
    },
    "ko": {
        "months": ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월",
                   "9월", "10월", "11월", "12월"],
        "days": ["월요일", "화요일", "수요일", "목요일", "금요일", "토요일",
                 "일요일"],
        "pattern": "{year}년 {month}월 {day}일 {weekday} {hour24}:{minute}:{second} {tz}",
    },
    "es": {
        "months": ["enero", "febrero", "marzo", "abril", "mayo", "junio",
                   "julio", "agosto", "septiembre", "octubre", "noviembre",
                   "diciembre"],
        "days": ["lunes", "martes", "miércoles", "jueves", "viernes",
                 "sábado", "domingo"],
        "pattern": "{weekday}, {day} de {month_name} de {year}, {hour24}:{minute}:{second} {tz}",
    },
    "fr": {
        "months": ["janvier", "février", "mars", "avril", "mai", "juin",
                   "juillet", "août", "septembre", "octobre", "novembre",
                   "décembre"],
        "days": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi",
                 "dimanche"],
        "pattern": "{weekday} {day} {month_name} {year} {hour24}:{minute}:{second} {tz}",
    },
    "de": {
        "months": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli",
                   "August", "September", "Oktober", "November", "Dezember"],
        "days": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag",
                 "Samstag", "Sonntag"],
        "pattern": "{weekday}, {day}. {month_name} {year} {hour24}:{minute}:{second} {tz}",
    },
    "it": {
        "months": ["gennaio", "febbraio", "marzo", "aprile", "maggio",
                   "giugno", "luglio", "agosto", "settembre", "ottobre",
                   "novembre", "dicembre"],
        "days": ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì",
                 "sabato", "domenica"],
        "pattern": "{weekday} {day} {month_name} {year} {hour24}:{minute}:{second} {tz}",
    },
    "pt": {
        "months": ["janeiro", "fevereiro", "março", "abril", "maio", "junho",
                   "julho", "agosto", "setembro", "outubro", "novembro",
                   "dezembro"],
        "days": ["segunda-feira", "terça-feira", "quarta-feira",
                 "quinta-feira", "sexta-feira", "sábado", "domingo"],
        "pattern": "{weekday}, {day} de {month_name} de {year} {hour24}:{minute}:{second} {tz}",
    },
    "ru": {
        "months": ["января", "февраля", "марта", "апреля", "мая", "июня",
                   "июля", "августа", "сентября", "октября", "ноября",
                   "декабря"],
        "days": ["понедельник", "вторник", "среда", "четверг", "пятница",
                 "суббота", "воскресенье"],
        "pattern": "{weekday}, {day} {month_name} {year} г. {hour24}:{minute}:{second} {tz}",
    },
}

# Country-specific overrides of the language default pattern.
_LOCALE_PATTERNS = {
    "en_GB": "{weekday}, {day} {month_name} {year} {hour24}:{minute}:{second} {tz}",
    "en_AU": "{weekday}, {day} {month_name} {year} {hour12}:{minute}:{second} {ampm} {tz}",
    "en_IN": "{weekday}, {day} {month_name} {year} {hour12}:{minute}:{second} {ampm} {tz}",
}

# Generic fallback (ISO-like numeric layout) for well-formed locales whose
# language has no dedicated formatting table.
_GENERIC_PATTERN = "{year}-{month:02d}-{day:02d} {hour24}:{minute}:{second} {tz}"


def normalize_locale(locale):
    """Return ``(normalized_locale, language)`` or raise TimeUtilsError.

    ``zh-cn``/``zh_CN``/``ZH_cn`` all normalize to ``zh_CN``.
    """
    text = _require_string(locale, "locale")
    match = _LOCALE_RE.match(text)
    if not match:
        raise TimeUtilsError(
            "Invalid locale: {} (expected format language_COUNTRY, "
            "e.g. 'en_US')".format(text)
        )
    language = match.group(1).lower()
    region = match.group(2)
    if language not in _KNOWN_LANGUAGES:
        raise TimeUtilsError("Unsupported locale: {}".format(text))
    normalized = language if not region else "{}_{}".format(language,
                                                            region.upper())
    return normalized, language


def validate_locale(locale):
    """Validate a locale code; returns the normalized code (e.g. 'zh_CN')."""
    return normalize_locale(locale)[0]


def is_valid_locale(locale):
    try:
        normalize_locale(locale)
        return True
    except TimeUtilsError:
        return False


def _tz_label(dt):
    """Short zone label such as 'CST', falling back to a UTC offset."""
    name = dt.tzname() if dt.tzinfo is not None else None
    if name and not re.match(r"^[+-]\d", name):
        return name
    offset = dt.utcoffset() if dt.tzinfo is not None else None
    if offset is None:
        return ""
    total = int(offset.total_seconds())
    sign = "+" if total >= 0 else "-"
    total = abs(total)
    return "UTC{}{:02d}:{:02d}".format(sign, total // 3600, (total % 3600) // 60)


def format_datetime_for_locale(dt, locale):
    """Format *dt* (aware or naive datetime) for *locale*."""
    normalized, language = normalize_locale(locale)
    spec = _LANGUAGE_FORMATS.get(language)

    if spec is None:
        pattern = _GENERIC_PATTERN
        months, days = _EN_MONTHS, _EN_DAYS
        am, pm = "AM", "PM"
    else:
        pattern = _LOCALE_PATTERNS.get(normalized, spec["pattern"])
        months, days = spec["months"], spec["days"]
        am, pm = spec.get("am", "AM"), spec.get("pm", "PM")

    hour12 = dt.hour % 12 or 12
    text = pattern.format(
        weekday=days[dt.weekday()],
        month_name=months[dt.month - 1],
        month=dt.month,
        day=dt.day,
        year=dt.year,
        hour24="{:02d}".format(dt.hour),
        hour12=hour12,
        minute="{:02d}".format(dt.minute),
        second="{:02d}".format(dt.second),
        ampm=am if dt.hour < 12 else pm,
        tz=_tz_label(dt),
    )
    return text.strip()


def localize_datetime(datetime_str, timezone_name=None, locale=None, **kwargs):
    """Render *datetime_str* in *timezone_name* formatted for *locale*.

    Naive input is interpreted as local time in *timezone_name*; input with an
    offset is converted to *timezone_name*. Can also be called with the request
    payload dict as the only argument. Returns a dict shaped like the
    /api/localize response.
    """
    if isinstance(datetime_str, dict) and timezone_name is None \
            and locale is None:
        payload = datetime_str
        datetime_str = payload.get("datetime")
        timezone_name = payload.get("timezone")
        locale = payload.get("locale")
    if timezone_name is None:
        timezone_name = kwargs.get("timezone", kwargs.get("tz"))

    _require_string(datetime_str, "datetime")
    _require_string(timezone_name, "timezone")
    _require_string(locale, "locale")

    parsed = parse_iso_datetime(datetime_str, "datetime")
    tz = get_timezone(timezone_name, "timezone")
    normalized_locale = validate_locale(locale)

    localized = attach_timezone(parsed, tz)
    return {
        "success": True,
        "formatted_datetime": format_datetime_for_locale(localized,
                                                         normalized_locale),
        "timezone": timezone_name.strip(),
        "locale": locale.strip(),
    }


# Alias names for callers that guess differently.
format_localized_datetime = localize_datetime
get_localized_datetime = localize_datetime
format_datetime = format_datetime_for_locale
