"""Textual user interface: the only layer that imports Textual or Rich."""
