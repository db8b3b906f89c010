import os


class Config:
    JSON_SORT_KEYS = False
    DEBUG = os.environ.get("FLASK_DEBUG", "0") == "1"
