# Doko-Turnier: the two commands a newcomer needs are `make run` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PYTHON := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
# The suite runs in parallel (pytest-xdist), one worker more than there are cores (see
# pytest_xdist_auto_num_workers in tests/conftest.py: many tests mostly wait); tests that must
# not run side by side share an xdist_group, which --dist loadgroup keeps on one worker.
# PYTEST_ARGS= runs it in one process; PYTEST_ARGS="-n auto --dist loadgroup -m 'not slow'"
# skips the sweeps.
PYTEST_ARGS ?= -n auto --dist loadgroup

.PHONY: run hall test lint typecheck migrations-check pytest install install-dev messages demo clean

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

# `make run` serves this machine only; `HOST=0.0.0.0 make run` serves the local network, so
# phones can try it. The printed QR codes and links (SITE_URL) then point at this machine's
# address on that network, found by asking which local address would reach the outside (a
# UDP socket sends nothing); SITE_URL and ALLOWED_HOSTS set in the environment win.
RUN_HOST := $(if $(filter 0.0.0.0,$(HOST)),$(shell $(PY) -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("192.0.2.1", 9)); print(s.getsockname()[0])' 2>/dev/null || echo 127.0.0.1),$(HOST))
RUN_SITE_URL = $(or $(SITE_URL),http://$(RUN_HOST):$(PORT))
comma := ,
RUN_ALLOWED_HOSTS = $(or $(ALLOWED_HOSTS),localhost$(comma)127.0.0.1$(comma)[::1]$(comma)$(RUN_HOST))

run: install
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py demo --if-missing
	@echo ""
	@echo "Doko-Turnier runs on $(RUN_SITE_URL)/  (demo tournament: /turniere/demo/)"
	@echo "Organizer login: user 'demo', password 'demo' (created by the demo command)."
	@echo "Cashier login: user 'kasse', password 'demo' (entry fees at /verwaltung/kasse/)."
	@if [ "$(HOST)" = "0.0.0.0" ]; then \
	  echo "Phones on the same network (Wi-Fi) open $(RUN_SITE_URL)/ and scan the printed codes."; \
	  echo "This is the development server with DEBUG on: use it on a network you trust only."; \
	else echo "Phones cannot reach it: HOST=0.0.0.0 make run serves the local network."; fi
	@echo ""
	SITE_URL='$(RUN_SITE_URL)' ALLOWED_HOSTS='$(RUN_ALLOWED_HOSTS)' $(PYTHON) manage.py runserver $(HOST):$(PORT)

# `make hall` serves the app for real on the local network (README "At the venue"): DEBUG
# off, gunicorn, static files, backups. `make hall HTTPS=1` adds TLS with a self-signed
# certificate; PORT as for `make run`, BACKUP_DIR names the backup folder.
HTTPS ?=
hall: install
	$(PYTHON) manage.py hall --port $(PORT) $(if $(filter-out 0 no off false,$(HTTPS)),--https)

demo: install
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py demo

test: install-dev lint migrations-check typecheck pytest

# The suite starts Python in every worker and in dozens of subprocesses: each would compile
# the project and rewrite the test modules again where the environment says not to keep
# compiled files (PYTHONDONTWRITEBYTECODE). They are kept in __pycache__/ (ignored by git).
test migrations-check pytest: export PYTHONDONTWRITEBYTECODE =

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
