from datetime import datetime
import pytz
from googletrans import Translator, LANGUAGES
from babel.dates import format_datetime
from babel.core import UnknownLocaleError

translator = Translator()


def get_supported_languages():
    return dict(LANGUAGES)


def translate_text(text, source_lang, target_lang):
    if source_lang == target_lang:
        return text
    result = translator.translate(text, src=source_lang, dest=target_lang)
    return result.text


def parse_datetime(dt_str):
    try:
        return datetime.fromisoformat(dt_str)
    except (ValueError, TypeError):
        raise ValueError('Invalid datetime format, expected ISO 8601')


def get_timezone(tz_name):
    try:
        return pytz.timezone(tz_name)
    except pytz.UnknownTimeZoneError:
        raise ValueError('Unknown timezone: ' + str(tz_name))


def convert_timezone(dt_str, from_tz, to_tz):
    dt = parse_datetime(dt_str)
    source = get_timezone(from_tz)
    target = get_timezone(to_tz)

    if dt.tzinfo is None:
        dt = source.localize(dt)
    else:
        dt = dt.astimezone(source)

    converted = dt.astimezone(target)
    return dt.isoformat(), converted.isoformat()


def format_localized_datetime(dt_str, tz_name, locale):
    dt = parse_datetime(dt_str)
    tz = get_timezone(tz_name)

    if dt.tzinfo is None:
        dt = tz.localize(dt)
    else:
        dt = dt.astimezone(tz)

    try:
        return format_datetime(dt, format='full', locale=locale)
    except (UnknownLocaleError, ValueError):
        raise ValueError('Invalid locale: ' + str(locale))
