"""Triage."""
