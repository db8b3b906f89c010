"""Reading input that may not be what it claims: bounded file reads, typed JSON fields, load errors,
terminal-safe text."""
