"""Suite."""
