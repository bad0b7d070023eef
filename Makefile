# Doko-Turnier: the two commands a newcomer needs are `make run` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PYTHON := $(VENV)/bin/python
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test lint typecheck migrations-check pytest install install-dev messages demo clean

$(PYTHON):
	$(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when a requirements file changed.
$(VENV)/.installed: $(PYTHON) requirements.txt
	$(PYTHON) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PYTHON) -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

run: install
	$(PYTHON) manage.py migrate --noinput
	@# The demo command arrives with the tournaments issue; until then there is nothing to load.
	@if $(PYTHON) manage.py help demo >/dev/null 2>&1; then $(PYTHON) manage.py demo --if-missing; fi
	@echo ""
	@echo "Doko-Turnier runs on http://127.0.0.1:$(PORT)/  (demo tournament: /turniere/demo/)"
	@echo "Organizer login: user 'demo', password 'demo' (created by the demo command)."
	@echo ""
	$(PYTHON) manage.py runserver 127.0.0.1:$(PORT)

demo: install
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py demo

test: install-dev lint migrations-check typecheck pytest

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

migrations-check: install-dev
	$(PYTHON) manage.py makemigrations --check --dry-run

typecheck: install-dev
	$(VENV)/bin/mypy

pytest: install-dev
	$(VENV)/bin/pytest $(PYTEST_ARGS)

# Needs GNU gettext; the compiled .mo files are committed so a fresh machine needs none.
messages: install-dev
	$(PYTHON) manage.py makemessages --locale de --locale en --ignore '.venv/*' --no-obsolete
	$(PYTHON) manage.py compilemessages --ignore '.venv/*'

# The README's phone-size screenshots (docs/screenshots/): a throwaway demo database, a server
# on a free port, headless Chromium; page one of the print pack through pdftoppm.
.PHONY: screenshots
screenshots: install-dev
	$(PYTHON) docs/screenshots/make_screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
