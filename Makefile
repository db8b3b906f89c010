# The developer loop: scripts/check.sh (ruff, mypy with the settings in pyproject.toml, pytest).
# `make check TESTS=tests/unit` runs part of the suite; PYTHON picks the interpreter (a venv).
PYTHON ?= python
TESTS ?=

.PHONY: check
check:
	PYTHON=$(PYTHON) bash scripts/check.sh $(TESTS)
