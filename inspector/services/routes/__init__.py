"""Route resolution for strict API coverage: every (method, path) a generated repo serves,
resolved the way its framework would (see :mod:`.python`, :mod:`.django`, :mod:`.eve`,
:mod:`.java`, :mod:`.java_plain`), each with its ``file:line``."""

from __future__ import annotations

from inspector.services.routes.model import (
           METHODS,
           WILD,
           Route,
           Unknown,
           matches,
           normalize,
           pattern,
)
from inspector.services.routes.resolve import find_routes

__all__ = ["METHODS", "WILD", "Route", "Unknown", "find_routes", "matches", "normalize",
           "pattern"]
