# The developer loop: lint, type-check the model (strict, see [tool.mypy]), run the tests.
# `make check TESTS=tests/unit` runs part of the suite; PYTHON picks the interpreter (a venv).
PYTHON ?= python
TESTS ?=

.PHONY: check
check:
	$(PYTHON) -m ruff check inspector tests
	$(PYTHON) -m mypy inspector/model
	$(PYTHON) -m pytest $(TESTS)
