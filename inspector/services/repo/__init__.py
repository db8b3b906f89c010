"""Reading a generated repository: its files, previews, references, coverage, modules."""
