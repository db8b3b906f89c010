"""The Docker sandbox: base image, per-sample images, isolated deployments, re-runs."""
