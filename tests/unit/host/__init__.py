"""Host."""
