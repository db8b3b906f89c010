#!/usr/bin/env bash
# Regenerate every evaluated run in sample_runs/ from the bundled tasks and predictions.
# Runs the generated repos as local processes (they are this project's own sample code).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONDONTWRITEBYTECODE=1
rm -rf sample_runs/runs sample_runs/repogenesis
inspector evaluate --tasks sample_runs/tasks \
  --predictions sample_runs/predictions/repo_readme_1118_forge_m1-large_Python \
  --out sample_runs/runs/repo_readme_1118_forge_m1-large_Python \
  --repogenesis-out sample_runs/repogenesis/forge --repogenesis-layout current \
  --jobs "${JOBS:-2}" --allow-local-exec "$@"
inspector evaluate --tasks sample_runs/tasks \
  --predictions sample_runs/predictions/repo_readme_1119_relay_open_coder-7b_Python \
  --out sample_runs/runs/repo_readme_1119_relay_open_coder-7b_Python \
  --repogenesis-out sample_runs/repogenesis/relay --repogenesis-layout flat \
  --jobs "${JOBS:-2}" --allow-local-exec "$@"
inspector summary sample_runs
