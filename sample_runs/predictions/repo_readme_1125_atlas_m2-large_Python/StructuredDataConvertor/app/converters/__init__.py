"""Readers and writers for each supported format, built around :class:`Table`."""
from .table import Table  # noqa: F401
