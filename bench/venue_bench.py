"""A hall on the hall kit: 100 tables entering games at a real hall's pace plus 20 hall
displays polling, against ``manage.py hall`` (gunicorn, the embedded SQLite database in WAL
mode) and, in the same run, against the development server (``runserver``, DEBUG on) as the
baseline.

Builds one SQLite world (100 tables of four in a running series, through the test
factories), copies it for each server, starts the server on a free loopback port and lets
each table's captain enter a game every 2 to 4 minutes, compressed ``--speed`` times (10:
every 12 to 24 s), through ``POST .../tables/<t>/games/`` as the phones' API does
(``Idempotency-Key``, ``If-Match``); 20 screens ask the hall display's fragment every 2 s
with their fingerprint (``?since=``). After ``--duration`` seconds it asks every table what
its sheet holds. Prints, per server: games acknowledged, errors (any answer but 201 to a
game, but 200/204 to a poll, or no answer), lost games (acknowledged but not on the sheet),
median and 95th percentile of a game's save and of a poll. Target for the hall kit: 0 errors,
0 lost, p95 of a save under 200 ms. All traffic goes to 127.0.0.1; the servers and the
files are removed at the end. Prints figures; it is not a test.

    .venv/bin/python bench/venue_bench.py                 # about 8 minutes
    .venv/bin/python bench/venue_bench.py --duration 60 --tables 50
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
SLUG = "venue-bench"
SOLOS = ("karo", "herz", "pik", "kreuz", "damen", "buben", "fleischlos")
POLL_SECONDS = 2.0
TARGET_P95_MS = 200.0


def build(database: Path, tables: int) -> list[str]:
    """Migrate ``database`` and seat ``tables`` tables of four in running series 1."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "BACKUP_DIR"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from tests.factories import build_world, make_tournament

    call_command("migrate", interactive=False, verbosity=0)
    world = build_world(make_tournament(slug=SLUG, series_count=1), (4,) * tables)
    connections.close_all()
    return [table.captain_token for table in world.tables]


def copy_database(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def call(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, http.client.HTTPResponse]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    sent = {"Accept": "application/json", **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, response.read(), response
    finally:
        conn.close()


@contextlib.contextmanager
def server(kind: str, database: Path, work: Path) -> Iterator[int]:
    """``hall`` (manage.py hall) or ``dev`` (runserver) on a free port, until healthy."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "BACKUP_"))}
    for name in ("DEBUG", "SECRET_KEY", "SITE_URL", "ALLOWED_HOSTS", "HALL_MODE", "HALL_SERVE"):
        env.pop(name, None)
    env["DATABASE_URL"] = f"sqlite:///{database}"
    manage = [sys.executable, str(ROOT / "manage.py")]
    if kind == "hall":
        command = [*manage, "hall", "--host", HOST, "--port", str(port), "--no-input",
                   "--data-dir", str(work / "data"),
                   "--backup-dir", str(work / "backups")]  # fmt: skip
    else:
        command = [*manage, "runserver", f"{HOST}:{port}", "--noreload"]
    log = (work / f"{kind}.log").open("w")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 900
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{kind} server exited: {(work / f'{kind}.log').read_text()}")
            with contextlib.suppress(OSError):
                if call(port, "GET", "/healthz")[0] in (200, 503):
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{kind} server did not start")
            time.sleep(0.5)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@dataclass
class Figures:
    saves: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def next_game(nxt: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if nxt.get("forced") is not None:
        return {"contract": "solo", "solo": rng.choice(SOLOS), "re": [nxt["forced"]],
                "re_points": rng.randint(2, 238)}  # fmt: skip
    return {"contract": "normal", "re": sorted(rng.sample([1, 2, 3, 4], 2)),
            "re_points": rng.randint(2, 238)}  # fmt: skip


def table(port: int, token: str, seed: int, ends: float, speed: float, figures: Figures) -> None:
    rng = random.Random(seed)
    auth = {"Authorization": f"Table {token}"}
    try:
        status, raw, _ = call(port, "GET", "/api/v1/captain/", headers=auth)
    except OSError as error:
        figures.error(f"open: {error!r}")
        return
    if status != 200:
        figures.error(f"open: {status}")
        return
    body = json.loads(raw)
    url, version, nxt = body["games_url"], body["sheet"]["version"], body["sheet"]["next"]
    figures.acknowledged[token] = 0
    # Tables do not start in step: the first game comes at a random point of an interval.
    wait = rng.uniform(0, 240 / speed)
    while time.monotonic() + wait < ends and not nxt.get("finished"):
        time.sleep(wait)
        headers = {**auth, "Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{version}"'}
        started = time.perf_counter()
        try:
            status, raw, _ = call(port, "POST", url, next_game(nxt, rng), headers)
        except OSError as error:
            figures.error(f"save: {error!r}")
            return
        elapsed = (time.perf_counter() - started) * 1000
        if status != 201:
            figures.error(f"save: {status} {raw[:200]!r}")
            return
        body = json.loads(raw)
        version, nxt = body["sheet"]["version"], body["sheet"]["next"]
        with figures.lock:
            figures.saves.append(elapsed)
            figures.acknowledged[token] += 1
        wait = rng.uniform(120 / speed, 240 / speed)


def display(port: int, ends: float, figures: Figures) -> None:
    since = ""
    path = f"/turniere/{SLUG}/halle/stand/"
    while time.monotonic() < ends:
        started = time.perf_counter()
        try:
            status, raw, _ = call(port, "GET", f"{path}?since={since}", headers={"Accept": "*/*"})
        except OSError as error:
            figures.error(f"poll: {error!r}")
            return
        elapsed = (time.perf_counter() - started) * 1000
        if status not in (200, 204):
            figures.error(f"poll: {status}")
            return
        if status == 200:
            found = re.search(rb'data-fingerprint="([^"]*)"', raw)
            since = found.group(1).decode() if found else ""
        with figures.lock:
            figures.polls.append(elapsed)
        time.sleep(max(0.0, POLL_SECONDS - elapsed / 1000))


def load(port: int, tokens: list[str], duration: float, speed: float, screens: int) -> Figures:
    figures = Figures()
    ends = time.monotonic() + duration
    threads = [
        threading.Thread(target=table, args=(port, token, n, ends, speed, figures))
        for n, token in enumerate(tokens)
    ] + [threading.Thread(target=display, args=(port, ends, figures)) for _ in range(screens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=duration + 300)
    for token, acknowledged in figures.acknowledged.items():
        status, raw, _ = call(port, "GET", "/api/v1/captain/",
                              headers={"Authorization": f"Table {token}"})  # fmt: skip
        stored = int(json.loads(raw)["sheet"]["next"]["game"]) - 1 if status == 200 else 0
        figures.lost += max(0, acknowledged - stored)
    return figures


def quantile(samples: list[float], q: int) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


def report(name: str, figures: Figures) -> None:
    games = sum(figures.acknowledged.values())
    print(
        f"{name:<22} {games:>6} {len(figures.errors):>6} {figures.lost:>5} "
        f"{quantile(figures.saves, 50):>9.1f} {quantile(figures.saves, 95):>9.1f} "
        f"{len(figures.polls):>6} {quantile(figures.polls, 50):>9.1f} "
        f"{quantile(figures.polls, 95):>9.1f}"
    )
    for error in figures.errors[:5]:
        print(f"    {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--screens", type=int, default=20)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds per server")
    parser.add_argument("--speed", type=float, default=10.0, help="time compression")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="venue-bench-") as tmp:
        work = Path(tmp)
        world = work / "world.sqlite3"
        tokens = build(world, args.tables)
        print(
            f"{args.tables} tables of four, a game per table every {120 / args.speed:.0f}-"
            f"{240 / args.speed:.0f} s, {args.screens} screens polling every "
            f"{POLL_SECONDS:.0f} s, {args.duration:.0f} s per server, {os.cpu_count()} cores"
        )
        print(
            f"{'server':<22} {'games':>6} {'errors':>6} {'lost':>5} {'save p50':>9} "
            f"{'save p95':>9} {'polls':>6} {'poll p50':>9} {'poll p95':>9}   (ms)"
        )
        results = {}
        for kind, label in (("hall", "make hall (gunicorn)"), ("dev", "runserver (DEBUG)")):
            database = work / f"{kind}.sqlite3"
            copy_database(world, database)
            with server(kind, database, work) as port:
                results[kind] = load(port, tokens, args.duration, args.speed, args.screens)
            report(label, results[kind])
        hall = results["hall"]
        ok = not hall.errors and not hall.lost and quantile(hall.saves, 95) < TARGET_P95_MS
        print(f"target (0 errors, 0 lost, save p95 < {TARGET_P95_MS:.0f} ms): "
              f"{'met' if ok else 'NOT met'}")  # fmt: skip


if __name__ == "__main__":
    main()
