"""Evaluate."""
