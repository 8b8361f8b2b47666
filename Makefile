# Gatehouse: `make serve` sets up and starts the server; `make test` sets up
# and runs the whole test suite. Both work on a fresh machine with python3.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: setup serve lint test bench screenshots clean

# the server alone (what `make serve` needs), then the test extras on top
$(VENV)/.server: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.server
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed

# a try-out: everything it writes goes to ./data; `make serve PORT=2424`
serve: $(VENV)/.server
	$(VENV)/bin/gatehouse serve $(if $(PORT),--port $(PORT))

# the architecture's checks: import contracts (pyproject [tool.importlinter]),
# types (mypy: strict on server/, ansi/, doors/), lint (ruff); 0 findings
lint: setup
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff check .

test: setup lint
	$(PY) -m pytest

bench: setup
	for script in bench/*.py; do \
	  case $$script in bench/echo_server.py|bench/idle_callers.py|bench/ladder.py) continue;; \
	    bench/stratego_material.py|bench/stratego_pool.py|bench/stratego_scripted.py) continue;; esac; \
	  echo "# $$script"; $(PY) $$script --quick || exit 1; \
	done

screenshots: setup
	$(PY) scripts/screenshots.py
	$(PY) scripts/browser_screenshot.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
