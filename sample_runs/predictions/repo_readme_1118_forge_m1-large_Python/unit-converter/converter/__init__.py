"""Unit conversion service."""
