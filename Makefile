# Two commands on a fresh machine: `make play` and `make test` (each sets up .venv first).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench setup clean browser-deps js

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

# What the browser tests (tests/web) need, installed when it can be: Playwright from PyPI into the venv, and
# Debian's chromium when run as root with apt (never a browser download).  Without them tests/web is
# skipped, and the test run's last line says so (tests/conftest.py).
browser-deps: $(STAMP)
	@$(BIN)/python -c "import playwright" 2>/dev/null || $(BIN)/pip install -q -e '.[browser]' >/dev/null 2>&1 \
		|| echo "make: could not install the browser extra (pip install -e '.[browser]'): tests/web will be skipped"
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } \
		|| echo "make: chromium is missing (apt-get install chromium): tests/web will be skipped"

test: lint typecheck browser-deps pytest

# the npm tools of the tests (tests/js: Node 22 for the MCP conformance suite, the MCP Apps host bridge
# and client, esbuild), exactly as the lock file pins them, installed inside the checkout by the npm
# registry's own client; the tests call this target when tests/js/node_modules is missing or stale
JS := tests/js
$(JS)/node_modules/.installed: $(JS)/package.json $(JS)/package-lock.json
	cd $(JS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

js: $(JS)/node_modules/.installed

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) $(JS)/node_modules $(JS)/build
