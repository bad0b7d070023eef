"""deploy/: the gunicorn configuration loads, its logger keeps captain tokens and credentials
out of the access log (unit and with a real gunicorn), and nginx accepts the site file."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from config.redaction import REDACTED, GunicornLogger, RedactingFilter, redact

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TOKEN = "Zq3-captain_Token0123x"  # the shape of secrets.token_urlsafe(16)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"GET /tisch/{TOKEN}/spiel/ HTTP/1.1", "GET /tisch/[redacted]/spiel/ HTTP/1.1"),
        (f"https://doko.example.org/tisch/{TOKEN}/", "https://doko.example.org/tisch/[redacted]/"),
        (f"/tisch/{TOKEN}?x=1", "/tisch/[redacted]?x=1"),
        ("/verwaltung/herbst/tisch/12/", "/verwaltung/herbst/tisch/12/"),
        (f"/turniere/herbst/anmeldung/{TOKEN}/", "/turniere/herbst/anmeldung/[redacted]/"),
        (f"Authorization: Table {TOKEN}", "Authorization: Table [redacted]"),
        ("Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "Token [redacted]"),
        ("Not Found: /turniere/herbst/", "Not Found: /turniere/herbst/"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_django_log_filter_redacts_formatted_messages() -> None:
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1,
                               "Forbidden: %s", (f"/tisch/{TOKEN}/aktion/",), None)  # fmt: skip
    assert RedactingFilter().filter(record) is True
    assert record.getMessage() == f"Forbidden: /tisch/{REDACTED}/aktion/"
    try:
        raise ValueError(f"no table for /tisch/{TOKEN}/")
    except ValueError:
        import sys as _sys

        crashed = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Error",
                                    (), _sys.exc_info())  # fmt: skip
    RedactingFilter().filter(crashed)
    assert TOKEN not in logging.Formatter().format(crashed)


def _gunicorn_config() -> object:
    from gunicorn.config import Config

    cfg = Config()
    namespace: dict[str, object] = {"__file__": str(DEPLOY / "gunicorn.conf.py")}
    exec(compile((DEPLOY / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), namespace)
    for name, value in namespace.items():
        if name in cfg.settings:
            cfg.set(name, value)
    return cfg


def test_gunicorn_access_log_atoms_are_redacted() -> None:
    cfg = _gunicorn_config()
    assert cfg.logger_class is GunicornLogger  # type: ignore[attr-defined]
    logger = GunicornLogger(cfg)
    environ = {
        "REQUEST_METHOD": "POST", "RAW_URI": f"/tisch/{TOKEN}/spiel/?n=1",
        "PATH_INFO": f"/tisch/{TOKEN}/spiel/", "QUERY_STRING": "n=1",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": f"https://doko.example.org/tisch/{TOKEN}/",
        "HTTP_AUTHORIZATION": f"Table {TOKEN}", "HTTP_COOKIE": "sessionid=abc",
    }  # fmt: skip
    headers = [("AUTHORIZATION", f"Table {TOKEN}"), ("COOKIE", "sessionid=abc")]
    request = SimpleNamespace(headers=headers)
    response = SimpleNamespace(status="200 OK", sent=12, headers=[])
    atoms = logger.atoms(response, request, environ, SimpleNamespace(seconds=0, microseconds=5))
    line = cfg.access_log_format % atoms  # type: ignore[attr-defined]
    assert TOKEN not in line and "/tisch/[redacted]/spiel/?n=1" in line
    assert all(TOKEN not in str(value) for value in atoms.values())
    assert atoms["{authorization}i"] == REDACTED and atoms["{cookie}i"] == REDACTED
    assert atoms["{http_authorization}e"] == REDACTED


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_real_gunicorn_logs_no_captain_token(tmp_path: Path) -> None:
    """gunicorn with deploy/gunicorn.conf.py: a captain's page, an API call with a table
    token and a Referer; neither its access log nor Django's log shows the token."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}",
               GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="1")  # fmt: skip
    log = tmp_path / "gunicorn.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--config",
             str(DEPLOY / "gunicorn.conf.py")],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/api/v1/nothing/", timeout=2)
                except urllib.error.HTTPError:
                    break
                except OSError:
                    time.sleep(0.1)
            requests = [
                urllib.request.Request(f"{base}/tisch/{TOKEN}/"),
                urllib.request.Request(f"{base}/api/v1/captain/", headers={
                    "Authorization": f"Table {TOKEN}",
                    "Referer": f"https://doko.example.org/tisch/{TOKEN}/"}),
            ]  # fmt: skip
            for request in requests:
                # An empty database: errors are fine, the log is what counts.
                with contextlib.suppress(urllib.error.HTTPError):
                    urllib.request.urlopen(request, timeout=10)
        finally:
            server.terminate()
            server.wait(timeout=30)
    text = log.read_text()
    assert "/tisch/[redacted]/" in text, text
    assert "GET /api/v1/captain/" in text, text
    assert TOKEN not in text, text


def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None or shutil.which("openssl") is None:
        pytest.skip("nginx or openssl is not installed (.ci/run installs them)")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=doko.example.org", "-keyout", str(tmp_path / "privkey.pem"),
         "-out", str(tmp_path / "fullchain.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = (DEPLOY / "nginx" / "doko.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/doko.example.org/", f"{tmp_path}/")
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    (tmp_path / "doko.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {tmp_path}/doko.conf;\n}}\n"
    )
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "$doko_redacted_uri" in site and "proxy_request_buffering on" in site
