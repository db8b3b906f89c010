"""Figures of runs: metrics, corrected figures, benchmark health, failures across runs."""
