"""Untrusted."""
