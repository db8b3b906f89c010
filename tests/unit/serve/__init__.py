"""Serve."""
