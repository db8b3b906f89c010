import os


class Config:
    LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
    JSON_AS_ASCII = False
    TRANSLATION_TIMEOUT = float(os.environ.get("TRANSLATION_TIMEOUT", "5"))
    ENABLE_REMOTE_TRANSLATION = os.environ.get("ENABLE_REMOTE_TRANSLATION", "1") == "1"
    MAX_TEXT_LENGTH = int(os.environ.get("MAX_TEXT_LENGTH", "5000"))
