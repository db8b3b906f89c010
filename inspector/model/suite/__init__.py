"""A task's golden suite read statically: data flow, pytest output, test ids, JUnit methods."""
