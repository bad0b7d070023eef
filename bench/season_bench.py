"""A DDV-Rangliste season over 10,000 players, 500 tournaments of 8 series (target: under
1 s on PostgreSQL), next to baselines of the same run, and the statements it reads; and a
player's page, whose season lines are read from the stored ranking (target: under 50 ms,
a number of statements that does not grow with his seasons).

Builds the data with bulk inserts in a throwaway test database (PostgreSQL when
DATABASE_URL points there, else SQLite): one registry of 10,000 players, 500 closed
tournaments over three years with 160 players each (80,000 registrations, every player in
8 tournaments), their kept totals written directly (``TournamentTotal`` with the points of
each series, and the 640,000 ``SeriesTotal`` rows behind them), not through game entry; and
three seasons over all 500 tournaments (``ddv_rangliste``, ``best_n``, ``placement_points``)
with their stored rankings. Then times ``season_ranking`` of the ``ddv_rangliste`` season,
and, in turns with it,

* reading the same 80,000 registrations with the players' names (values_list): the rows
  the ranking reads, without the ranking;
* reading the 640,000 SeriesTotal rows of the season (values_list): what a ranking summed
  from the series totals would have to read;

the ranking with each result's place in its tournament (as a line's explanation shows it),
``refresh_season_entries`` (the whole ranking computed and its 10,000 ``SeasonEntry`` rows
compared and written), the refresh a task runs after one tournament's results changed
(target 0.5 s), ``player_seasons`` (one player's stored line in
each of his three seasons) and a GET of his page through the test client; then the season's
page, read from the stored ranking, as the public asks for it (page 1, page 50, a search by
name, a club, one line's explanation as the page loads it, the API's first page), each timed
in turns with reading the registrations again (target: 300 ms and 150 KB of HTML).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/doko .venv/bin/python bench/season_bench.py

Measured on the 2-core reference machine (PostgreSQL 127.0.0.1, another job running), ms:

    season ranking     median 590.8, best 559.3  (2 statements; 1059 / 993 before)
    registrations read median  90.3, best  88.7  (ranking = 6.5 x)
    series totals read median 230.1, best 225.6
    with places        median 690.3, best 678.1
    stored refresh     median 931.9, best 904.0
    player_seasons     median   2.1, best   2.0  (3 seasons, 1 statement; ~1 s a season before)
    player page        median  22.0, best  20.7  (3 seasons, 8 tournaments, 8 statements)

And with the season's page read from the stored ranking, on the same machine shared by four
other jobs (load average 8 to 12, so every figure about 3 x the quiet machine's), ms:

    registrations read  median  266.1            (the baseline of the run)
    season ranking      median 1879.3            (7.1 x)
    stored refresh      median 2698.6            (10.1 x; 3906 = 14.1 x before)
    season page 1       median   79.5, 66.1 KB   (7 statements; 0.28 x; before: the whole
                                                  ranking explained, 14 s and 15 MB)
    season page 50      median   90.1, 68.6 KB
    search by name      median  162.7, 12.2 KB
    one club            median   51.8, 68.2 KB
    API first page      median   38.9, 18.9 KB   (6 statements)
    one explanation     median   39.8,  1.1 KB   (4 statements)

And the refresh after one tournament's results changed (``refresh_in_part``: only its
players' lines computed, only the lines that differ written), medians of four runs at load
averages of 4 to 22, as ratios to reading the registrations in the same run:

    stored refresh, whole        5.3 x  (11.6 x before: every line computed and written)
    refresh in part              2.0 x  (0.25 s at a load average of 4 to 10; 11 statements,
                                         8,730 lines written: the places in between move)

With places computed when the pages read them (``SeasonEntry.sort_key``, ``seasons.placed``),
five runs in turns with main at load averages of 6 to 18 (see the README):

    refresh in part              1.0-1.2 x  (2.3-2.4 x before; 158 lines written)
"""

from __future__ import annotations

import datetime
import functools
import os
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
    from seasons.models import Season

# A smaller season for a loaded machine: SEASON_BENCH_PLAYERS=2000 SEASON_BENCH_TOURNAMENTS=100
PLAYERS = int(os.environ.get("SEASON_BENCH_PLAYERS", 10_000))
TOURNAMENTS = int(os.environ.get("SEASON_BENCH_TOURNAMENTS", 500))
RUNS = int(os.environ.get("SEASON_BENCH_RUNS", 7))
SERIES = 8
PER_TOURNAMENT = 160
REFERENCE = datetime.date(2026, 11, 28)


def build() -> Season:
    from django.contrib.auth.models import User
    from django.db import connection

    from scoring.models import SeriesTotal, TournamentTotal
    from seasons.models import Season, SeasonTournament
    from tournaments.models import Player, Registration, Series, Tournament

    rng = random.Random(13)
    owner = User.objects.create_user("bench")
    players = Player.objects.bulk_create(
        (
            Player(owner=owner, first_name=f"Vorname{i}", last_name=f"Nachname{i}",
                   club=f"Verein {i % 40}")
            for i in range(PLAYERS)
        ),
        batch_size=5000,
    )  # fmt: skip
    days = 3 * 365
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"Turnier {t}", slug=f"t{t}", series_count=SERIES, status="finished",
            starts_on=REFERENCE - datetime.timedelta(days=days * t // TOURNAMENTS),
            registration_token=f"token-{t}", tiebreak=["best_series", "last_series"],
        )
        for t in range(TOURNAMENTS)
    )  # fmt: skip
    Tournament.organizers.through.objects.bulk_create(
        Tournament.organizers.through(tournament_id=t.pk, user_id=owner.pk) for t in tournaments
    )
    series = Series.objects.bulk_create(
        Series(tournament=t, number=n, status="closed")
        for t in tournaments
        for n in range(1, SERIES + 1)
    )
    series_of = {(s.tournament_id, s.number): s.pk for s in series}
    # Every player in 8 tournaments: a shuffled deck of players dealt 160 to a tournament.
    deck = [p for p in players for _ in range(TOURNAMENTS * PER_TOURNAMENT // PLAYERS)]
    rng.shuffle(deck)
    registrations = []
    for index, tournament in enumerate(tournaments):
        seen: set[int] = set()
        hand = deck[index * PER_TOURNAMENT : (index + 1) * PER_TOURNAMENT]
        for number, player in enumerate(hand, start=1):
            if player.pk in seen:  # dealt twice to one tournament: plays once
                continue
            seen.add(player.pk)
            registrations.append(
                Registration(tournament=tournament, player=player, start_number=number)
            )
    registrations = Registration.objects.bulk_create(registrations, batch_size=10_000)
    totals, per_series = [], []
    for registration in registrations:
        points: list[int | None] = [rng.randint(-40, 80) for _ in range(SERIES)]
        if rng.random() < 0.05:
            points[-1] = None  # withdrawn before the last series
        played = [p for p in points if p is not None]
        totals.append(
            TournamentTotal(tournament_id=registration.tournament_id, registration=registration,
                            points=sum(played), games=24 * len(played), series_points=points)
        )  # fmt: skip
        per_series += [
            SeriesTotal(
                tournament_id=registration.tournament_id, series_number=n,
                series_id=series_of[(registration.tournament_id, n)], registration=registration,
                entries=24, points=p, games=24,
            )
            for n, p in enumerate(points, start=1)
            if p is not None
        ]  # fmt: skip
    TournamentTotal.objects.bulk_create(totals, batch_size=10_000)
    SeriesTotal.objects.bulk_create(per_series, batch_size=20_000)
    season = Season.objects.create(
        name="Rangliste", slug="rangliste", owner=owner, preset="ddv_rangliste",
        reference_date=REFERENCE,
    )  # fmt: skip
    SeasonTournament.objects.bulk_create(
        SeasonTournament(season=season, tournament=t) for t in tournaments
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return season


def read_registrations(season: Season) -> list[Any]:
    from tournaments.models import Registration

    return list(
        Registration.objects.filter(tournament__seasons=season).values_list(
            "pk", "tournament_id", "player_id", "player__first_name", "player__last_name",
            "player__club",
        )
    )  # fmt: skip


def read_series_totals(season: Season) -> list[Any]:
    from scoring.models import SeriesTotal
    from seasons.models import SeasonTournament

    attached = SeasonTournament.objects.filter(season=season).values("tournament_id")
    return list(
        SeriesTotal.objects.filter(tournament_id__in=attached).values_list(
            "registration_id", "points"
        )
    )


def timed(*funcs: Callable[[], object], runs: int = RUNS) -> list[tuple[float, float]]:
    """Median and best milliseconds of each function, run in turns (so that a load on the
    machine falls on all of them alike)."""
    samples: list[list[float]] = [[] for _ in funcs]
    for _ in range(runs):
        for func, taken in zip(funcs, samples, strict=True):
            start = time.perf_counter()
            func()
            taken.append((time.perf_counter() - start) * 1000)
    return [(statistics.median(taken), min(taken)) for taken in samples]


def more_seasons(season: Season) -> None:
    """Two more seasons over the same tournaments (a cup of the best 3, a Turnierserie of
    placement points), so that every player has a line in three seasons."""
    from seasons.models import Season, SeasonTournament

    for name, preset in (("Pokal", "best_n"), ("Serie", "placement_points")):
        other = Season.objects.create(
            name=name, slug=name.lower(), owner=season.owner, preset=preset,
            reference_date=REFERENCE,
        )  # fmt: skip
        SeasonTournament.objects.bulk_create(
            SeasonTournament(season=other, tournament_id=a.tournament_id)
            for a in season.attachments.all()
        )


def main() -> None:
    setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from seasons.entries import refresh_season_entries
    from seasons.models import Season
    from seasons.standings import player_seasons, season_ranking
    from tournaments.models import Player

    setup_test_environment()  # the test client's host
    with test_database():
        started = time.perf_counter()
        season = build()
        more_seasons(season)
        built = time.perf_counter() - started
        for every in Season.objects.all():
            refresh_season_entries(every)
        ranking = season_ranking(season)
        player = Player.objects.get(pk=ranking.ranked[0].player)
        page = reverse("seasons:player", args=[player.pk])
        client = Client()
        assert client.get(page).status_code == 200
        # Counted at once: a later request of the test client empties the log they slice.
        with CaptureQueriesContext(connection) as captured:
            season_ranking(season)
        statements = len(captured)
        with CaptureQueriesContext(connection) as captured:
            lines = player_seasons(player)
        player_statements = len(captured)
        with CaptureQueriesContext(connection) as captured:
            client.get(page)
        page_statements = len(captured)
        rows = len(read_registrations(season))
        series_rows = len(read_series_totals(season))
        ranking_ms, registrations_ms, series_ms, player_ms, page_ms, places_ms, refresh_ms = timed(
            lambda: season_ranking(season),
            lambda: read_registrations(season),
            lambda: read_series_totals(season),
            lambda: player_seasons(player),
            lambda: client.get(page),
            lambda: season_ranking(season, places=True),
            lambda: refresh_season_entries(season),
        )
        print(f"database: {connection.vendor}; {PLAYERS} players, {TOURNAMENTS} tournaments x "
              f"{SERIES} series, {rows} registrations, {series_rows} series totals "
              f"(built in {built:.1f} s)")  # fmt: skip
        print(f"ranked {len(ranking.ranked)}, listed apart {len(ranking.unranked)}; "
              f"window opens {ranking.window_opens}")  # fmt: skip
        print(f"season ranking    : median {ranking_ms[0]:7.1f} ms, best {ranking_ms[1]:7.1f} ms"
              f"  (target < 1000 ms); {statements} statements")  # fmt: skip
        print(f"registrations read: median {registrations_ms[0]:7.1f} ms, best "
              f"{registrations_ms[1]:7.1f} ms  (baseline: the same rows, values_list); ranking "
              f"= {ranking_ms[0] / registrations_ms[0]:.1f} x")  # fmt: skip
        print(f"series totals read: median {series_ms[0]:7.1f} ms, best {series_ms[1]:7.1f} ms"
              f"  ({series_rows} rows, values_list); ranking = "
              f"{ranking_ms[0] / series_ms[0]:.1f} x")  # fmt: skip
        print(f"with places       : median {places_ms[0]:7.1f} ms, best {places_ms[1]:7.1f} ms"
              f"  (as the season page: each result's place in its tournament)")  # fmt: skip
        print(f"stored refresh    : median {refresh_ms[0]:7.1f} ms, best {refresh_ms[1]:7.1f} ms"
              f"  (the ranking and its {len(ranking.lines)} SeasonEntry rows written)")  # fmt: skip
        print(f"player_seasons    : median {player_ms[0]:7.1f} ms, best {player_ms[1]:7.1f} ms"
              f"  ({len(lines)} seasons); {player_statements} statements")  # fmt: skip
        print(f"player page       : median {page_ms[0]:7.1f} ms, best {page_ms[1]:7.1f} ms"
              f"  (target < 50 ms; GET {page}, {len(lines)} seasons, 8 tournaments); "
              f"{page_statements} statements")  # fmt: skip
        refresh_in_part(season)
        season_pages(season, client, ranking.ranked[0].player)


def refresh_in_part(season: Season) -> None:
    """The refresh the task runs after one tournament's results changed (new points for its
    160 players, changed before each run and not timed): only their lines are computed, the
    others kept; timed in turns with reading the registrations, with its statements and the
    lines it wrote."""
    from unittest import mock

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.models import TournamentTotal
    from seasons.entries import refresh_season_entries
    from seasons.models import Season, SeasonEntry
    from seasons.services import request_refresh

    rng = random.Random(int(os.environ.get("SEASON_BENCH_SEED", 26)))
    # The newest half (inside the 24 months' window): a change there changes lines.
    attached = list(
        season.attachments.order_by("tournament_id").values_list("tournament_id", flat=True)
    )[: TOURNAMENTS // 2]
    taken: list[float] = []
    rows: list[float] = []
    statements, written = 0, []
    for _run in range(RUNS):
        tournament = rng.choice(attached)
        totals = list(TournamentTotal.objects.filter(tournament_id=tournament))
        for total in totals:
            points = [rng.randint(-40, 80) for _ in range(SERIES)]
            total.series_points, total.points = points, sum(points)
        TournamentTotal.objects.bulk_update(totals, ["series_points", "points"])
        with mock.patch("seasons.tasks.refresh_season.delay"):  # the bench runs it
            request_refresh([season.pk], [tournament])
        requested = Season.objects.get(pk=season.pk).entries_requested
        before = SeasonEntry.objects.filter(season=season).latest("computed_at").computed_at
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            refresh_season_entries(season, requested=requested, only_changed=True)
        taken.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        read_registrations(season)
        rows.append((time.perf_counter() - start) * 1000)
        statements = len(queries)
        written.append(SeasonEntry.objects.filter(season=season, computed_at__gt=before).count())
    median, baseline = statistics.median(taken), statistics.median(rows)
    print(f"refresh in part   : median {median:7.1f} ms, best {min(taken):7.1f} ms  (target "
          f"500 ms; one tournament's 160 players changed: {statistics.median(written):.0f} lines "
          f"written (median), "
          f"{statements} statements); registrations read {baseline:6.1f} ms: refresh = "
          f"{median / baseline:.2f} x")  # fmt: skip


def season_pages(season: Season, client: Any, leader: int) -> None:
    """The season's page as the public asks for it (the first page, a page deep down, a
    search by name, a club, one line's explanation) and the API's first page: each timed in
    turns with reading the registrations, with its bytes and statements."""
    from django.db import connection
    from django.urls import NoReverseMatch, reverse

    detail = reverse("seasons:detail", args=[season.slug])
    asks: dict[str, tuple[str, dict[str, Any], dict[str, str]]] = {
        "page 1": (detail, {}, {}),
        "page 50": (detail, {"seite": 50}, {}),
        "search": (detail, {"q": "nachname123"}, {}),
        "club": (detail, {"club": "Verein 7"}, {}),
        "API page": (f"/api/v1/seasons/{season.slug}/ranking/", {}, {}),
    }
    try:  # the line's explanation on its own (absent before the pages read the stored one)
        explanation = reverse("seasons:explanation", args=[season.slug, leader])
        asks["explanation"] = (explanation, {}, {"HTTP_HX_REQUEST": "true"})
    except NoReverseMatch:
        pass
    wanted = os.environ.get("SEASON_BENCH_PAGES")
    if wanted:
        asks = {k: v for k, v in asks.items() if k in wanted.split(",")}
    for name, (url, query, headers) in asks.items():
        response = client.get(url, query, **headers)  # warm
        assert response.status_code == 200, (name, response.status_code)
        counted: list[str] = []

        def count(execute: Any, sql: str, *args: Any, counted: list[str] = counted) -> Any:
            counted.append(sql)
            return execute(sql, *args)

        # Counted on the connection's wrapper: the request closes and reopens the connection.
        with connection.execute_wrapper(count):
            response = client.get(url, query, **headers)
        size = len(response.content)
        page_ms, rows_ms = timed(
            functools.partial(client.get, url, query, **headers),
            lambda: read_registrations(season),
        )
        print(f"season {name:<11}: median {page_ms[0]:7.1f} ms, best {page_ms[1]:7.1f} ms, "
              f"{size / 1024:8.1f} KB, {len(counted)} statements; registrations read "
              f"{rows_ms[0]:6.1f} ms: page = {page_ms[0] / rows_ms[0]:.2f} x")  # fmt: skip


if __name__ == "__main__":
    main()
