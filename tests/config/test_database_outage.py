"""An unreachable database answers 503 with Retry-After (a page, or the error JSON under
/api/) and one log line per request, no traceback; other database errors stay 500s."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import InterfaceError, OperationalError, ProgrammingError
from django.test import Client

from config.outage import RETRY_AFTER, is_outage

ROOT = Path(__file__).resolve().parents[2]


def _refuse_with(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    from django.db.backends.base.base import BaseDatabaseWrapper

    def refuse(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise error

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", refuse)


class DriverError(Exception):
    """A driver's error with a SQLSTATE (psycopg) or an SQLite error name."""

    def __init__(self, sqlstate: str | None = None, sqlite_errorname: str | None = None) -> None:
        super().__init__(sqlstate or sqlite_errorname)
        if sqlstate is not None:
            self.sqlstate = sqlstate
        if sqlite_errorname is not None:
            self.sqlite_errorname = sqlite_errorname


def _cause(error: Exception, cause: BaseException) -> Exception:
    error.__cause__ = cause
    return error


def test_what_counts_as_an_outage() -> None:
    assert is_outage(OperationalError("connection refused"))
    assert is_outage(InterfaceError("connection already closed"))
    psycopg_refused = type("OperationalError", (Exception,), {"__module__": "psycopg"})()
    assert is_outage(_cause(OperationalError("x"), psycopg_refused))
    assert is_outage(_cause(OperationalError("x"), DriverError(sqlstate="08006")))
    assert is_outage(_cause(OperationalError("x"), DriverError(sqlstate="57P03")))
    # A deadlock, a statement timeout, SQLite's missing table: problems to look at.
    assert not is_outage(_cause(OperationalError("x"), DriverError(sqlstate="40P01")))
    assert not is_outage(_cause(OperationalError("x"), DriverError(sqlstate="57014")))
    assert not is_outage(
        _cause(OperationalError("no such table"), DriverError(sqlite_errorname="SQLITE_ERROR"))
    )
    assert not is_outage(ProgrammingError("syntax error"))
    assert not is_outage(ValueError("bug"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/turniere/", "/api/v1/tournaments/"])
def test_unreachable_database_is_503_with_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    _refuse_with(monkeypatch, OperationalError("connection refused"))
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER)
    if path.startswith("/api/"):
        assert response.json()["error"]["code"] == "service_unavailable"
    else:
        assert response["Content-Type"].startswith("text/html")
        assert b"<h1>" in response.content
    lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(lines) == 1, [record.getMessage() for record in lines]
    assert lines[0].exc_info is None
    assert f"GET {path} answered 503" in lines[0].getMessage()


@pytest.mark.django_db
def test_other_database_errors_stay_500_with_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    deadlock = _cause(OperationalError("deadlock detected"), DriverError(sqlstate="40P01"))
    _refuse_with(monkeypatch, deadlock)
    with caplog.at_level(logging.ERROR):
        response = Client(raise_request_exception=False).get("/turniere/")
    assert response.status_code == 500
    assert any(record.exc_info for record in caplog.records)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_gunicorn_with_postgresql_down(tmp_path: Path) -> None:
    """The real thing: gunicorn with deploy/gunicorn.conf.py and a DATABASE_URL whose port
    nobody listens on. Pages and API answer 503 with Retry-After; the log holds one line
    per request and no traceback."""
    port, dead = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    env.update(DEBUG="1", DATABASE_URL=f"postgres://doko@127.0.0.1:{dead}/doko",
               GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="1",
               LOG_LEVEL="INFO")  # fmt: skip
    log = tmp_path / "gunicorn.log"
    requests = ["/turniere/", "/api/v1/tournaments/", "/turniere/", "/api/v1/tournaments/"]
    answers: list[tuple[int, str | None, str]] = []
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--config",
             str(ROOT / "deploy" / "gunicorn.conf.py"), "--access-logfile", "/dev/null"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(f"{base}/healthz", timeout=2)
                except urllib.error.HTTPError:
                    break  # 503: up, and the database is down
                except OSError:
                    time.sleep(0.1)
            start = log.stat().st_size
            for path in requests:
                try:
                    urllib.request.urlopen(f"{base}{path}", timeout=10)
                except urllib.error.HTTPError as error:
                    body = error.read().decode()
                    answers.append((error.code, error.headers.get("Retry-After"), body))
        finally:
            server.terminate()
            server.wait(timeout=30)
    text = log.read_text()[start:]
    assert [(code, retry) for code, retry, _body in answers] == [(503, str(RETRY_AFTER))] * 4
    assert '"service_unavailable"' in answers[1][2]
    # Everything the app logged (gunicorn's own lines about stopping left out).
    lines = [line for line in text.splitlines() if line.strip() and "] [INFO] " not in line]
    assert len(lines) == len(requests), text
    assert all("Database unavailable" in line for line in lines), text
    assert "Traceback" not in text
