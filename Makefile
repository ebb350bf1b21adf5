# benchbook: `make book` builds the whole book, `make test` runs every check. Both set everything up.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: help venv data book test lint sync browser fuzz benchmark mutation mutation-sample lock clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -c 'import sys, ensurepip, venv; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null || \
	  { echo "error: $(PYTHON) is not Python 3.11 with venv: apt-get install python3.11-venv, then make PYTHON=python3.11" >&2; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	@touch $@

venv: $(STAMP) ## create .venv with the pinned dependencies and the package

data: $(STAMP) ## parse data/raw into data/processed
	$(VENV)/bin/benchbook ingest --all

book: $(STAMP) ## ingest, execute the chapters (cached by content) and build _build/html
	$(VENV)/bin/benchbook build

sync: $(STAMP) ## regenerate each notebooks/*.ipynb from its MyST source
	$(VENV)/bin/jupytext --to ipynb --update notebooks/*.md

lint: $(STAMP) ## ruff
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

browser: ## install Debian's chromium for the browser tests (needs root or sudo)
	@command -v chromium >/dev/null || { SUDO=$$(command -v sudo || true); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

test: $(STAMP) browser lint ## lint, build the book (every chapter executed), unit + notebook + browser tests
	$(VENV)/bin/benchbook build
	$(PY) -m pytest -q -n 2 --dist worksteal

fuzz: $(STAMP) ## every parser on 1,500 new damaged copies of its fixtures per test (not in CI; about 5 min on 2 cores)
	BENCHBOOK_HYPOTHESIS=explore $(PY) -m pytest -q -n 2 tests/ingest/test_parser_fuzz.py

benchmark: $(STAMP) ## measure build, cache, re-run and ingest costs (writes benchmarks/results.json)
	$(PY) benchmarks/run.py

mutation: $(STAMP) ## mutation testing of ingest core, checks and analysis (slow, not in CI): benchmarks/mutation/
	rm -rf mutants
	$(VENV)/bin/mutmut run --max-children 2
	$(PY) benchmarks/mutation/score.py

mutation-sample: $(STAMP) ## the same on a random sample of 400 mutants (about 15 min on 2 cores; score within about 2 points)
	rm -rf mutants
	$(PY) benchmarks/mutation/sample.py

lock: ## re-resolve the dependencies and rewrite requirements.txt (needs the network)
	rm -rf /tmp/benchbook-lock && $(PYTHON) -m venv /tmp/benchbook-lock
	/tmp/benchbook-lock/bin/pip install -q . '.[test]'
	{ echo "# Exact pins for Python 3.11 (the lock). Regenerate: make lock. environment.yml must name the same versions (tests/house/test_environment.py)."; \
	  /tmp/benchbook-lock/bin/pip freeze --exclude-editable | grep -v '^benchbook'; } > requirements.txt
	$(PYTHON) -c 'import pathlib; pins=[l for l in pathlib.Path("requirements.txt").read_text().splitlines() if l and l[0] != "#"]; \
	  head=pathlib.Path("environment.yml").read_text().split("  - pip:")[0]; \
	  pathlib.Path("environment.yml").write_text(head + "  - pip:\n" + "".join(f"      - {p}\n" for p in pins) + "      - -e .\n")'

clean: ## remove generated files (build, processed data, caches, venv)
	rm -rf _build data/processed .pytest_cache .ruff_cache .hypothesis mutants $(VENV) src/*.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
