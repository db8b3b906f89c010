"""Deployment logs: lazy indexed reading, filtering, export and on-disk caps."""
