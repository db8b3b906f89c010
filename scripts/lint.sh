#!/usr/bin/env bash
# Lint and type-check (the first two steps of CI's test command and of scripts/check.sh).
# The interpreter is the `python` on PATH (activate the virtualenv first, or set PYTHON=...).
# mypy reads its settings from pyproject.toml: the model and the services strict, the rest loose.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
"$python" -m ruff check inspector tests bench scripts
"$python" -m mypy
