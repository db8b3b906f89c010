"""Project and app package for the movies JWT CRUD service."""
