import os


class Config:
    PAGINATION_DEFAULT = int(os.environ.get("PAGINATION_DEFAULT", "25"))
    PAGINATION_LIMIT = int(os.environ.get("PAGINATION_LIMIT", "100"))
    IF_MATCH_REQUIRED = True
