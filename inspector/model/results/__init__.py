"""One sample's result and a run of them: outcomes, verdicts, not-evaluable and unreadable samples,
filters."""
