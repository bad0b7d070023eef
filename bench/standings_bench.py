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

To compare two checkouts on the same data, build one database per field once and time each
checkout against it in turns (``--reuse`` reads only; it prints the overall standings' wall
time as a ratio to the registrations read of the same run, and their CPU)::

    createdb -h 127.0.0.1 -U postgres standings5000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/standings5000 \
        .venv/bin/python bench/standings_bench.py --players 5000 --build
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/standings5000 \
        .venv/bin/python bench/standings_bench.py --reuse --runs 15
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
        # The planner's statistics, as a database in use has them. Filling the totals above
        # rewrote each total once per series: on PostgreSQL the tables are then compacted
        # (as if each total had been written once), so that the standings do not read nine
        # dead versions of every total (this machine's PostgreSQL may run without
        # autovacuum; one that vacuums keeps less, but some free space, in them).
        cursor.execute("VACUUM FULL ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
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
    rows: list[tuple[Any, ...]] = []
    points: list[list[int | None]] = []
    for name in Registration.objects.filter(tournament=tournament).values_list(*standings.NAMES):
        mine = played.get(name[0], {})
        points.append([mine[n][0] if n in mine else None for n in range(1, columns + 1)])
        counts = [sum(v[i] for v in mine.values()) for i in range(1, len(standings.COUNTED) + 1)]
        rows.append((*name, *counts))
    shown = standings.Shown(tournament, keeper=False)
    tiebreak = tournament.tiebreak or DEFAULT_TIEBREAK
    return standings._lines(standings._Field(rows, points), shown, tiebreak)


def timed_cpu(func: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each of ``runs`` calls."""
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        func()
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return wall, cpu


def reuse(runs: int) -> None:
    """Times the registrations read and the overall standings in turns against the field a
    ``--build`` left in the database DATABASE_URL names (the code of this checkout)."""
    from django.db import connection

    from scoring.standings import overall_standings
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(slug="bench")
    players = tournament.registrations.count()
    read_registrations(tournament)  # the connection and the caches, warm
    overall_standings(tournament)
    samples: dict[str, list[float]] = {"read": [], "overall": [], "cpu": []}
    for _ in range(runs):
        wall, _cpu = timed_cpu(lambda: read_registrations(tournament), 1)
        samples["read"] += wall
        wall, used = timed_cpu(lambda: overall_standings(tournament), 1)
        samples["overall"] += wall
        samples["cpu"] += used
    read, overall = statistics.median(samples["read"]), statistics.median(samples["overall"])
    cpu = statistics.median(samples["cpu"])
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; {players} "
          f"players, {runs} runs")  # fmt: skip
    print(f"registrations read: median {read:7.1f} ms (baseline)")
    print(f"overall standings : median {overall:7.1f} ms = {overall / read:.2f} x baseline; "
          f"CPU median {cpu:.1f} ms")  # fmt: skip


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
    parser.add_argument(
        "--build",
        action="store_true",
        help="migrate the database DATABASE_URL names and keep the field in it",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="time against the field a --build left there"
    )
    parser.add_argument("--runs", type=int, default=15, help="with --reuse")
    arguments = parser.parse_args()
    PLAYERS = arguments.players
    setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import PlayerScore
    from scoring.standings import overall_standings, series_standings

    if arguments.reuse:
        reuse(arguments.runs)
        return
    if arguments.build:
        call_command("migrate", verbosity=0)
        build()
        print(f"built {PLAYERS} players in {connection.settings_dict['NAME']}")
        return
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
