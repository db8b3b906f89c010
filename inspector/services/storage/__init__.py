"""Writing files safely: atomic writes under a lock."""
