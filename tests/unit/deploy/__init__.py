"""Deploy."""
