"""Logs."""
