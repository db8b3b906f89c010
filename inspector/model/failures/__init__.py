"""Failures."""
