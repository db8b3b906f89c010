#!/usr/bin/env bash
# The developer loop: lint and type-check (scripts/lint.sh), then the fast tier of the tests on
# every core (pytest-xdist): everything not marked docker, browser, cluster or slow (the markers
# come from tests/conftest.py). `--all` runs every test instead, as CI does.
#   bash scripts/check.sh                    lint + the fast tier (`make check`)
#   bash scripts/check.sh tests/unit -k audit  the fast tier of part of the suite
#   bash scripts/check.sh --all              lint + the whole suite (`make check-all`)
# The interpreter is the `python` on PATH (activate the virtualenv first, or set
# PYTHON=.venv/bin/python); JOBS sets the number of test processes (default: one per core).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
PYTHON="$python" bash scripts/lint.sh
if [ "${1:-}" = "--all" ]; then
    shift
    exec "$python" -m pytest "$@"
fi
exec "$python" -m pytest -n "${JOBS:-auto}" --dist worksteal -m "not docker and not browser and not cluster and not slow" "$@"
