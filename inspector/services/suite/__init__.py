"""Static reading of a task's golden test suite: sources, audit, causes, endpoints hit."""
