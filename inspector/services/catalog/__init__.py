"""Catalog."""
