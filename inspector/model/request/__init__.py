"""Request."""
