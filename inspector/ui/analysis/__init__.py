"""The Analysis tab: plots, the tasks table and the paired comparison of two runs."""
