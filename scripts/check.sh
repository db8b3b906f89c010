#!/usr/bin/env bash
# The developer loop and CI's test step: lint, type-check, then the tests.
# `bash scripts/check.sh tests/unit -k audit` passes its arguments to pytest; the interpreter is
# the `python` on PATH (activate the virtualenv first, or set PYTHON=.venv/bin/python).
# mypy reads its settings from pyproject.toml: the model and the services strict, the rest loose.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
"$python" -m ruff check inspector tests bench scripts
"$python" -m mypy
"$python" -m pytest "$@"
