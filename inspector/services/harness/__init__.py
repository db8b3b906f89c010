"""The evaluation harness: deploy generated repos, run their task's tests, keep every detail."""
