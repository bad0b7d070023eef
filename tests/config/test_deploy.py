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
from typing import Any

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
        (f"GET /mannschaft/{TOKEN}/?spieltag=2", "GET /mannschaft/[redacted]/?spieltag=2"),
        ("/verwaltung/ligen/nord/mannschaften/", "/verwaltung/ligen/nord/mannschaften/"),
        (f"/verwaltung/vereine/einladung/{TOKEN}/", "/verwaltung/vereine/einladung/[redacted]/"),
        (
            "/verwaltung/vereine/kreuz-ass/einladungen/",
            "/verwaltung/vereine/kreuz-ass/einladungen/",
        ),
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


def test_gunicorn_workers_are_recycled_apart() -> None:
    """Workers that share the load evenly reach max_requests together: the jitter must be
    of the same order as the limit, or all of them restart within seconds of each other."""
    cfg: Any = _gunicorn_config()
    assert cfg.max_requests >= 1000
    assert cfg.max_requests_jitter >= cfg.max_requests // 2


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


#: The site's brotli_static needs Debian's libnginx-mod-http-brotli-static, loaded by the
#: main configuration (Debian's /etc/nginx/nginx.conf does so from modules-enabled/).
BROTLI = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")


def _nginx() -> str:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None or shutil.which("openssl") is None or not BROTLI.exists():
        pytest.skip("nginx, its Brotli module or openssl is missing (.ci/run installs them)")
    return nginx


def _certificate(tmp_path: Path) -> None:
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=doko.example.org", "-keyout", str(tmp_path / "privkey.pem"),
         "-out", str(tmp_path / "fullchain.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip


def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    nginx = _nginx()
    _certificate(tmp_path)
    site = (DEPLOY / "nginx" / "doko.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/doko.example.org/", f"{tmp_path}/")
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    (tmp_path / "doko.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"load_module {BROTLI};\n"
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {tmp_path}/doko.conf;\n}}\n"
    )
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "$doko_redacted_uri" in site and "proxy_request_buffering on" in site


def test_the_celery_worker_is_restarted_however_it_is_started() -> None:
    """A worker that exits (kombu gave up on a lost Redis) must come back: under systemd
    and with the README's command alike. Else PDFs and season refreshes stop silently."""
    unit = (DEPLOY / "systemd" / "doko-worker.service").read_text()
    assert "\nRestart=always\n" in unit
    readme = (ROOT / "README.md").read_text().split("## Running it for real", 1)[1]
    block = readme.split("```sh", 1)[1].split("```", 1)[0]
    starts = [line for line in block.splitlines() if "celery -A config worker" in line]
    assert starts and all(line.startswith("while :; do ") for line in starts), starts


def test_nginx_limits_and_json_errors(tmp_path: Path) -> None:
    """The site file run by a real nginx on loopback, gunicorn absent: the API's 502, 413
    and 429 are the error JSON, one address is limited (nodelay burst, then 429), and a
    team captain's token is redacted in the access log."""
    nginx = _nginx()
    _certificate(tmp_path)
    port, dead = _free_port(), _free_port()
    site = (DEPLOY / "nginx" / "doko.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/doko.example.org/", f"{tmp_path}/")
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    site = site.replace("server 127.0.0.1:8000", f"server 127.0.0.1:{dead}")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{_free_port()};")
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl;")
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (tmp_path / "doko.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"load_module {BROTLI};\n"
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\ndaemon off;\n"
        f"events {{}}\nhttp {{\n  include {tmp_path}/doko.conf;\n}}\n"
    )
    server = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    import http.client
    import json
    import ssl

    context = ssl._create_unverified_context()
    connections: list[http.client.HTTPSConnection] = []

    def connect() -> http.client.HTTPSConnection:
        connections.append(
            http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
        )
        return connections[-1]

    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        connection = connect()

        def ask(
            method: str, path: str, body: bytes | None = None
        ) -> tuple[int, dict[str, str], bytes]:
            headers = {"Host": "doko.example.org"}
            if body is not None:
                headers["Content-Type"] = "application/json"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()

        status, headers, body = ask("GET", "/api/v1/tournaments/")
        assert status == 502 and headers["Content-Type"] == "application/json"
        assert json.loads(body)["error"]["code"] == "bad_gateway"
        assert headers["Retry-After"] == "10"
        status, _headers, _body = ask("GET", f"/mannschaft/{TOKEN}/")
        assert status == 502
        status, headers, body = ask("POST", "/api/v1/imports/", b"x" * (7 * 1024 * 1024))
        assert status == 413 and json.loads(body)["error"]["code"] == "request_too_large"
        connection = connect()
        # Ask until the limit answers: the bucket refills at 30 a second, so on a loaded
        # machine the first 429 comes later than the burst, never sooner.
        answers: list[int] = []
        started = time.monotonic()
        while status != 429 and time.monotonic() - started < 60:
            status, headers, body = ask("GET", "/api/v1/tournaments/")
            answers.append(status)
        elapsed = time.monotonic() - started
        assert answers[0] == 502 and status == 429, answers
        # The burst of 300 passes at once (plus the rate in the meantime).
        assert 300 <= answers.index(429) <= 301 + 30 * elapsed + 2, (answers.index(429), elapsed)
        assert json.loads(body)["error"]["code"] == "throttled"
        assert headers["Retry-After"] == "10"
    finally:
        for each in connections:
            each.close()
        server.terminate()
        server.wait(timeout=30)
    log = (tmp_path / "doko.access.log").read_text()
    assert "/mannschaft/[redacted]/" in log and TOKEN not in log


def test_nginx_sends_hashed_static_files_compressed_and_immutable(tmp_path: Path) -> None:
    """The site file's static location on a real nginx: a hashed name comes as its .br to a
    browser that accepts Brotli, as its .gz to one that accepts only gzip, and is kept a year
    (immutable); a name without hash an hour."""
    import gzip
    import http.client
    import ssl

    import brotli

    nginx = _nginx()
    _certificate(tmp_path)
    static = tmp_path / "staticfiles"
    (static / "css").mkdir(parents=True)
    css = b"body { color: black; }\n" * 200
    for name in ("app.css", "app.0123456789ab.css"):
        (static / "css" / name).write_bytes(css)
        (static / "css" / f"{name}.gz").write_bytes(gzip.compress(css))
        (static / "css" / f"{name}.br").write_bytes(brotli.compress(css))
    port = _free_port()
    site = (DEPLOY / "nginx" / "doko.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/doko.example.org/", f"{tmp_path}/")
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    site = site.replace("/srv/doko/app/staticfiles/", f"{static}/")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{_free_port()};")
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl;")
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (tmp_path / "doko.conf").write_text(site)
    # Under root nginx's workers would read the files as nobody, who cannot enter tmp_path.
    user = "user root;\n" if os.geteuid() == 0 else ""
    (tmp_path / "nginx.conf").write_text(
        f"{user}load_module {BROTLI};\n"
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\ndaemon off;\n"
        f"events {{}}\nhttp {{\n  include {tmp_path}/doko.conf;\n}}\n"
    )
    server = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    context = ssl._create_unverified_context()

    def get(path: str, encoding: str) -> tuple[int, http.client.HTTPResponse, bytes]:
        connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
        connection.request("GET", path, headers={"Host": "doko.example.org",
                                                 "Accept-Encoding": encoding})  # fmt: skip
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, response, body

    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        status, response, body = get("/static/css/app.0123456789ab.css", "gzip, deflate, br")
        assert status == 200 and response.getheader("Content-Encoding") == "br"
        assert brotli.decompress(body) == css
        assert response.getheader("Vary") == "Accept-Encoding"
        status, response, body = get("/static/css/app.0123456789ab.css", "gzip, deflate")
        assert status == 200 and response.getheader("Content-Encoding") == "gzip"
        assert gzip.decompress(body) == css
        assert response.getheader("Vary") == "Accept-Encoding"
        assert response.headers.get_all("Cache-Control") == ["public, max-age=31536000, immutable"]
        status, response, body = get("/static/css/app.0123456789ab.css", "identity")
        assert status == 200 and response.getheader("Content-Encoding") is None and body == css
        status, response, _body = get("/static/css/app.css", "gzip")
        assert status == 200 and response.headers.get_all("Cache-Control") == ["max-age=3600"]
    finally:
        server.terminate()
        server.wait(timeout=30)
