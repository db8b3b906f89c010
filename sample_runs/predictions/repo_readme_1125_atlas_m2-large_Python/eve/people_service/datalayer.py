"""Document-store data layer.

The service is backed by MongoDB through Eve's stock ``Mongo`` data layer.
When no MongoDB server is reachable (``DOCUMENT_STORE=auto``) or when
``DOCUMENT_STORE=memory`` is set, the same data layer runs on top of
`mongomock`, an in-process implementation of the pymongo API, so the service
is fully usable without any external server (data is then kept in memory and
lost on restart).
"""
import logging

from eve.io.mongo import Mongo

log = logging.getLogger("people_service.datalayer")


class _InMemoryPyMongo:
    """Mimics ``eve.io.mongo.flask_pymongo.PyMongo`` (``cx`` and ``db``)."""

    def __init__(self, dbname: str):
        import mongomock

        self.cx = mongomock.MongoClient(tz_aware=True)
        self.db = self.cx[dbname]


class InMemoryMongo(Mongo):
    """Eve Mongo data layer whose driver is an in-process mongomock client."""

    def init_app(self, app):
        super().init_app(app)
        self._memory = _InMemoryPyMongo(app.config.get("MONGO_DBNAME", "eve"))

    def pymongo(self, resource=None, prefix=None):
        # never keep a per-request prefix around, like the parent does
        self.mongo_prefix = None
        return self._memory


def mongo_reachable(uri: str, timeout_ms: int = 1500) -> bool:
    from pymongo import MongoClient
    from pymongo.errors import PyMongoError

    try:
        client = MongoClient(uri, serverSelectionTimeoutMS=timeout_ms, connectTimeoutMS=timeout_ms)
        try:
            client.admin.command("ping")
        finally:
            client.close()
        return True
    except PyMongoError:
        return False


def choose_data_layer(mode: str, uri: str):
    """Return the Eve data layer class for the configured ``DOCUMENT_STORE``."""
    if mode == "memory":
        log.info("document store: in-process (mongomock)")
        return InMemoryMongo
    if mode == "mongo":
        log.info("document store: MongoDB at %s", uri)
        return Mongo
    if mode != "auto":
        raise ValueError(f"unknown DOCUMENT_STORE {mode!r} (auto|mongo|memory)")
    if mongo_reachable(uri):
        log.info("document store: MongoDB at %s", uri)
        return Mongo
    log.warning("MongoDB not reachable at %s; using the in-process document store", uri)
    return InMemoryMongo
