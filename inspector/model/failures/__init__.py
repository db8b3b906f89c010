"""What a failure says: traceback text, what a failing test expected, and the per-test triage
items."""
