"""Analyses across samples and runs (issue 17): paired run comparison, breakdowns, costs."""
