# Two commands set everything up on a fresh machine with Python 3.11:
#   make lab    create ./.venv if needed, install, start JupyterLab on the course
#   make test   create or refresh ./.venv, run the whole test suite
# Every install goes through constraints.txt, which pins torch to the CPU wheel.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
# make test runs the suite on this many workers (pytest-xdist); tests/conftest.py
# says which tests must share one. One more than the two cores CI has: the tests wait
# on kernels, servers and browsers, and a third worker fills those waits
# (docs/decisions/0046-make-test-runs-three-workers.md).
TEST_WORKERS ?= 3
# Refreshed whenever the dependency declarations change.
STAMP := $(VENV)/.installed
# torch's CPU builds (see constraints.txt). Asked for torch alone, with a short
# timeout and one retry: a machine that reaches only a package mirror loses a
# few seconds here, then pip takes torch from the mirror.
TORCH_INDEX := https://download.pytorch.org/whl/cpu
PIP := $(BIN)/python -m pip
LOG := $(VENV)/install.log
TORCH_PIP_ARGS := --timeout 10 --retries 1 --extra-index-url $(TORCH_INDEX) -c constraints.txt torch

.PHONY: lab test test-fast test-differential test-no-numpy bench book lite lite-download venv clean torch-plan

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing into $(VENV): torch (CPU build) and the course's packages, about 1 GB on disk."
	@echo "The first time takes a few minutes; pip's output goes to $(LOG)."
	@{ $(PIP) install --upgrade pip && \
	   $(PIP) install $(TORCH_PIP_ARGS) && \
	   $(PIP) install -c constraints.txt -e '.[test,book]'; } > $(LOG) 2>&1 \
	   || { tail -n 30 $(LOG); echo "The install failed; the whole log is in $(LOG)."; exit 1; }
	@touch $(STAMP)

venv: $(STAMP)

# What pip would install for torch on this machine, as a JSON report (nothing is installed).
torch-plan: | $(BIN)/python
	@$(PIP) install --dry-run --ignore-installed --quiet --report - $(TORCH_PIP_ARGS)

# make lab LANG=zh: the course in Chinese (course/zh/), with JupyterLab's menus in Chinese.
# Any other LANG (the shell's own, such as C.UTF-8) opens the English course.
lab: $(STAMP)
	@$(BIN)/python -m coursebook.lab --port=$(PORT) --lang="$(LANG)"

test: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# The unit tier (tests/conftest.py says which tests are unit, grading or e2e): everything that
# runs in the test process, no kernel, server or sandbox. What a contributor runs after each change.
test-fast: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m unit -q -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# The course as a static site: every chapter, English and Chinese, executed once in
# _build/book/course (course/ is only read), then built by Sphinx (book/conf.py):
# one page per chapter in _build/book/html and its Chinese twin in _build/book/html/zh.
# The last line printed is the path of its index.html.
book: $(STAMP)
	@PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m book

# The course as a JupyterLite site in _build/lite/ (lite/): every chapter and exercise in both
# languages, run by Pyodide in the browser, served by any static web server. lite-download
# fetches Pyodide (npm) and the wheels it loads (PyPI) into .lite-cache/, the only online step;
# the build itself runs in a network namespace with only loopback (unshare -rn, as any user
# whose kernel allows it), so it cannot reach any host. The last line is its index.html;
# the book's "Run this page" links open its chapters (book/conf.py, book_lite_url).
lite-download: $(STAMP)
	@$(BIN)/python -m lite download

lite: lite-download
	@mkdir -p _build
	@unshare -rn sh -c 'ip link set lo up && PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m lite build' \
		> _build/lite-build.log 2>&1 || { tail -n 30 _build/lite-build.log; exit 1; }
	@grep "recorded" _build/lite-build.log; tail -n 1 _build/lite-build.log

# torch picks its CPU kernels by processor, in two families: the portable ones
# (`default`) round a * b + c twice, the vectorised ones (`avx2`, `avx512`) once
# (a fused multiply-add). The differential suite must pass under both. `make test`
# runs it under the processor's own kernels (the vectorised family on any CPU
# with AVX2); this runs it once more under the portable family (CI does, after
# `make test`). avx2 and avx512 differ only in the order of batch sums, which
# tests/differential/test_diff_portable_rounding.py measures under every family
# the CPU offers, within make test. On a CPU without AVX2 both runs are portable.
DIFFERENTIAL_CAPABILITIES ?= default

test-differential: $(STAMP)
	@for capability in $(DIFFERENTIAL_CAPABILITIES); do \
		echo "== tests/differential with ATEN_CPU_CAPABILITY=$$capability"; \
		ATEN_CPU_CAPABILITY=$$capability $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup \
			--no-loadscope-reorder tests/differential || exit 1; \
	done

# reftorch needs no numpy (it is an optional extra, for from_numpy and .numpy()): a
# throw-away venv with torch, pytest and hypothesis and no numpy runs reftorch's own
# tests on this checkout's src/; only the numpy bridge's tests may skip, by name
# (tests/run_without_numpy.py). CI runs it after the others.
NO_NUMPY_VENV := $(VENV)/no-numpy

test-no-numpy:
	@rm -rf $(NO_NUMPY_VENV) && $(PYTHON) -m venv $(NO_NUMPY_VENV)
	@$(NO_NUMPY_VENV)/bin/python -m pip install --quiet $(TORCH_PIP_ARGS) 'pytest>=7' 'hypothesis>=6.80' \
	   2> $(NO_NUMPY_VENV)/install.log || { tail -n 30 $(NO_NUMPY_VENV)/install.log; exit 1; }
	@$(NO_NUMPY_VENV)/bin/python tests/run_without_numpy.py

bench: $(STAMP)
	@for script in tests/bench/bench_*.py; do \
		echo "== $$script"; \
		PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis _build
