#!/usr/bin/env bash
# Lint, type-check and check the import layers (the first steps of CI's test command and
# of scripts/check.sh).
# The interpreter is the `python` on PATH (activate the virtualenv first, or set PYTHON=...).
# mypy reads its settings from pyproject.toml: the model and the services strict, the rest loose.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
"$python" -m ruff check inspector tests bench scripts
"$python" -m mypy
# the order of the service folders and no import cycles ([tool.importlinter] in pyproject.toml)
"$python" -c 'import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())' \
    --no-cache
