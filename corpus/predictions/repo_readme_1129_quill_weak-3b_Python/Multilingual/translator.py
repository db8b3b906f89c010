from googletrans import Translator, LANGUAGES

translator = Translator()


def get_languages():
    return LANGUAGES


def translate_text(text, source_lang, target_lang):
    src = source_lang.lower()
    dest = target_lang.lower()
    if src not in LANGUAGES:
        raise ValueError("Unsupported source language: " + source_lang)
    if dest not in LANGUAGES:
        raise ValueError("Unsupported target language: " + target_lang)
    result = translator.translate(text, src=src, dest=dest)
    return result.text
