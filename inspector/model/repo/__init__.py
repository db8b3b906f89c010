"""A generated repository read safely: the walk, where its requirements install from, tampering
findings."""
