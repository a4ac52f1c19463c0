# The MindSpore training-loop course. `make help` lists the targets.
#   make lab    set everything up (venv, data) and open the course in JupyterLab
#   make test   run the whole test suite (sets up what is missing first)

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.course-installed
DATA_STAMP := data/mnist/.verified
PORT   ?= 8888
# Extra arguments, e.g. make run ARGS="--notebooks 05 -p DEVICE_TARGET=Ascend"
ARGS   ?=
# The lessons, as the lesson manifest (course_utils/lessons.py) lists them; its command line needs only Python.
LESSONS = $(shell $(PYTHON) -m course_utils.lessons paths)
NBVAL   = --nbval-lax --sanitize-with tests/support/nbval_sanitize.cfg
# Two suites, both run by CI (.ci/run):
# * `make test`, the one every change passes (~10 min on 2 cores): lint, the fast tests, and each English lesson
#   executed once, by the browser suite (tests/browser/): JupyterLab runs it, and its outputs are checked as nbval
#   would (without Chromium the browser tests skip, and nbval executes the lessons instead). 05 runs with quick
#   parameters there; zh 00 and 01 run in a JupyterLab whose interface is in Chinese.
# * `make test-full`, what CI adds (~11 min): the slow and msrun tests; the Chinese edition (notebooks/zh/, the
#   same code cells) as the instructor edition, every lesson at its stored length with every exercise solved and
#   checked as nbval would (tests/lessons/test_solutions.py: zh 05's 99% test accuracy); the offline bundle; the
#   classroom server; the website, built with the network cut off and crawled in Chromium (tests/browser/test_site.py).
CHROMIUM ?= $(or $(COURSE_CHROMIUM),/usr/bin/chromium)
ZH_LESSONS = $(shell $(PYTHON) -m course_utils.lessons paths --lang zh)
NOTEBOOK_CHECK = $(if $(wildcard $(CHROMIUM)),,$(LESSONS) $(NBVAL))
FAST    = -m "not slow and not browser and not integration"
# slow browser tests (the website's crawl) are test-full's; the other browser tests are make test's
LONG    = -m "slow or integration"
# Tests run on JOBS processes (pytest-xdist): one per core, at most 4; JOBS=1 runs them in one process, in file
# order. The longest lessons start first (tests/conftest.py); an idle process takes queued tests from a busy one
# (worksteal). nbval's cells of one notebook must run in order in one kernel, so under nbval a whole file goes to
# one process (loadfile).
# A test whose process dies under it (no assert failed: the worker is gone, e.g. an intermittent crash inside
# MindSpore) runs once more in a new process, and the run's summary lists it as RERUN; if it dies again, it fails.
JOBS   ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)
XDIST   = $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist $(1) --reruns 1 --only-rerun 'crashed while running' -rR)
export PYTHONDONTWRITEBYTECODE := 1
# The course's kernelspec (python3 -> .venv's Python) comes first, even if the user has their own "python3" kernel.
export JUPYTER_PATH := $(abspath $(VENV))/share/jupyter
# An unpacked offline bundle (make bundle) has wheelhouse/: then every install comes from it, never the network.
BUNDLE := $(wildcard wheelhouse/BUNDLE.json)
PIP_FROM := $(if $(BUNDLE),--no-index --find-links wheelhouse/any --find-links wheelhouse/$(shell uname -m) -c wheelhouse/requirements-lock.txt,)

.DEFAULT_GOAL := help
.PHONY: help setup data lab lab-zh run notebooks zh links solutions test test-full test-unit test-random test-notebooks test-browser lint bench bundle hub hub-setup hub-roster hub-update hub-bench site site-setup site-serve doctor test-compat clean

help: ## List the targets
	@echo "The MindSpore training-loop course"
	@echo
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  make %-15s %s\n", $$1, $$2}'
	@echo
	@echo "Variables: PYTHON=$(PYTHON) (must be 3.9-3.11), PORT=$(PORT), ARGS for run/bench"

# A venv whose Python cannot run pip (`python -m venv` interrupted before pip was in, or the Python it was made from
# moved) is created again, instead of failing on every rerun until someone deletes it.
define ensure_venv
@if [ ! -e $(1) ]; then $(PYTHON) -m venv $(1); \
elif ! $(1)/bin/python -m pip --version >/dev/null 2>&1; then \
  echo "$(1) is incomplete (its Python cannot run pip: an interrupted creation?); creating it again"; \
  $(PYTHON) -m venv --clear $(1); fi
endef

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; v = sys.version_info[:2]; sys.exit(0 if (3, 9) <= v <= (3, 11) else "MindSpore 2.10 needs Python 3.9-3.11, but $(PYTHON) is %d.%d: run make with PYTHON=python3.11" % v)'
	$(if $(BUNDLE),@$(PYTHON) scripts/bundle.py check-host)
	$(call ensure_venv,$(VENV))
	$(PY) -m pip install --quiet $(PIP_FROM) --upgrade pip
	$(PY) -m pip install --quiet $(PIP_FROM) -r requirements.txt
	$(PY) -m pip install --quiet $(PIP_FROM) --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (ipykernel)" >/dev/null
	@touch $@

setup: $(STAMP) ## Create .venv with the pinned environment (nothing else)

data: $(STAMP) ## Fetch and verify MNIST into data/ (works offline once fetched)
	$(PY) -m course_utils.data fetch

lab: setup data ## Set up, then open JupyterLab on notebooks/ (127.0.0.1, token on)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) --ServerApp.open_browser=False $(if $(filter 0,$(shell id -u)),--allow-root,)

# The Chinese edition: notebooks/zh/, the interface in Chinese (jupyterlab-language-pack-zh-CN, pinned in
# requirements.txt) for this launch only: JupyterLab reads its user settings from a folder under .venv whose only
# preset is the interface language, so `make lab` and the learner's own JupyterLab stay in their language.
LAB_ZH_SETTINGS := $(abspath $(VENV))/share/course-lab-zh/settings

lab-zh: setup data ## Set up, then open the Chinese edition (notebooks/zh/) in JupyterLab, interface in Chinese
	@mkdir -p "$(LAB_ZH_SETTINGS)/@jupyterlab/translation-extension"
	@echo '{"locale": "zh_CN"}' > "$(LAB_ZH_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings"
	COURSE_LANG=zh JUPYTERLAB_SETTINGS_DIR="$(LAB_ZH_SETTINGS)" $(VENV)/bin/jupyter lab --notebook-dir=notebooks/zh --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) --ServerApp.open_browser=False $(if $(filter 0,$(shell id -u)),--allow-root,)

run: setup data ## Run the course (full-length; QUICK=1: the test suite's short runs) into runs/<timestamp>/ with a summary
	$(PY) -m course_utils.run $(if $(QUICK),--quick,--full) $(ARGS)

notebooks: setup data ## Re-execute the stored notebooks from a clean kernel (what a maintainer commits)
	$(PY) scripts/execute_notebooks.py $(ARGS)

zh: setup ## Rebuild the Chinese notebooks (notebooks/zh/) from the English ones and i18n/zh/, then check they are in step
	$(PY) -m course_utils.i18n build
	$(PY) -m course_utils.i18n check

links: setup ## Bring every MindSpore doc link to the one form (r2.10.0, moved pages replaced), rebuild zh, check them all
	$(PY) -m course_utils.doclinks rewrite

solutions: setup data ## Instructor edition: every lesson with its exercises solved, executed, in build/solutions/ (not committed)
	$(PY) -m course_utils.solutions $(ARGS)

# The website (site/, README "The website"; defined before test-full: a rule's prerequisites expand when make reads
# it): Sphinx + myst-nb over the stored lessons, Pagefind for search, in its own
# .venv-site (requirements-site.txt: the site needs no MindSpore). Build-time options: SITE_REPOSITORY (view-source
# links, the clone command), SITE_BRANCH, SITE_HUB (each lesson links to itself on that classroom JupyterHub).
SITE_PYTHON ?= $(PYTHON)
SITE_VENV   ?= .venv-site
SITE_PY     := $(SITE_VENV)/bin/python
SITE_STAMP  := $(SITE_VENV)/.site-installed
SITE_AXE    := site/node_modules/.package-lock.json
SITE_VARS   := SITE_REPOSITORY SITE_BRANCH SITE_HUB SITE_IP SITE_PORT
export $(SITE_VARS)

test: setup data lint ## The suite every change passes (~10 min on 2 cores): lint, the fast tests, every lesson run once in JupyterLab
	$(PY) -m pytest tests $(NOTEBOOK_CHECK) -m "not slow and not integration" $(call XDIST,$(if $(NOTEBOOK_CHECK),loadfile,worksteal)) $(ARGS)

test-full: setup data site-setup $(SITE_AXE) ## What CI adds to make test (~11 min): slow and msrun tests, the Chinese edition at full length with every exercise solved, offline bundle, classroom server, website
	$(PY) -m pytest tests $(LONG) $(call XDIST,worksteal) $(ARGS)

test-unit: setup data ## Only the fast tests (~75 s on 2 cores): no notebook runs, no browser, no msrun launches
	$(PY) -m pytest tests $(FAST) $(call XDIST,worksteal) $(ARGS)

test-random: setup data ## The fast tests in random order (repeat one: ARGS="--randomly-seed=N")
	$(PY) -m pytest tests $(FAST) -p randomly $(ARGS)

test-notebooks: setup data ## Only nbval over notebooks/ and notebooks/zh/ (executes every lesson, both editions, headless)
	$(PY) -m pytest $(LESSONS) $(ZH_LESSONS) $(NBVAL) $(call XDIST,loadfile) $(ARGS)

test-browser: setup data ## Only the browser tests (JupyterLab in Debian's Chromium)
	$(PY) -m pytest tests -m browser $(call XDIST,worksteal) $(ARGS)

lint: setup ## ruff over course_utils, tests, scripts, hub, site and the notebooks' code cells (configured in pyproject.toml)
	$(VENV)/bin/ruff check course_utils tests scripts hub site notebooks

bench: setup data ## Benchmarks that print the figures quoted in the notes (ARGS=...)
	$(PY) -m course_utils.bench $(ARGS)

bundle: setup data site ## Write dist/mindspore-course-<version>.tar: course, MNIST, the website, wheels for Linux x86_64+aarch64 (PLATFORMS=host: this machine only)
	$(PY) scripts/bundle.py build $(if $(PLATFORMS),--platforms $(PLATFORMS),)

# The classroom server (docs/classroom-server.md): JupyterHub in .venv (requirements-hub.txt), its proxy from npm.
HUB_STAMP := $(VENV)/.hub-installed
HUB_VARS  := HUB_IP HUB_PORT HUB_API_PORT HUB_PROXY_API_PORT HUB_SERVICE_PORT HUB_DATA HUB_STATE HUB_HOMES HUB_AUTH \
             HUB_PASSWORD HUB_ADMINS HUB_ADMIN_PASSWORD HUB_ALLOWED_USERS HUB_GROUP HUB_SPAWNER HUB_LESSONS HUB_CPU_LIMIT HUB_MEM_LIMIT \
             HUB_IDLE_TIMEOUT
export $(HUB_VARS)

$(HUB_STAMP): $(STAMP) requirements-hub.txt
	$(PY) -m pip install --quiet -r requirements-hub.txt
	$(PY) -m pip check
	@touch $@

hub/node_modules/.package-lock.json: hub/package.json hub/package-lock.json
	@command -v npm >/dev/null || { echo "make hub needs Node.js >= 20 and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix hub --no-audit --no-fund --silent

hub-setup: $(HUB_STAMP) hub/node_modules/.package-lock.json data ## Install JupyterHub (requirements-hub.txt) and its proxy (npm), nothing else

hub: hub-setup ## Start the classroom server on HUB_IP:HUB_PORT (127.0.0.1:8000); HUB_ADMIN_PASSWORD=... is the instructor's
	cd hub && $(abspath $(VENV))/bin/jupyterhub -f jupyterhub_config.py

hub-roster: $(HUB_STAMP) ## Print a name and a random password per seat (SEATS=20, or NAMES=ana,ben); then make hub HUB_AUTH=roster
	$(PY) hub/classroom/roster.py $(if $(NAMES),--names $(NAMES),--seats $(or $(SEATS),20)) --admins "$(or $(HUB_ADMINS),instructor)"

hub-update: ## After pulling a fix into the course: print the link that updates each attendee's lessons, keeping their edits
	@$(PYTHON) hub/classroom/lessons.py --link "$(or $(HUB_URL),http://$(or $(HUB_IP),127.0.0.1):$(or $(HUB_PORT),8000))"

hub-bench: hub-setup ## Capacity: N simulated attendees log in, spawn, run notebook 00's first cells (ARGS="--sizes 1 5 10 20")
	$(PY) hub/classroom/bench.py $(ARGS)

# The website's variables are defined above, before test-full, whose prerequisites expand them when make reads it.

$(SITE_STAMP): requirements-site.txt
	@$(SITE_PYTHON) -c 'import sys; v = sys.version_info[:2]; sys.exit(0 if v >= (3, 11) else "make site needs Python 3.11+ (Sphinx 9), but $(SITE_PYTHON) is %d.%d: run make site SITE_PYTHON=python3.11" % v)'
	@[ -x $(SITE_PY) ] || $(SITE_PYTHON) -m venv $(SITE_VENV)
	$(SITE_PY) -m pip install --quiet --upgrade pip
	$(SITE_PY) -m pip install --quiet -r requirements-site.txt
	$(SITE_PY) -m pip check
	@touch $@

$(SITE_AXE): site/package.json site/package-lock.json
	@command -v npm >/dev/null || { echo "the website's browser test needs Node.js >= 20 and npm for axe-core (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix site --no-audit --no-fund --silent

site-setup: $(SITE_STAMP) ## Install the website's tools into .venv-site (requirements-site.txt), nothing else

site: $(SITE_STAMP) ## Build the website from the stored lessons into build/site/ (en/, zh-CN/, search); no network needed
	$(SITE_PY) site/build.py

# An unpacked offline bundle ships the built site (build/site/) and no site tools: it is served as it is.
site-serve: $(if $(BUNDLE),,site) ## Serve build/site/ on SITE_IP:SITE_PORT (127.0.0.1:8000; SITE_IP=0.0.0.0 for a classroom)
	$(PYTHON) site/serve.py

doctor: ## Pre-flight check: machine, .venv and pins, MindSpore, data, kernel, port, Ascend (JSON=FILE: also a report)
	@if [ -x $(PY) ]; then $(PY) -m course_utils.doctor --port $(PORT) $(if $(JSON),--json $(JSON),); \
	else PYTHONPATH=. $(PYTHON) -m course_utils.doctor --port $(PORT) $(if $(JSON),--json $(JSON),); fi

# Another MindSpore release in its own venv (.venv-ms<version>), everything else as pinned. ARGS go to pytest,
# RUN_ARGS to the notebook runner (e.g. RUN_ARGS="--notebooks 05").
MINDSPORE ?= 2.7.1
COMPAT_VENV = .venv-ms$(MINDSPORE)
COMPAT_PY   = $(COMPAT_VENV)/bin/python

test-compat: data ## Fast tests + every notebook (quick parameters) on another MindSpore: MINDSPORE=2.7.1 (default), own venv
	$(call ensure_venv,$(COMPAT_VENV))
	sed 's/^mindspore==[^ ]*/mindspore==$(MINDSPORE)/' requirements.txt > $(COMPAT_VENV)/requirements.txt
	$(COMPAT_PY) -m pip install --quiet --upgrade pip
	$(COMPAT_PY) -m pip install --quiet -r $(COMPAT_VENV)/requirements.txt
	$(COMPAT_PY) -m pip install --quiet --no-deps -e .
	$(COMPAT_PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (ipykernel)" >/dev/null
	JUPYTER_PATH=$(abspath $(COMPAT_VENV))/share/jupyter $(COMPAT_PY) -m pytest tests $(FAST) $(call XDIST,worksteal) \
		-k "not (installed_versions_match_pins and mindspore)" $(ARGS)
	JUPYTER_PATH=$(abspath $(COMPAT_VENV))/share/jupyter $(COMPAT_PY) -m course_utils.run --quick --out runs/compat-$(MINDSPORE) $(RUN_ARGS)

clean: ## Remove run outputs and caches (keeps .venv, .venv-site and data)
	rm -rf build runs logs screenshots rewritten_network kernel_meta notebooks/checkpoints notebooks/runs .pytest_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
