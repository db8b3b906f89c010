"""Per-phase deployment logs: their lines, what kind each line is, replay timing."""
