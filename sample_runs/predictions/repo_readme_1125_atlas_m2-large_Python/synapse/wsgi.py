"""WSGI entry point for other servers (single process: state is in memory)."""
from synapse_service import create_app

application = create_app()
