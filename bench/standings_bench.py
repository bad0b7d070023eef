"""Overall standings for 1,000 players x 8 series (target: under 100 ms).

Builds the data with bulk inserts in a throwaway test database (PostgreSQL when
DATABASE_URL points there, else SQLite), then times ``overall_standings`` and
``series_standings``. Prints figures; it is not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/doko .venv/bin/python bench/standings_bench.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._django import setup, test_database

if TYPE_CHECKING:
    from tournaments.models import Tournament

PLAYERS = 1000
SERIES = 8
GAMES = 24


def build() -> Tournament:
    from scoring.models import Game, PlayerScore
    from tests.factories import add_players, make_tournament
    from tournaments.models import Seat, Table

    rng = random.Random(8)
    tournament = make_tournament(slug="bench", series_count=SERIES)
    registrations = add_players(tournament, PLAYERS)
    for series in tournament.series.all():
        order = registrations[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(series=series, number=n + 1) for n in range(PLAYERS // 4)
        )
        Seat.objects.bulk_create(
            Seat(table=t, series=series, position=p + 1, registration=order[4 * i + p])
            for i, t in enumerate(tables)
            for p in range(4)
        )
        games = Game.objects.bulk_create(
            Game(table=t, series=series, number=g + 1, dealer=g % 4 + 1, record={}, value=1)
            for t in tables
            for g in range(GAMES)
        )
        scores = []
        for game in games:
            i = game.table_id - tables[0].pk  # tables were inserted with consecutive ids
            seated = order[4 * i : 4 * i + 4]
            v = rng.choice((1, 2, 3, 5))
            points = (v, -v, v, -v)
            for seat, (reg, p) in enumerate(zip(seated, points, strict=True), start=1):
                scores.append(
                    PlayerScore(
                        tournament=tournament, series=series, series_number=series.number,
                        registration=reg, game=game, seat=seat, points=p, played=True,
                        won=p > 0,
                    )
                )  # fmt: skip
        PlayerScore.objects.bulk_create(scores, batch_size=5000)
        series.status = "closed"
        series.save(update_fields=["status"])
    return tournament


def timed(func: Callable[[], object], runs: int = 15) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples)


def main() -> None:
    setup()
    from django.db import connection

    from scoring.models import PlayerScore
    from scoring.standings import overall_standings, series_standings

    with test_database():
        started = time.perf_counter()
        tournament = build()
        built = time.perf_counter() - started
        rows = PlayerScore.objects.count()
        overall = timed(lambda: overall_standings(tournament))
        last = tournament.series.get(number=SERIES)
        one = timed(lambda: series_standings(last))
        print(f"database: {connection.vendor}; {PLAYERS} players, {SERIES} series, "
              f"{rows} player-score rows (built in {built:.1f} s)")  # fmt: skip
        print(f"overall standings : median {overall[0]:7.1f} ms, best {overall[1]:7.1f} ms"
              f"  (target < 100 ms)")  # fmt: skip
        print(f"series standings  : median {one[0]:7.1f} ms, best {one[1]:7.1f} ms")


if __name__ == "__main__":
    main()
