"""Blueprints for the /api/v1 API."""
