"""The hall server for real: ``manage.py hall`` on a free loopback port with the embedded
database; games entered through the API (several tables at once) and the captain's HTML
form; SIGTERM in the middle of the saves; started again: every acknowledged game is there.
Also what a phone sees: static files hashed, compressed, cached for good; the address in
the terminal; a last backup when it stops. And ``check --deploy`` in hall mode reports only
what plain HTTP or a self-signed certificate cannot fix."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hall.kit import HallPlan, hall_environment

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_tmp() -> Iterator[Path]:
    """A directory of this test's own: pytest's tmp_path lives under a base that other
    pytest runs on the machine prune while a long test still uses it."""
    with tempfile.TemporaryDirectory(prefix="doko-hall-test-") as path:
        yield Path(path)


SOLOS = ("karo", "herz", "pik", "kreuz", "damen", "buben", "fleischlos")
STARTUP = 600.0  # seconds: migrate and collectstatic on a busy machine

# One at a time: each starts the hall kit, whose collectstatic writes the one STATIC_ROOT.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hall_server")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "BACKUP_"))}
    # DJANGO_ALLOW_ASYNC_UNSAFE: set for the browser tests, refused by check --deploy.
    for name in ("HALL_SERVE", "HALL_MODE", "DEBUG", "SECRET_KEY", "SITE_URL", "ALLOWED_HOSTS",
                 "DJANGO_ALLOW_ASYNC_UNSAFE"):  # fmt: skip
        env.pop(name, None)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'hall.sqlite3'}"
    # The kit's collectstatic writes here, not into the STATIC_ROOT that every other
    # server of the suite (live servers, gunicorn) scans while it starts.
    env["STATIC_ROOT"] = str(tmp_path / "static")
    return env


class Hall:
    def __init__(self, tmp_path: Path, env: dict[str, str], port: int, run: int) -> None:
        self.port = port
        self.log = tmp_path / f"hall-{run}.log"
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "manage.py"), "hall", "--host", "127.0.0.1",
                 "--port", str(port), "--no-input", "--workers", "2", "--threads", "4",
                 "--data-dir", str(tmp_path / "data"), "--backup-dir", str(tmp_path / "bk")],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.wait_healthy()

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                status, _ = request(self.port, "GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise AssertionError("the hall server did not answer in time:\n" + self.log.read_text())

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=120)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        # Its gunicorn runs in a session of its own: end it too if it outlived the hall.
        for line in subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True,
                                   check=False).stdout.splitlines():  # fmt: skip
            if f"--bind 127.0.0.1:{self.port} " in line and "gunicorn" in line:
                os.kill(int(line.split()[0]), signal.SIGKILL)


def request(
    port: int, method: str, path: str, body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPResponse]:  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response.status, response


def api(port: int, method: str, path: str, token: str, data: Any = None,
        headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
    sent = {"Authorization": f"Table {token}", "Accept": "application/json", **(headers or {})}
    body = None
    if data is not None:
        body = json.dumps(data).encode()
        sent["Content-Type"] = "application/json"
    status, response = request(port, method, path, body, sent)
    raw = response.body  # type: ignore[attr-defined]
    return status, json.loads(raw) if raw else None


def next_game(nxt: dict[str, Any], number: int) -> dict[str, Any]:
    if nxt.get("forced") is not None:
        return {"contract": "solo", "solo": SOLOS[number % 7], "re": [nxt["forced"]],
                "re_points": 121}  # fmt: skip
    return {"contract": "normal", "re": [1, 2 + number % 3], "re_points": 100 + number % 60}


class Entries:
    """Captains entering games as fast as the server answers, until told to stop."""

    def __init__(self, port: int, tokens: list[str]) -> None:
        self.port = port
        self.tokens = tokens
        self.acknowledged: dict[str, int] = dict.fromkeys(tokens, 0)
        self.unanswered: dict[str, int] = dict.fromkeys(tokens, 0)
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.table, args=(t,)) for t in tokens]

    def table(self, token: str) -> None:
        try:
            status, body = api(self.port, "GET", "/api/v1/captain/", token)
            assert status == 200, body
        except (OSError, AssertionError) as error:
            self.errors.append(repr(error))
            return
        url, version, nxt = body["games_url"], body["sheet"]["version"], body["sheet"]["next"]
        number = 0
        while not self.stop.is_set() and not nxt.get("finished") and number < 20:
            headers = {"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{version}"'}
            try:
                status, body = api(self.port, "POST", url, token, next_game(nxt, number), headers)
            except OSError:
                self.unanswered[token] += 1
                return  # the server has stopped listening
            if status != 201:
                self.errors.append(f"{status}: {body}")
                return
            self.acknowledged[token] += 1
            version, nxt = body["sheet"]["version"], body["sheet"]["next"]
            number += 1

    def total(self) -> int:
        return sum(self.acknowledged.values())


def games_stored(port: int, token: str) -> int:
    status, body = api(port, "GET", "/api/v1/captain/", token)
    assert status == 200, body
    return int(body["sheet"]["next"]["game"]) - 1


def enter_by_form(port: int, token: str) -> int:
    """One game through the captain's HTML form (CSRF cookie and token from the page)."""
    status, page = request(port, "GET", f"/tisch/{token}/")
    assert status == 200
    html = page.body.decode()  # type: ignore[attr-defined]
    cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    version = re.search(r'name="version" value="(\d+)"', html)
    key = re.search(r'name="idempotency_key" value="([^"]+)"', html)
    assert cookie and field and version and key, html[:2000]
    form = {"csrfmiddlewaretoken": field.group(1), "version": version.group(1),
            "idempotency_key": key.group(1), "contract": "normal", "re_players": ["1", "3"],
            "re_points": "130"}  # fmt: skip
    from urllib.parse import urlencode

    status, _answer = request(
        port, "POST", f"/tisch/{token}/spiel/", urlencode(form, doseq=True).encode(),
        {"Content-Type": "application/x-www-form-urlencoded",
         "Cookie": f"csrftoken={cookie.group(1)}"},
    )  # fmt: skip
    return status


def test_sigterm_in_the_middle_of_saves_loses_no_acknowledged_game(own_tmp: Path) -> None:
    tmp_path = own_tmp
    env = environment(tmp_path)
    built = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "hall" / "hall_world.py"), "--tables", "6"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    tokens: list[str] = json.loads(built.stdout.strip().splitlines()[-1])["tokens"]
    port = free_port()
    hall = Hall(tmp_path, env, port, 1)
    try:
        log = hall.log.read_text()
        assert f"runs on http://127.0.0.1:{port}/" in log and "█" in log, log
        assert "(journal mode wal)" in log, log
        # What phones get: hashed static files, compressed, cached for good.
        status, page = request(port, "GET", "/")
        css = re.search(r'/static/[^"]+\.[0-9a-f]{12}\.css', page.body.decode())  # type: ignore[attr-defined]
        assert status == 200 and css
        status, asset = request(port, "GET", css.group(0), headers={"Accept-Encoding": "gzip"})
        assert status == 200 and asset.getheader("Content-Encoding") == "gzip"
        assert asset.getheader("Cache-Control") == "public, max-age=31536000, immutable"
        status, page = request(port, "GET", "/", headers={"Accept-Encoding": "gzip"})
        assert status == 200 and page.getheader("Content-Encoding") == "gzip"
        status, _ = request(port, "GET", "/turniere/", headers={"Host": "evil.example"})
        assert status == 400  # DEBUG's leniency is off: unknown hosts are refused

        # Table 1 by the HTML form: a redirect is the acknowledgement.
        form_acked = sum(enter_by_form(port, tokens[0]) == 302 for _ in range(3))
        assert form_acked == 3
        entries = Entries(port, tokens[1:])
        for thread in entries.threads:
            thread.start()
        deadline = time.monotonic() + 300
        while entries.total() < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert entries.total() >= 10, entries.errors
        code = hall.stop()  # SIGTERM while the tables keep saving
        entries.stop.set()
        for thread in entries.threads:
            thread.join(timeout=120)
        assert code == 0, hall.log.read_text()[-3000:]
        assert "Last backup:" in hall.log.read_text()
        assert not entries.errors, entries.errors
    finally:
        hall.kill()

    again = Hall(tmp_path, env, port, 2)
    try:
        assert games_stored(port, tokens[0]) == 2 + form_acked
        for token in tokens[1:]:
            stored = games_stored(port, token)
            acked = entries.acknowledged[token]
            # Every acknowledged game is there; one whose answer was lost may be too.
            assert acked <= stored <= acked + entries.unanswered[token], (token, acked, stored)
        assert again.stop() == 0
    finally:
        again.kill()


@pytest.mark.parametrize(
    ("https", "expected"),
    [
        # Plain HTTP: secure cookies and the redirect would lock phones out; no HSTS.
        (False, {"security.W004", "security.W008", "security.W012", "security.W016"}),
        # HTTPS with a self-signed certificate: only HSTS, which would forbid the phone to
        # accept the certificate.
        (True, {"security.W004"}),
    ],
)
def test_check_deploy_in_hall_mode_reports_only_what_it_cannot_fix(
    tmp_path: Path, https: bool, expected: set[str]
) -> None:
    plan = HallPlan(bind="0.0.0.0", port=8000, address="192.168.1.20", https=https, workers=2,
                    threads=4, data_dir=tmp_path, backup_dir=tmp_path / "bk", keep=5)  # fmt: skip
    env = hall_environment(plan, "k" * 20 + "Zq3-x_" * 6, environment(tmp_path))
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    reported = set(re.findall(r"\((security\.\w+|\w+\.[EW]\d+)\)", result.stderr + result.stdout))
    assert result.returncode == 0, result.stderr
    assert reported == expected, result.stderr
