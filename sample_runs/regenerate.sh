#!/usr/bin/env bash
# Regenerate every evaluated run in sample_runs/ from the bundled tasks and predictions.
# Runs the generated repos as local processes (--allow-local-exec): the synthetic ones are this
# project's own sample code, the real-task ones were written for this corpus (sample_runs/README.md).
# Pass --backend docker (after scripts/sandbox-setup.sh) to evaluate them in the sandbox instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONDONTWRITEBYTECODE=1
EXTRA=("$@")
rm -rf sample_runs/runs sample_runs/repogenesis

# evaluate NAME [stock-layout]: one predictions folder -> runs/NAME (+ stock copy)
evaluate() {
  local name=$1 layout=${2:-} stock=()
  if [ -n "$layout" ]; then
    stock=(--repogenesis-out "sample_runs/repogenesis/$(echo "$name" | cut -d_ -f4)" \
           --repogenesis-layout "$layout")
  fi
  inspector evaluate --tasks sample_runs/tasks \
    --predictions "sample_runs/predictions/$name" --out "sample_runs/runs/$name" \
    "${stock[@]}" --jobs "${JOBS:-2}" --allow-local-exec "${EXTRA[@]}"
}

# Real RepoGenesis tasks (8 Python, and 3 Java repos that need Maven).
evaluate repo_readme_1125_atlas_m2-large_Python current
evaluate repo_readme_1125_dash_m2-mini_Python flat
evaluate repo_readme_1125_relay_open_coder-7b_Python ""
evaluate repo_readme_1125_dash_m2-mini_Java ""
# The synthetic tasks (failure kinds the real corpus does not show: see README.md).
evaluate repo_readme_1118_forge_m1-large_Python current
evaluate repo_readme_1119_relay_open_coder-7b_Python flat
inspector summary sample_runs
