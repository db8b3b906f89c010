"""Benchmark tasks: a task's README and golden suite, the RepoGenesis task layout, difficulty,
predictions folder names."""
