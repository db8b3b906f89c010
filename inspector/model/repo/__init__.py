"""Repo."""
