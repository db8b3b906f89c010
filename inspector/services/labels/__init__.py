"""Failure labels: stores, sessions, suggestions, exports and the labelling queue."""
