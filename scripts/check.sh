#!/usr/bin/env bash
# The developer loop: lint and type-check (scripts/lint.sh), then the tests, as CI does.
# `bash scripts/check.sh tests/unit -k audit` passes its arguments to pytest; the interpreter is
# the `python` on PATH (activate the virtualenv first, or set PYTHON=.venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
PYTHON="$python" bash scripts/lint.sh
"$python" -m pytest "$@"
