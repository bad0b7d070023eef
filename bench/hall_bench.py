"""The hall display for a field of 400 players: every poll under 50 ms, with a fixed number of
queries.

Builds the field in a throwaway test database (PostgreSQL when DATABASE_URL points there,
else SQLite) through the product's services: 400 players drawn into three series; series 1
played through and closed; series 2 running at 100 tables of four with 8 to 16 games each
(about 12), entered through the entry service, so sheets, player scores and findings are
real; series 3 drawn; three announcements. Then it asks through Django's test client (the
whole stack: middleware, view, template) as a screen does:

* ``poll``: the fragment with the screen's fingerprint (``?since=``): 204, nothing changed;
* ``board``: the fragment when something changed, for the first screen that asks: the whole
  board of a view is built (the findings of the sheets from the cache);
* ``board, next screens``: the same fingerprint for the other screens: the board built by
  the first one, from the cache;
* ``board, empty cache``: the tables' board with the whole cache emptied (after a restart):
  a few sheets are replayed per board (``hall.board.REPLAYS_PER_BOARD``), the screens ask
  again until all are;

and, in the same run, two baselines: the landing page (a template and nothing else) and the
public standings page of the same tournament. Prints median, 95th percentile, statements
per request and each median's ratio to the landing page's. Prints figures; it is not a test.

    .venv/bin/python bench/hall_bench.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/hall_bench.py
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._django import setup, test_database

if TYPE_CHECKING:
    from django.test import Client

    from tournaments.models import Tournament

PLAYERS = 400
TARGET_MS = 50.0


def build(players: int, seed: int) -> Tournament:
    from django.contrib.auth.models import User

    from common.actors import ORGANIZER, Actor
    from hall.services import announce
    from scoring.demo import close_played, play_table
    from tournaments.demo import create_demo_tournament
    from tournaments.services.lifecycle import start_series

    rng = random.Random(seed)
    tournament = create_demo_tournament(players, 3, seed, rng)
    first = start_series(tournament.series.get(number=1))
    for table in first.tables.order_by("number"):
        play_table(table, rng)
    close_played(first)
    second = start_series(tournament.series.get(number=2))
    for table in second.tables.order_by("number"):
        play_table(table, rng, games=rng.randint(8, 16), finish=False)
    organizer = User.objects.get(username="demo")
    actor = Actor(ORGANIZER, user=organizer)
    for text in (
        "Mittagspause nach Serie 2",
        "Spielberichte sofort abgeben",
        "Siegerehrung 18 Uhr",
    ):
        announce(tournament, text, actor=actor)
    return tournament


@dataclass
class Figure:
    label: str
    median: float
    p95: float
    statements: int
    status: int


def measure(
    client: Client, path: str, label: str, runs: int, before: Callable[[], Any] | None = None
) -> Figure:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if before:
        before()
    with CaptureQueriesContext(connection) as counted:
        status = client.get(path).status_code
    statements = len(counted)  # now: the next request's start empties the log it reads
    samples = []
    for _ in range(runs):
        if before:
            before()
        started = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == status, (path, response.status_code)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return Figure(label, statistics.median(samples), p95, statements, status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--runs", type=int, default=60, help="requests per figure")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection
    from django.test import Client

    from hall.views import board_key
    from scoring.progress import series_progress

    settings.DEBUG = False  # no query log while timing (the counts are captured apart)
    # One connection for the whole run, as in Django's tests (the database is a test one).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    with test_database():
        started = time.perf_counter()
        tournament = build(args.players, args.seed)
        built = time.perf_counter() - started
        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        fragment = f"/turniere/{tournament.slug}/halle/stand/"
        figures = [
            measure(client, "/", "baseline: landing page", args.runs),
            measure(
                client,
                f"/turniere/{tournament.slug}/tabelle/",
                "baseline: standings page",
                args.runs,
            ),
        ]
        for _ in range(20):  # every sheet replayed once (a few per board), as after a while
            if "-partial" not in client.get(f"{fragment}?view=tables").content.decode():
                break
        for view in ("tables", "clock", "seating", "standings"):
            path = f"{fragment}?view={view}"
            html = client.get(path).content.decode()
            found = re.search(r'data-fingerprint="([\w-]+)"', html)
            assert found, html[:300]
            since = found.group(1)
            key = board_key(tournament, since)
            figures += [
                measure(client, f"{path}&since={since}", f"{view}: poll", args.runs),
                measure(
                    client, path, f"{view}: board", args.runs, functools.partial(cache.delete, key)
                ),
                measure(client, path, f"{view}: board, next screens", args.runs),
            ]
        figures.append(
            measure(
                client, f"{fragment}?view=tables", "tables: board, empty cache",
                max(args.runs // 3, 5),
                before=cache.clear,
            )
        )  # fmt: skip
        running = tournament.series.get(number=2)
        progress = []
        for _ in range(5):
            tick = time.perf_counter()
            series_progress(running)
            progress.append((time.perf_counter() - tick) * 1000)

        tables = running.tables.count()
        print(
            f"database: {connection.vendor}; {args.players} players, series 2 running at "
            f"{tables} tables with {running.games.count()} games, series 1 closed, series 3 "
            f"drawn (built in {built:.1f} s); {args.runs} requests per line; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        base = figures[0].median
        print(
            f"{'':34} {'median':>9} {'p95':>9} {'statements':>11} {'status':>7} {'x landing':>10}"
        )
        for f in figures:
            print(
                f"{f.label:34} {f.median:7.1f}ms {f.p95:7.1f}ms {f.statements:11d} {f.status:7d}"
                f" {f.median / base:9.1f}x"
            )
        worst = max(f.p95 for f in figures[2:])
        verdict = "met" if worst < TARGET_MS else "MISSED"
        print(f"target: every poll under {TARGET_MS:.0f} ms; worst p95 {worst:.1f} ms: {verdict}")
        print(
            f"for comparison, the progress board's replay of every sheet (scoring.progress): "
            f"median {statistics.median(progress):.0f} ms"
        )


if __name__ == "__main__":
    main()
