import os


class Settings:
    SERVICE_NAME = "synapse-benchmark"
    SERVER_NAME = os.environ.get("SYNAPSE_SERVER_NAME", "example.org")
    TOKEN_TTL_SECONDS = int(os.environ.get("TOKEN_TTL_SECONDS", "3600"))
    DEFAULT_LIMIT = 20
    MAX_LIMIT = 100


settings = Settings()
