"""Domain services: languages, translation, timezone conversion, localization."""
