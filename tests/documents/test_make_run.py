"""`make run` prints links and QR codes for the address it serves: PORT, HOST=0.0.0.0 (the
local network, for phones) and an explicit SITE_URL. Read from `make -n` (nothing runs)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _runserver_line(*arguments: str, **env: str) -> str:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SITE_URL", "ALLOWED_HOSTS", "HOST", "PORT", "MAKEFLAGS")}  # fmt: skip
    result = subprocess.run(
        [make, "-n", "run", *arguments], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return next(line for line in result.stdout.splitlines() if "manage.py runserver" in line)


def _setting(line: str, name: str) -> str:
    match = re.search(rf"{name}='([^']*)'", line)
    assert match, line
    return match.group(1)


def test_default_serves_this_machine_on_8000() -> None:
    line = _runserver_line()
    assert line.endswith("runserver 127.0.0.1:8000")
    assert _setting(line, "SITE_URL") == "http://127.0.0.1:8000"


def test_port_reaches_the_printed_links() -> None:
    line = _runserver_line("PORT=8101")
    assert line.endswith("runserver 127.0.0.1:8101")
    assert _setting(line, "SITE_URL") == "http://127.0.0.1:8101"
    assert _setting(_runserver_line(PORT="8102"), "SITE_URL") == "http://127.0.0.1:8102"


def test_host_0000_serves_the_network_and_prints_this_machines_address() -> None:
    line = _runserver_line("HOST=0.0.0.0", "PORT=8101")
    assert line.endswith("runserver 0.0.0.0:8101")
    site = urlsplit(_setting(line, "SITE_URL"))
    assert site.scheme == "http" and site.port == 8101
    assert site.hostname not in (None, "0.0.0.0")  # the address phones open
    assert site.hostname in _setting(line, "ALLOWED_HOSTS").split(",")


def test_an_explicit_site_url_and_allowed_hosts_win() -> None:
    line = _runserver_line(
        "HOST=0.0.0.0", SITE_URL="https://doko.example.org", ALLOWED_HOSTS="doko.example.org"
    )
    assert _setting(line, "SITE_URL") == "https://doko.example.org"
    assert _setting(line, "ALLOWED_HOSTS") == "doko.example.org"
