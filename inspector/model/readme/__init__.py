"""Readme."""
