"""Statistics every view prints: intervals, paired tests, pass@k, percentages."""
