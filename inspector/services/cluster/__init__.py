"""Evaluating on a cluster: ``inspector evaluate --executor ray`` (Ray is an optional extra)."""
