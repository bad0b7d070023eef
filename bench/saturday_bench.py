"""A hosted Saturday: one instance of the app serving many tournaments at once, as a hosted
installation for several clubs does on a tournament day.

Builds, in a throwaway PostgreSQL database, ``--tournaments`` tournaments (30) whose series
1 runs with ``--tables`` tables of four each (20: 600 tables, 2,400 players). Starts the
instance as the deploy runs it: gunicorn with ``--workers`` sync workers (4, on this
machine's two cores), DEBUG off, static files collected, Redis as Celery's broker and the
cache (database ``--redis-db``, emptied before and after) and one Celery worker. Then, for
``--duration`` seconds at a hall's pace (``--speed`` 1: every table's captain enters a game
every 2 to 4 minutes through the phones' API, with ``Idempotency-Key`` and ``If-Match``):

* each tournament's hall display asks its fragment every 2 s (``?since=`` fingerprint);
* ``--spectators`` people (4 a tournament) reload a tournament's public standings every
  15 s;
* the baseline of the same run: ``/healthz`` (a small answer through the same workers: the
  database, migrations, static files, cache and broker checked) asked once a second.

Prints, per kind of request: how many, errors (any other answer, or none), median and 95th
percentile in ms, and the p95 as a ratio to the baseline's; then lost games (acknowledged
but not on the sheet afterwards). Target (#26, goal 7): 0 errors, 0 lost. All traffic goes to
127.0.0.1; gunicorn, the worker and the database are removed at the end. Prints figures; it
is not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/saturday_bench.py                 # about 8 minutes
    ... bench/saturday_bench.py --tournaments 5 --tables 10 --duration 60
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.entry_bench import gunicorn, postgres_url, throwaway_database  # noqa: E402
from bench.venue_bench import Figures, call, quantile, table  # noqa: E402

POLL_SECONDS = 2.0
SPECTATOR_SECONDS = 15.0


def slug(number: int) -> str:
    return f"samstag-{number:02d}"


def build(tournaments: int, tables: int) -> dict[str, list[str]]:
    """Migrate, then the tournaments with series 1 running: slug -> captain tokens."""
    from django.core.management import call_command
    from django.db import connections

    from tests.factories import add_players, make_tournament, seat_table
    from tournaments.models import Series

    call_command("migrate", verbosity=0)
    tokens: dict[str, list[str]] = {}
    for number in range(1, tournaments + 1):
        tournament = make_tournament(slug=slug(number), series_count=1)
        series = tournament.series.get(number=1)
        registrations = add_players(tournament, 4 * tables)
        tokens[tournament.slug] = [
            seat_table(series, registrations[4 * i : 4 * i + 4], number=i + 1).captain_token
            for i in range(tables)
        ]
        series.status = Series.Status.RUNNING
        series.save(update_fields=["status"])
    connections.close_all()
    return tokens


@dataclass
class Reads:
    """Timings and errors of one kind of GET."""

    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, elapsed: float) -> None:
        with self.lock:
            self.times.append(elapsed)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def timed_get(port: int, path: str, reads: Reads, ok: tuple[int, ...]) -> bytes | None:
    started = time.perf_counter()
    try:
        status, raw, _ = call(port, "GET", path, headers={"Accept": "text/html"})
    except OSError as error:
        reads.error(f"{path}: {error!r}")
        return None
    if status not in ok:
        reads.error(f"{path}: {status}")
        return None
    reads.add((time.perf_counter() - started) * 1000)
    body: bytes = raw
    return body


def display(port: int, name: str, ends: float, reads: Reads) -> None:
    since = ""
    while time.monotonic() < ends:
        started = time.monotonic()
        raw = timed_get(port, f"/turniere/{name}/halle/stand/?since={since}", reads, (200, 204))
        if raw:
            found = re.search(rb'data-fingerprint="([^"]*)"', raw)
            since = found.group(1).decode() if found else ""
        time.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - started)))


def spectator(port: int, names: list[str], seed: int, ends: float, reads: Reads) -> None:
    rng = random.Random(seed)
    time.sleep(rng.uniform(0, SPECTATOR_SECONDS))
    while time.monotonic() < ends:
        started = time.monotonic()
        timed_get(port, f"/turniere/{rng.choice(names)}/tabelle/", reads, (200,))
        time.sleep(max(0.0, SPECTATOR_SECONDS - (time.monotonic() - started)))


def baseline(port: int, ends: float, reads: Reads) -> None:
    while time.monotonic() < ends:
        started = time.monotonic()
        timed_get(port, "/healthz", reads, (200,))
        time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))


@contextlib.contextmanager
def celery_worker(env: dict[str, str], work: Path) -> Iterator[None]:
    log = (work / "worker.log").open("w")
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "1",
               "--loglevel", "WARNING"]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def environment(database_url: str, redis_url: str, work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "HALL_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1,localhost", DATABASE_URL=database_url,
        CELERY_BROKER_URL=redis_url, STATIC_ROOT=str(work / "static"),
        MEDIA_ROOT=str(work / "media"), LOG_LEVEL="ERROR", SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0", SECURE_PROXY_SSL_HEADER="0",
    )  # fmt: skip
    return env


def row(name: str, count: int, errors: int, times: list[float], base: float) -> str:
    p95 = quantile(times, 95)
    return (
        f"{name:<26} {count:>7} {errors:>6} {quantile(times, 50):>9.1f} {p95:>9.1f} "
        f"{p95 / base:>8.1f} x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=30)
    parser.add_argument("--tables", type=int, default=20, help="tables of four a tournament")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of load")
    parser.add_argument("--speed", type=float, default=1.0, help="time compression (1: a hall)")
    parser.add_argument("--spectators", type=int, default=0, help="default: 4 a tournament")
    parser.add_argument("--redis-db", type=int, default=14)
    args = parser.parse_args()
    spectators = args.spectators or 4 * args.tournaments
    url = postgres_url()
    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    load_before = os.getloadavg()
    with (
        tempfile.TemporaryDirectory(prefix="saturday-bench-") as scratch,
        throwaway_database(url) as database_url,
    ):
        work = Path(scratch)
        env = environment(database_url, redis_url, work)
        os.environ.update(env)
        import django

        django.setup()
        started = time.perf_counter()
        tokens = build(args.tournaments, args.tables)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip
        flush_redis(redis_url)
        names = list(tokens)
        print(
            f"{args.tournaments} tournaments x {args.tables} tables of four "
            f"({4 * args.tables * args.tournaments} players, built in "
            f"{time.perf_counter() - started:.0f} s); gunicorn --workers {args.workers} (sync), "
            f"PostgreSQL, Redis, 1 Celery worker; a game per table every "
            f"{120 / args.speed:.0f}-{240 / args.speed:.0f} s, {args.tournaments} hall displays "
            f"every {POLL_SECONDS:.0f} s, {spectators} spectators every "
            f"{SPECTATOR_SECONDS:.0f} s, {args.duration:.0f} s; {os.cpu_count()} cores"
        )
        try:
            with celery_worker(env, work), gunicorn(env, args.workers, [], database_url) as server:
                port = server.port
                games, polls, standings, base = Figures(), Reads(), Reads(), Reads()
                ends = time.monotonic() + args.duration
                threads = [threading.Thread(target=baseline, args=(port, ends, base))]
                seed = 0
                for name in names:
                    threads.append(threading.Thread(target=display, args=(port, name, ends, polls)))
                    for token in tokens[name]:
                        seed += 1
                        threads.append(threading.Thread(
                            target=table, args=(port, token, seed, ends, args.speed, games)
                        ))  # fmt: skip
                for n in range(spectators):
                    threads.append(threading.Thread(
                        target=spectator, args=(port, names, 10_000 + n, ends, standings)
                    ))  # fmt: skip
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.duration + 300)
                for token, acknowledged in games.acknowledged.items():
                    status, raw, _ = call(port, "GET", "/api/v1/captain/",
                                          headers={"Authorization": f"Table {token}"})  # fmt: skip
                    next_game = json.loads(raw)["sheet"]["next"]["game"] if status == 200 else 1
                    games.lost += max(0, acknowledged - (int(next_game) - 1))
        finally:
            flush_redis(redis_url)
        base_p95 = quantile(base.times, 95)
        print(f"{'request':<26} {'count':>7} {'errors':>6} {'p50 ms':>9} {'p95 ms':>9} "
              f"{'p95/base':>10}")  # fmt: skip
        print(row("baseline: /healthz", len(base.times), len(base.errors), base.times, base_p95))
        print(row("game save (API)", len(games.saves), len(games.errors), games.saves, base_p95))
        print(row("hall display poll", len(polls.times), len(polls.errors), polls.times, base_p95))
        print(row("public standings", len(standings.times), len(standings.errors),
                  standings.times, base_p95))  # fmt: skip
        errors = [*base.errors, *games.errors, *polls.errors, *standings.errors]
        for error in errors[:10]:
            print(f"    {error}")
        acknowledged = sum(games.acknowledged.values())
        print(f"games acknowledged: {acknowledged}; lost: {games.lost}")
        load_after = os.getloadavg()
        before, after = (" ".join(f"{x:.2f}" for x in load) for load in (load_before, load_after))
        print(f"load average before: {before}, after: {after}")
        ok = not errors and not games.lost
        print(f"target (0 errors, 0 lost): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
