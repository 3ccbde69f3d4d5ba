# Two commands on a fresh machine: `make play` and `make test` (each sets up .venv first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench setup clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --no-compile -e '.[dev]'  # no .pyc for every installed file: imports compile what they use
	touch $(STAMP)

setup: $(STAMP)

play: $(STAMP)
	$(BIN)/gm play

lint: $(STAMP)
	$(BIN)/ruff check gm tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n auto

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV)
