import os


class Config:
    PORT = int(os.environ.get("PORT", "5000"))
    # Reject absurdly large bodies early.
    MAX_CONTENT_LENGTH = 1024 * 1024
