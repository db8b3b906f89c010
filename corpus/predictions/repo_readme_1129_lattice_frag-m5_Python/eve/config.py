"""Configuration for the Eve-style people service."""

import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))

HOST = os.environ.get("HOST", "0.0.0.0")
PORT = int(os.environ.get("PORT", "5001"))

DATABASE_PATH = os.environ.get("DATABASE_PATH", os.path.join(BASE_DIR, "people.db"))

# Schema of the `people` resource: field name -> rules
PEOPLE_SCHEMA = {
    "firstname": {"type": "string", "required": True},
    "lastname": {"type": "string", "required": True},
    "role": {"type": "string", "required": True},
}
