# The developer loop: scripts/check.sh (ruff, mypy with the settings in pyproject.toml, pytest).
# `make check` lints and runs the fast tier (no docker, browser, cluster or slow tests) on every
# core; `make check-all` lints and runs every test, as CI does.
# `make check TESTS=tests/unit` runs part of the suite; PYTHON picks the interpreter (a venv),
# JOBS the number of test processes for `make check` (default: one per core).
PYTHON ?= python
TESTS ?=

.PHONY: check check-all
check:
	PYTHON=$(PYTHON) bash scripts/check.sh $(TESTS)

check-all:
	PYTHON=$(PYTHON) bash scripts/check.sh --all $(TESTS)
