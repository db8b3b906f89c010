"""Eve settings (see https://docs.python-eve.org/en/stable/config.html)."""
import os

from .schemas import PEOPLE_SCHEMA

# --- storage -----------------------------------------------------------------
MONGO_URI = os.environ.get("MONGO_URI", "mongodb://localhost:27017/people_service")
MONGO_DBNAME = os.environ.get("MONGO_DBNAME", "people_service")
# auto | mongo | memory  (see people_service/datalayer.py)
DOCUMENT_STORE = os.environ.get("DOCUMENT_STORE", "auto").lower()

# --- API behaviour -------------------------------------------------------------
URL_PREFIX = ""
API_VERSION = ""
RENDERERS = ["eve.render.JSONRenderer"]

RESOURCE_METHODS = ["GET", "POST"]
ITEM_METHODS = ["GET", "PUT", "PATCH", "DELETE"]

# Concurrency control: every PUT/PATCH/DELETE must carry a matching If-Match.
IF_MATCH = True
ENFORCE_IF_MATCH = True  # missing If-Match -> 428 Precondition Required

# Return the whole document (not only meta fields) on POST/PUT/PATCH.
BANDWIDTH_SAVER = False
# PUT on an unknown id is a 404, never an implicit creation.
UPSERT_ON_PUT = False

PAGINATION = True
PAGINATION_DEFAULT = 25
PAGINATION_LIMIT = 100


DOMAIN = {
    "people": {
        "item_title": "person",
        "schema": PEOPLE_SCHEMA,
        "allow_unknown": False,
        # Filtering on these fields is allowed with ``?where={...}``; sort with ``?sort=``.
        "allowed_filters": ["firstname", "lastname", "role"],
        "sorting": True,
    }
}
