# Palace — developer and classroom entry points (GNU make).
#
#   make app    serve the Palace app (palace.app.server, Voila) on http://$(HOST):$(PORT)/
#   make test   lint + unit/property/doctests + notebooks (nbval) + browser tests
#
# Everything runs inside ./.venv, created on first use. Installs are keyed on
# stamp files that depend on pyproject.toml, so re-running does not reinstall.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON_SYS ?= python3
VENV       := .venv
PY         := $(VENV)/bin/python
PIP        := $(PY) -m pip
# Run a command with the venv first on PATH (so kernels, voila, playwright resolve there).
IN_VENV    := PATH="$(CURDIR)/$(VENV)/bin:$$PATH" VIRTUAL_ENV="$(CURDIR)/$(VENV)"

HOST     ?= 127.0.0.1
PORT     ?= 8866
LAB_PORT ?= 8888

# What `make app` serves: the notebooks/ folder (see the app target); the app itself is
# notebooks/app.ipynb, at /voila/render/app.ipynb.
APP_NOTEBOOK := notebooks/app.ipynb
APP_TARGET   ?= notebooks/

# Serving a class (docs/serving.md): palace.app.server is Voila with a pre-heated
# pool, a ceiling on pages, a line at the door, the page guards and optional HTTPS. Empty
# values keep the server's defaults, computed from this machine (it prints them at start).
POOL        ?=# pre-heated app kernels (default a class: 30, at most half MAX_KERNELS; 0: none)
FORK        ?=# 0: start each page's kernel as a new process, not a fork of the zygote
MAX_KERNELS ?=# most pages served at once (default: half the memory at 170 MB a page)
CERT        ?=# TLS certificate (PEM): serve HTTPS
KEY         ?=# its private key (PEM)
SCHEME      := $(if $(CERT),https,http)

# The whole command in one place. Other options (strip_sources, theme, timeouts, culling)
# live in ./voila.json, which Voila reads from the directory it is started in.
VOILA_CMD = $(strip $(PY) -m palace.app.server $(APP_TARGET) --no-browser --Voila.ip=$(HOST) --port=$(PORT) \
            $(if $(POOL),--pool_size=$(POOL)) $(if $(filter 0,$(FORK)),--fork_kernels=False) \
            $(if $(MAX_KERNELS),--max_kernels=$(MAX_KERNELS)) \
            $(if $(CERT),--certfile=$(CERT)) $(if $(KEY),--keyfile=$(KEY)))

LAB_CMD = $(VENV)/bin/jupyter lab --no-browser --ServerApp.ip=127.0.0.1 \
          --ServerApp.port=$(LAB_PORT) --ServerApp.root_dir=notebooks

# Only lint / test folders that exist (the tree grows over time).
LINT_DIRS   := $(wildcard palace tests bench)
UNIT_DIRS   := $(wildcard tests palace)
NOTEBOOK_DIR ?= notebooks
NOTEBOOKS     = $(shell [ -d $(NOTEBOOK_DIR) ] && find $(NOTEBOOK_DIR) -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
BROWSER_TESTS = $(wildcard tests/browser/test_*.py)

# The compiled engine (palace/native.py): built in place by mypyc when the sources changed.
NATIVE = PALACE_IGNORE_STALE_BUILD=1 $(PY) -c "from palace.native import main; raise SystemExit(main())"
# The tests that run again on the pure-Python engine, beside the doctests of the compiled
# modules (a compiled module shows no doctests): the rules, properties and game interface.
PURE_TESTS := tests/test_rules.py tests/test_properties.py tests/test_game_api.py \
              tests/test_search_support.py tests/test_hands_oracle.py tests/test_scenarios.py \
              tests/test_strict_files.py tests/test_rule_bot.py

# pytest exits 5 when it collected nothing: an empty step is not a failure.
define pytest_allow_empty
	$(IN_VENV) $(PY) -m pytest $(1) || { rc=$$?; if [ $$rc -eq 5 ]; then echo "(no tests collected: $(1))"; else exit $$rc; fi; }
endef

.PHONY: help app test lab lint bench clean install install-test install-bench native pure native-status page \
        test-lint test-types test-unit test-notebooks test-browser notebooks handouts studies solve

help:
	@echo "make app     serve Palace with Voila (HOST=$(HOST) PORT=$(PORT); POOL=, MAX_KERNELS=, FORK=0, CERT= KEY=)"
	@echo "make test    ruff + pytest (unit, property, doctests) + nbval notebooks + browser tests"
	@echo "make page    build the app page's front end (npm, esbuild; make app does it)"
	@echo "make lab     JupyterLab on notebooks/ (127.0.0.1:$(LAB_PORT))"
	@echo "make lint    ruff check"
	@echo "make bench   run bench/run_all.py with the bench extra installed"
	@echo "make notebooks  re-run every notebook in place (store outputs for nbval)"
	@echo "make handouts   every lesson executed as a static HTML page in $(HANDOUT_DIR)/"
	@echo "make studies    regenerate data/studies/ (long: about 25 minutes here; SCHEDULER=tcp://...)"
	@echo "make solve      re-solve the small game into data/solved/ (long: about 40 minutes here)"
	@echo "make docs    build the documentation site into $(DOCS_OUT)/html/ (Sphinx, warnings are errors)"
	@echo "make native  compile the engine with mypyc (done by the targets above when needed)"
	@echo "make pure    remove the compiled engine: pure Python (PALACE_PURE=1: for one process)"
	@echo "make clean   remove .venv, caches, build/ and the compiled engine"

# ---------------------------------------------------------------- environment
$(PY):
	$(PYTHON_SYS) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(VENV)/.installed-app: pyproject.toml | $(PY)
	$(PIP) install -e '.[native]'
	touch $@

# The test extra includes the app, so it satisfies the app stamp too; `agents` (OpenSpiel)
# is tested too.
$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install -e '.[test,agents,native]'
	touch $@ $(VENV)/.installed-app

$(VENV)/.installed-bench: pyproject.toml | $(PY)
	$(PIP) install -e '.[bench,native]'
	touch $@

install: $(VENV)/.installed-app
install-test: $(VENV)/.installed-test
install-bench: $(VENV)/.installed-bench native

# The engine compiled in place from the same source (palace/native.py): only when a source
# changed; a machine that cannot compile carries on in pure Python.
native: $(VENV)/.installed-app
	@PALACE_PURE=1 $(NATIVE) ensure  # the source imported: a changed module may not match the old build

# The page's own front end (palace/app/server/front_end.py), built when its sources change:
# npm installs the locked packages into build/page/, esbuild writes light/dist/. Without npm
# the pages are drawn by Voilà's own front end, as the server says when it starts.
PAGE_DIR := palace/app/server/light
PAGE_JS  := $(PAGE_DIR)/dist/palace-page.js
PAGE_NPM := build/page
page: $(PAGE_JS)
$(PAGE_JS): $(PAGE_DIR)/package.json $(PAGE_DIR)/package-lock.json $(PAGE_DIR)/build.cjs \
            $(wildcard $(PAGE_DIR)/src/*)
	@if ! command -v npm >/dev/null || ! command -v node >/dev/null; then \
	  echo "make page: no Node.js/npm here: pages are drawn by Voila's own front end"; exit 0; fi; \
	mkdir -p $(PAGE_NPM); \
	cp $(PAGE_DIR)/package.json $(PAGE_DIR)/package-lock.json $(PAGE_NPM)/; \
	(cd $(PAGE_NPM) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error); \
	PALACE_PAGE_MODULES=$(CURDIR)/$(PAGE_NPM)/node_modules node $(PAGE_DIR)/build.cjs; \
	echo "make page: $(PAGE_JS) built"

pure: | $(PY)
	@$(NATIVE) remove

native-status: | $(PY)
	@$(NATIVE) status

# ---------------------------------------------------------------- app
# `make app` serves the whole notebooks/ folder (Voila's directory mode), so the app's
# Lessons tab can open every lesson: / lists the notebooks, the app is
# /voila/render/app.ipynb and each lesson /voila/render/NAME.ipynb. voila.json keeps the
# lessons out of the pre-heated pool and culls pages that have no open tab (5 minutes).
app: APP_TARGET := notebooks/
app: APP_PATH = $(if $(wildcard $(APP_NOTEBOOK)),voila/render/app.ipynb,)
app: $(VENV)/.installed-app native page
	@[ -d "$(APP_TARGET)" ] || { echo "Nothing to serve yet: $(APP_TARGET) does not exist." >&2; exit 1; }
	@[ -z "$(KEY)" ] || [ -n "$(CERT)" ] || { echo "KEY=... needs CERT=... too." >&2; exit 1; }
	@if [ "$(HOST)" = "0.0.0.0" ] || [ "$(HOST)" = "::" ]; then \
	    echo "Palace listens on every network interface: open $(SCHEME)://<this machine's address>:$(PORT)/$(APP_PATH)"; \
	else echo "Palace is at $(SCHEME)://$(HOST):$(PORT)/$(APP_PATH)"; fi
	@echo "(every notebook: $(SCHEME)://$(HOST):$(PORT)/ ; stop with Ctrl+C)"
	@echo "(the instructor link, with its token, is printed when the server has started;"
	@echo " set PALACE_INSTRUCTOR_TOKEN=... to choose the token, else a new one is made)"
	@echo "+ $(VOILA_CMD)"
	@$(IN_VENV) $(VOILA_CMD)

lab: $(VENV)/.installed-app native
	@echo "JupyterLab is at http://127.0.0.1:$(LAB_PORT)/lab"
	$(IN_VENV) $(LAB_CMD)

# ---------------------------------------------------------------- tests
# The compile (mostly one C compiler process) runs beside ruff and mypy: two cores, one wait.
test: $(VENV)/.installed-test
	$(MAKE) --no-print-directory -j2 --output-sync=target native page test-lint test-types
	$(MAKE) --no-print-directory test-unit
	$(MAKE) --no-print-directory test-docs
	$(MAKE) --no-print-directory test-notebooks
	$(MAKE) --no-print-directory test-browser

lint: $(VENV)/.installed-test test-lint

test-lint:
	$(VENV)/bin/ruff check $(LINT_DIRS)

# mypy on the whole package (configuration in pyproject.toml, [tool.mypy])
test-types:
	$(VENV)/bin/mypy

# Unit tests on two processes (tests that start servers or clusters take free ports, port 0).
UNIT_WORKERS ?= 2
test-unit:
	$(call pytest_allow_empty,$(UNIT_DIRS) --doctest-modules --ignore=tests/browser -q -n $(UNIT_WORKERS))
	@echo "--- again on the pure-Python engine (PALACE_PURE=1): $(PURE_TESTS) and palace's doctests"
	PALACE_PURE=1 $(IN_VENV) $(PY) -m pytest palace $(PURE_TESTS) --doctest-modules -q

test-notebooks:
	@if [ -z "$(NOTEBOOKS)" ]; then echo "(no notebooks yet: skipping nbval)"; exit 0; fi; \
	$(IN_VENV) $(PY) -m pytest --nbval $(NOTEBOOK_DIR) --nbval-sanitize-with tests/nbval_sanitize.cfg \
	    -q -p no:cacheprovider || { rc=$$?; [ $$rc -eq 5 ] || exit $$rc; }

# Browser tests spend much of their time waiting on kernels and timers: two processes, a
# test file each at a time (its Voila server and pages stay in one process).
BROWSER_WORKERS ?= 2
test-browser:
	@if [ -z "$(BROWSER_TESTS)" ]; then echo "(no browser tests yet: skipping)"; exit 0; fi; \
	$(call pytest_allow_empty,tests/browser -q -n $(BROWSER_WORKERS) --dist loadfile)

# ---------------------------------------------------------------- docs
# The documentation site: docs/, Sphinx with MyST Markdown pages (docs/conf.py), built from
# a clean environment each time (-E: an unchanged page's warnings are never skipped), every
# warning an error (-W, --keep-going to list them all) and every cross-reference checked
# (-n: a page, a heading anchor, a label or a palace name that does not exist fails).
# docs/conf.py sets PALACE_PURE=1 itself: autodoc reads the Python source's docstrings,
# which a module compiled by mypyc does not show.
.PHONY: docs test-docs install-docs
DOCS_OUT ?= build/docs
SPHINX    = $(IN_VENV) $(PY) -m sphinx -b html -E -W --keep-going -n -q docs $(DOCS_OUT)/html

# `agents` too: the API pages document palace.analysis.spiel_game and solver, which import
# OpenSpiel.
$(VENV)/.installed-docs: pyproject.toml | $(PY)
	$(PIP) install -e '.[docs,agents]'
	touch $@

install-docs: $(VENV)/.installed-docs

docs: $(VENV)/.installed-docs
	$(SPHINX)
	@echo "The documentation is at $(DOCS_OUT)/html/index.html"

# The docs' link check, in `make test`: the build above resolves every link inside docs/,
# and tests/test_docs.py (also part of test-unit) checks the relative links and #anchors of
# README.md, CHANGELOG.md and the pages as GitHub shows them, and runs the pages' >>>
# examples. Links to other sites are listed and checked for their form (tests/test_docs.py)
# but not fetched: this machine and CI reach package registries only, so Sphinx's linkcheck
# builder would fail on every external link for reasons that say nothing about the link.
test-docs: $(VENV)/.installed-test $(VENV)/.installed-docs
	$(SPHINX)
	$(IN_VENV) $(PY) -m pytest tests/test_docs.py -q -p no:cacheprovider

# ---------------------------------------------------------------- misc
bench: $(VENV)/.installed-bench native
	@if [ -f bench/run_all.py ]; then $(IN_VENV) $(PY) bench/run_all.py; \
	else echo "(bench/run_all.py not written yet)"; fi

# Re-run notebooks in place after a change to what they show (NB=one file to do one).
# The widget state is stored (metadata.widgets: GitHub, nbviewer, JupyterLab without a
# kernel and the handouts draw the panels from it), cut to what the outputs show
# (palace/widgets/stored_state.py); timings are not. nbval compares the text outputs only.
NB ?= $(NOTEBOOKS)
notebooks: $(VENV)/.installed-test native
	@for nb in $(NB); do echo "running $$nb"; \
	  $(IN_VENV) $(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.store_widget_state=True \
	    --ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	  $(IN_VENV) $(PY) -m palace.widgets.stored_state "$$nb" || exit 1; done

# Handouts: each lesson executed and written as a static HTML page that prints whole
# (palace/app/handouts.py), for students without a server. The panels are drawn from their
# saved state by ipywidgets' html-manager, fetched once with npm into build/vendor/ (or
# PALACE_WIDGET_MANAGER=folder) and copied beside the pages: they open offline.
HANDOUT_DIR ?= build/handouts
handouts: $(VENV)/.installed-app native
	$(IN_VENV) $(PY) -m palace.app.handouts $(HANDOUT_DIR)

# Long computations stay out of `make test` (issue 14): the study tables of data/studies/
# and the solved small game of data/solved/. Each table's file names the command that made
# it; these are those commands. SCHEDULER=tcp://HOST:PORT runs the studies on a Dask cluster.
SCHEDULER ?=
SCHED_ARG  = $(if $(SCHEDULER),--scheduler $(SCHEDULER),)
EFFECTS    = $(IN_VENV) $(PY) -m palace.analysis.variant_effects --seed 2026 $(SCHED_ARG) \
	--variants standard no-limit call-matches-attack two-left-at-once
studies: $(VENV)/.installed-test native
	$(IN_VENV) $(PY) -m palace.analysis.studies --seed 2026 --hands 2000 --samples 500000 \
	    --deals 20000 $(SCHED_ARG)
	$(EFFECTS) --hands 1000 --players 2 --bot rules --name variant_effects_rules
	$(EFFECTS) --hands 1000 --players 2 --bot search --simulations 60 --name variant_effects
	$(EFFECTS) --hands 500 --players 4 --bot search --simulations 40 --name variant_effects_4p

solve: $(VENV)/.installed-test native
	$(IN_VENV) $(PY) -m palace.analysis.solver

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis *.egg-info
	find palace -name '*.so' -delete
	rm -rf $(PAGE_DIR)/dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
