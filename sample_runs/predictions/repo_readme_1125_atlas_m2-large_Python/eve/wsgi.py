"""WSGI entry point for external servers, e.g. ``waitress-serve --port=5001 wsgi:app``."""
from people_service import create_app

app = create_app()
