# The MindSpore training-loop course. `make help` lists the targets.
#   make lab    set everything up (venv, data) and open the course in JupyterLab
#   make test   run the whole test suite (sets up what is missing first)

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.course-installed
DATA_STAMP := data/mnist/.verified
PORT   ?= 8888
# Extra arguments, e.g. make run ARGS="--notebooks 04 -p DEVICE_TARGET=Ascend"
ARGS   ?=
# The lessons (not executed copies such as runs/ or checkpoints): new notebooks are picked up automatically.
LESSONS = $(wildcard notebooks/[0-9][0-9]_*.ipynb)
NBVAL   = --nbval-lax --sanitize-with tests/nbval_sanitize.cfg
# The browser suite executes each lesson once and checks its outputs as nbval would; without Chromium it skips,
# and nbval executes the lessons instead.
CHROMIUM ?= $(or $(COURSE_CHROMIUM),/usr/bin/chromium)
NOTEBOOK_CHECK = $(if $(wildcard $(CHROMIUM)),,$(LESSONS) $(NBVAL))
FAST    = -m "not slow and not browser and not integration"
export PYTHONDONTWRITEBYTECODE := 1
# The course's kernelspec (python3 -> .venv's Python) comes first, even if the user has their own "python3" kernel.
export JUPYTER_PATH := $(abspath $(VENV))/share/jupyter

.DEFAULT_GOAL := help
.PHONY: help setup data lab run notebooks test test-unit test-random test-notebooks test-browser lint bench clean

help: ## List the targets
	@echo "The MindSpore training-loop course"
	@echo
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  make %-15s %s\n", $$1, $$2}'
	@echo
	@echo "Variables: PYTHON=$(PYTHON) (must be 3.9-3.11), PORT=$(PORT), ARGS for run/bench"

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; v = sys.version_info[:2]; sys.exit(0 if (3, 9) <= v <= (3, 11) else "MindSpore 2.10 needs Python 3.9-3.11, but $(PYTHON) is %d.%d: run make with PYTHON=python3.11" % v)'
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (ipykernel)" >/dev/null
	@touch $@

setup: $(STAMP) ## Create .venv with the pinned environment (nothing else)

data: $(STAMP) ## Fetch and verify MNIST into data/ (works offline once fetched)
	$(PY) -m course_utils.data fetch

lab: setup data ## Set up, then open JupyterLab on notebooks/ (127.0.0.1, token on)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) --ServerApp.open_browser=False $(if $(filter 0,$(shell id -u)),--allow-root,)

run: setup data ## Run the course with papermill (full-length; QUICK=1 for short runs) into runs/<timestamp>/ with a summary
	$(PY) -m course_utils.run $(if $(QUICK),,--full) $(ARGS)

notebooks: setup data ## Re-execute the stored notebooks from a clean kernel (what a maintainer commits)
	$(PY) scripts/execute_notebooks.py $(ARGS)

test: setup data ## Run the whole test suite: unit, exercise, slow and integration tests, every lesson once in JupyterLab
	$(PY) -m pytest tests $(NOTEBOOK_CHECK) $(ARGS)

test-unit: setup data ## Only the fast tests: no notebook runs, no browser, no msrun launches
	$(PY) -m pytest tests $(FAST) $(ARGS)

test-random: setup data ## The fast tests in random order (repeat one: ARGS="-p randomly_seed=N")
	$(PY) -m pytest tests $(FAST) -p randomly $(ARGS)

test-notebooks: setup data ## Only nbval over notebooks/ (executes every lesson headless)
	$(PY) -m pytest $(LESSONS) $(NBVAL) $(ARGS)

test-browser: setup data ## Only the browser tests (JupyterLab in Debian's Chromium)
	$(PY) -m pytest tests -m browser $(ARGS)

lint: setup ## ruff over course_utils, tests, scripts and the notebooks' code cells (configured in pyproject.toml)
	$(VENV)/bin/ruff check course_utils tests scripts notebooks

bench: setup data ## Benchmarks that print the figures quoted in the notes (ARGS=...)
	$(PY) -m course_utils.bench $(ARGS)

clean: ## Remove run outputs and caches (keeps .venv and data)
	rm -rf runs logs screenshots rewritten_network kernel_meta notebooks/checkpoints notebooks/runs .pytest_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
