"""Redis goes away while a hall enters games and its screens poll: nothing answers 500, every
acknowledged game is stored once, and a Celery worker is back at work when Redis returns.

Each test starts a second ``redis-server`` of its own on a free port (never the shared one),
points the cache and the broker at it, stops it and starts it again on the same port.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import caches
from django.test import Client

from config.cache import FallbackRedisCache
from scoring.models import Game
from seasons.services import SeasonData, attach_tournament, create_season
from tests.api.helpers import NORMAL, Entry
from tests.factories import api_client, build_world, make_tournament
from tests.seasons.helpers import organizer

ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server")

pytestmark = pytest.mark.skipif(REDIS is None, reason="redis-server is not installed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SecondRedis:
    """A redis-server of the test's own on 127.0.0.1:<port>, without snapshots."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS is not None
        self.process = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise AssertionError("the second redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def redis_server() -> Iterator[SecondRedis]:
    server = SecondRedis(_free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def on_second_redis(  # type: ignore[no-untyped-def]
    settings, redis_server: SecondRedis, monkeypatch: pytest.MonkeyPatch
) -> Iterator[SecondRedis]:
    """Cache and broker on the second Redis, tasks queued there (not run eagerly)."""
    from config.celery import app

    # Celery reads these variables before its configuration (the broker run sets them).
    monkeypatch.setenv("CELERY_BROKER_URL", redis_server.url)
    monkeypatch.setenv("CELERY_RESULT_BACKEND", redis_server.url)

    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FallbackRedisCache",
            "LOCATION": redis_server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    settings.CELERY_BROKER_URL = redis_server.url
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    app.conf.broker_url = redis_server.url
    app.conf.result_backend = redis_server.url
    app.conf.task_always_eager = False
    app._pool = None
    app.amqp._producer_pool = None
    with contextlib.suppress(AttributeError):
        del app._local.backend
    try:
        yield redis_server
    finally:
        for key, value in saved.items():
            app.conf[key] = value
        app._pool = None
        app.amqp._producer_pool = None
        with contextlib.suppress(AttributeError):
            del app._local.backend


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_games_and_hall_through_a_redis_outage(
    on_second_redis: SecondRedis, alice, caplog: pytest.LogCaptureFixture
) -> None:
    """Entries commit for real (the announcement runs after the commit and queues the season
    refresh): before, during and after the outage every game is 201 and stored once, the
    hall polls 200/204, a wrong captain link is 404, /healthz names cache and broker."""
    tournament = make_tournament("halle", 1, organizers=[alice])
    tables = build_world(tournament, (4, 4, 4, 4)).tables
    season = create_season(
        SeasonData(name="Saison", slug="saison", preset="ddv_rangliste"),
        actor=organizer(alice),
    )
    attach_tournament(season, tournament, actor=organizer(alice))
    phones = [Entry(api_client(table=table, device=f"phone-{table.number}"), table)
              for table in tables]  # fmt: skip
    screen = Client()
    fragment = f"/turniere/{tournament.slug}/halle/stand/"
    statuses: list[int] = []
    acknowledged = 0
    timings: list[float] = []
    dealer = 1

    def round_of_games() -> None:
        nonlocal acknowledged, dealer
        for phone in phones:
            started = time.monotonic()
            response = phone.post(NORMAL, dealer)
            timings.append(time.monotonic() - started)
            statuses.append(response.status_code)
            assert response.status_code == 201, response.content
            acknowledged += 1
        dealer = dealer % 4 + 1
        for _ in range(3):
            poll = screen.get(fragment)
            statuses.append(poll.status_code)
            assert poll.status_code in (200, 204), poll.content
        wrong = screen.get("/tisch/not-a-token/")
        statuses.append(wrong.status_code)
        assert wrong.status_code == 404

    for _ in range(2):
        round_of_games()
    assert Client().get("/healthz").json()["cache"] == {"ok": True}

    on_second_redis.stop()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        outage_start = len(timings)
        for _ in range(3):
            round_of_games()
        health = Client().get("/healthz")
    assert health.status_code == 503
    assert {"cache", "broker"} <= set(health.json()["failed"])
    # Bounded, fast failure: no entry waited for Redis anywhere near Celery's 0.6 s retries.
    assert max(timings[outage_start:]) < 2.0, timings[outage_start:]
    outage_lines = [r.getMessage() for r in caplog.records]
    assert sum("Cache unavailable" in line for line in outage_lines) == 1, outage_lines
    assert sum("Season refreshes cannot be queued" in line for line in outage_lines) == 1, (
        outage_lines
    )
    assert not any(r.exc_info for r in caplog.records), "no traceback for an outage"

    on_second_redis.start()
    # The cache is asked again after config.cache.RETRY_SECONDS; do not wait for it here:
    # the games are what counts.
    round_of_games()

    games = Game.objects.filter(table__in=tables)
    outage = timings[outage_start : outage_start + 3 * len(tables)]
    print(  # the figures of the run, shown with -s
        f"acknowledged {acknowledged} (during the outage {len(outage)}), stored "
        f"{games.count()}, distinct {games.values('table', 'number').distinct().count()}, "
        f"5xx {sum(status >= 500 for status in statuses)} of {len(statuses)} requests, "
        f"slowest entry during the outage {max(outage) * 1000:.0f} ms"
    )
    assert all(status < 500 for status in statuses)
    assert games.count() == acknowledged == 6 * len(tables)
    # Once each: one game per number and table.
    assert games.values("table", "number").distinct().count() == acknowledged
    season.refresh_from_db()
    assert season.entries_requested >= acknowledged


def test_the_cache_answers_from_memory_while_redis_is_down(
    settings,
    redis_server: SecondRedis,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FallbackRedisCache",
            "LOCATION": redis_server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
    cache = caches["default"]
    assert isinstance(cache, FallbackRedisCache)
    cache.set("board", "shared", 60)
    assert cache.get("board") == "shared" and cache.available

    redis_server.stop()
    started = time.monotonic()
    assert cache.get("board") is None  # from memory now, which never saw it
    cache.set("board", "local", 60)
    assert cache.get("board") == "local"
    assert cache.add("failures", 0) and cache.incr("failures") == 1
    assert not cache.available and not cache.ping()
    assert time.monotonic() - started < 2.0

    redis_server.start()
    clock = time.monotonic()
    monkeypatch.setattr("config.cache.time.monotonic", lambda: clock + 60)
    cache.set("board", "shared again", 60)
    assert cache.available and cache.get("board") == "shared again"


@pytest.mark.slow
@pytest.mark.broker
def test_a_worker_outlives_a_redis_outage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real worker on the second Redis: it answers a ping, Redis stops for a few seconds
    and starts again on the same port, and the same worker answers the next ping."""
    from celery import Celery

    server = SecondRedis(_free_port())
    server.start()
    # Celery reads these variables before its configuration (the broker run sets them).
    monkeypatch.setenv("CELERY_BROKER_URL", server.url)
    monkeypatch.setenv("CELERY_RESULT_BACKEND", server.url)
    queue = f"outage-{uuid.uuid4().hex[:8]}"
    env = {key: value for key, value in os.environ.items() if not key.startswith("CELERY_")}
    env["CELERY_BROKER_URL"] = server.url
    log = tmp_path / "worker.log"
    client = Celery("doko-test", broker=server.url, backend=server.url, set_as_current=False)
    client.conf.broker_connection_retry_on_startup = True
    try:
        with log.open("w") as output:
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
                 "--concurrency", "1", "--queues", queue, "--without-heartbeat",
                 "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
                cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                first = client.send_task("config.ping", args=["one"], queue=queue)
                assert first.get(timeout=60)["pong"] == "one"
                server.stop()
                time.sleep(3)
                assert worker.poll() is None, log.read_text()
                server.start()
                second = client.send_task("config.ping", args=["two"], queue=queue)
                assert second.get(timeout=60)["pong"] == "two", log.read_text()
                assert worker.poll() is None
            finally:
                worker.terminate()
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()
    finally:
        client.close()
        server.stop()
