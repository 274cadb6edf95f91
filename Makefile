# Two commands set everything up on a fresh machine with Python 3.11:
#   make lab    create ./.venv if needed, install, start JupyterLab on the course
#   make test   create or refresh ./.venv, run the whole test suite
# Every install goes through constraints.txt, which pins torch to the CPU wheel.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
# Refreshed whenever the dependency declarations change.
STAMP := $(VENV)/.installed

.PHONY: lab test bench venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

lab: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/jupyter lab --allow-root --no-browser \
		--ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir="$(CURDIR)" \
		--LabApp.default_url="/lab/tree/course/00_index.ipynb"

test: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest

bench: $(STAMP)
	@for script in tests/bench/bench_*.py; do \
		echo "== $$script"; \
		PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
