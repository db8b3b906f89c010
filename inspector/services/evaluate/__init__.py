"""Evaluating a run: the local and Ray executors, the progress board, the one run writer."""
