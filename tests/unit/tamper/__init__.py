"""Tamper."""
