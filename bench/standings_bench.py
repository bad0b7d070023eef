"""Overall standings for 1,000 players x 8 series (target: under 100 ms, and at most 3 x the
time of reading the tournament's 1,000 registrations, measured in the same run).

Builds the data with bulk inserts in a throwaway test database (PostgreSQL when
DATABASE_URL points there, else SQLite), fills the per-series totals the standings read
(as the data migrations do), then times ``overall_standings`` and ``series_standings``,
interleaved with two references: the registrations read (the baseline) and the former path
that summed every score row (``before``, kept here only). Prints figures; it is not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/doko .venv/bin/python bench/standings_bench.py

``--players N`` (a multiple of 4) sets the field, e.g. ``--players 5000`` to see how the
standings grow against the registrations read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._django import setup, test_database

if TYPE_CHECKING:
    from tournaments.models import Tournament

PLAYERS = 1000
SERIES = 8
GAMES = 24


def build() -> Tournament:
    from django.db import connection

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
    fill_totals(tournament)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the planner's statistics, as a database in use has them
    return tournament


def fill_totals(tournament: Tournament) -> None:
    """The totals of every player and series from the score rows (none exist yet)."""
    from scoring.services.series_totals import check_totals, differences

    check_totals(tournament, fix=True)
    assert not differences(tournament)


def read_registrations(tournament: Tournament) -> list[Any]:
    """The baseline: the tournament's registrations with the names, as the standings read them."""
    from tournaments.models import Registration

    return list(
        Registration.objects.filter(tournament=tournament).values(
            "pk", "start_number", "player__first_name", "player__last_name", "player__club"
        )
    )


def standings_before(tournament: Tournament) -> list[dict[str, Any]]:
    """The overall standings as they were computed before the totals: one aggregate over
    every score row grouped by player and series, the names, then the same lines and ranking."""
    from django.db.models import Count, Q, Sum

    from scoring import standings
    from scoring.models import PlayerScore
    from scoring.ranking import rank
    from tournaments.models import DEFAULT_TIEBREAK, Registration

    columns = standings._series_with_results(tournament, None)
    grouped = (
        PlayerScore.objects.filter(tournament=tournament, series_number__lte=columns)
        .values_list("registration_id", "series_number")
        .annotate(
            n_points=Sum("points"),
            n_games=Count("pk", filter=Q(played=True)),
            n_solos=Count("pk", filter=Q(solo=True)),
            n_solos_won=Count("pk", filter=Q(solo=True, won=True)),
            n_compulsory=Count("pk", filter=Q(compulsory=True)),
            n_voluntary_won=Count("pk", filter=Q(solo=True, compulsory=False, won=True)),
        )
        .order_by()
    )
    played: dict[int, dict[int, list[int]]] = {}
    for registration, number, *sums in grouped:
        played.setdefault(registration, {})[number] = sums
    rows = []
    for name in Registration.objects.filter(tournament=tournament).values_list(*standings.NAMES):
        mine = played.get(name[0], {})
        series_points = tuple(mine[n][0] if n in mine else None for n in range(1, columns + 1))
        counts = [sum(v[i] for v in mine.values()) for i in range(1, len(standings.COUNTED) + 1)]
        shown = standings.Shown(tournament, keeper=False)
        rows.append(standings._row(name, series_points, counts, shown))
    return standings._table(rank(rows, tournament.tiebreak or DEFAULT_TIEBREAK))


def timed(*funcs: Callable[[], object], runs: int = 15) -> list[tuple[float, float]]:
    """Median and best milliseconds of each function, run in turns (so that a load on the
    machine falls on all of them alike)."""
    samples: list[list[float]] = [[] for _ in funcs]
    for _ in range(runs):
        for func, taken in zip(funcs, samples, strict=True):
            start = time.perf_counter()
            func()
            taken.append((time.perf_counter() - start) * 1000)
    return [(statistics.median(taken), min(taken)) for taken in samples]


def main() -> None:
    global PLAYERS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=PLAYERS, help="a multiple of 4")
    PLAYERS = parser.parse_args().players
    setup()
    from django.db import connection

    from scoring.models import PlayerScore
    from scoring.standings import overall_standings, series_standings

    with test_database():
        started = time.perf_counter()
        tournament = build()
        built = time.perf_counter() - started
        rows = PlayerScore.objects.count()
        assert standings_before(tournament) == overall_standings(tournament)
        baseline, before, overall = timed(
            lambda: read_registrations(tournament),
            lambda: standings_before(tournament),
            lambda: overall_standings(tournament),
        )
        last = tournament.series.get(number=SERIES)
        (one,) = timed(lambda: series_standings(last))
        print(f"database: {connection.vendor}; {PLAYERS} players, {SERIES} series, "
              f"{rows} player-score rows (built in {built:.1f} s)")  # fmt: skip
        print(f"overall standings : median {overall[0]:7.1f} ms, best {overall[1]:7.1f} ms"
              f"  (target < 100 ms)")  # fmt: skip
        print(f"series standings  : median {one[0]:7.1f} ms, best {one[1]:7.1f} ms")
        print(f"registrations read: median {baseline[0]:7.1f} ms, best {baseline[1]:7.1f} ms"
              f"  (baseline)")  # fmt: skip
        print(f"before (all rows) : median {before[0]:7.1f} ms, best {before[1]:7.1f} ms"
              f"  = {before[0] / baseline[0]:4.1f} x baseline")  # fmt: skip
        print(f"after (totals)    : median {overall[0]:7.1f} ms, best {overall[1]:7.1f} ms"
              f"  = {overall[0] / baseline[0]:4.1f} x baseline (target <= 3 x); "
              f"{before[0] / overall[0]:.1f} x faster than before")  # fmt: skip


if __name__ == "__main__":
    main()
