"""Configuration for the Synapse Message Service (benchmark version)."""

import os

HOST = os.environ.get("HOST", "0.0.0.0")
PORT = int(os.environ.get("PORT", "8080"))

SERVER_NAME = "example.org"
SERVICE_NAME = "synapse-benchmark"

# Access token lifetime in seconds
TOKEN_LIFETIME_SECONDS = int(os.environ.get("TOKEN_LIFETIME_SECONDS", "3600"))
