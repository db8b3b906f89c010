"""WSGI entry point (``waitress-serve wsgi:application``)."""
from app import create_app

application = create_app()
