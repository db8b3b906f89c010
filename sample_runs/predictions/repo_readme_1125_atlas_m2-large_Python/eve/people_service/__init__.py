"""Eve based REST microservice exposing the ``people`` resource."""
from .app import create_app

__all__ = ["create_app"]
