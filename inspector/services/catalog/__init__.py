"""The catalog: the on-disk index of runs the app reads, its worker processes, the watcher."""
