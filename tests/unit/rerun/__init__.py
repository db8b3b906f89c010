"""Rerun."""
