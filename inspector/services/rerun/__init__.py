"""Re-running tests and sending requests against a deployed sample."""
