"""A refresh after results changed computes only the changed tournaments' players' lines,
keeps the others' as stored and writes only what differs: the stored ranking is the one a
whole refresh stores, line for line (place, order, every figure), over random changes and
under every preset; two refreshes at once (PostgreSQL) leave it whole."""

from __future__ import annotations

import random
import threading
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from scoring.models import TournamentTotal
from seasons import entries
from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonEntry
from seasons.rules import ranking_rule
from seasons.services import request_refresh
from seasons.standings import season_lines
from tests.seasons.helpers import played, player, season_of
from tournaments.models import Registration, Series, Tournament

NAMES = [f"Spieler{i} Nachname{i}" for i in range(14)]


def stored_rows(season: Season) -> list[tuple[Any, ...]]:
    return sorted(entries._stored(season).values(), key=entries._player)


def whole_rows(season: Season) -> list[tuple[Any, ...]]:
    rows = entries._rows(ranking_rule(season), season_lines(season))
    return sorted(rows, key=entries._player)


def build(alice: User, rng: random.Random, preset: str) -> tuple[Season, list[Tournament]]:
    tournaments = []
    for number in range(6):
        players = rng.sample(NAMES, rng.randint(3, 8))
        results = {
            name: [rng.choice([None, *range(-30, 60)]) for _ in range(3)] for name in players
        }
        day = f"{2024 + number // 3}-{1 + 4 * (number % 3):02d}-15"
        tournaments.append(played(alice, f"t{number}", day, results))
    overrides = {"min_series": 4} if preset == "ddv_rangliste" else {}
    return season_of(alice, tournaments, preset=preset, overrides=overrides), tournaments


def change(rng: random.Random, alice: User, tournament: Tournament) -> None:
    """One random change of the tournament's results: a player's points, a result gone, a
    new player, a series opened again or closed."""
    registrations = list(Registration.objects.filter(tournament=tournament).order_by("pk"))
    kind = rng.choice(["points", "points", "gone", "new", "series"])
    if kind == "series":
        series = rng.choice(list(Series.objects.filter(tournament=tournament).order_by("pk")))
        series.status = (
            Series.Status.RUNNING if series.status == Series.Status.CLOSED else Series.Status.CLOSED
        )
        series.save(update_fields=["status"])
    elif kind == "gone" and registrations:
        TournamentTotal.objects.filter(registration=rng.choice(registrations)).delete()
    elif kind == "new":
        name = rng.choice(NAMES)
        someone = player(alice, name)
        if not Registration.objects.filter(tournament=tournament, player=someone).exists():
            registration = Registration.objects.create(
                tournament=tournament, player=someone, start_number=100 + someone.pk
            )
            points = [rng.randint(-30, 60) for _ in range(3)]
            TournamentTotal.objects.create(
                tournament=tournament,
                registration=registration,
                points=sum(points),
                series_points=points,
            )
    elif registrations:
        registration = rng.choice(registrations)
        points = [rng.choice([None, *range(-30, 60)]) for _ in range(3)]
        TournamentTotal.objects.update_or_create(
            registration=registration,
            defaults={
                "tournament": tournament,
                "points": sum(p for p in points if p is not None),
                "series_points": points,
            },
        )


@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["ddv_rangliste", "best_n", "placement_points"])
def test_refreshing_the_changed_players_stores_the_whole_ranking(alice: User, preset: str) -> None:
    rng = random.Random(f"{preset}-26")
    season, tournaments = build(alice, rng, preset)
    assert stored_rows(season) == whole_rows(season) != []
    with mock.patch("seasons.tasks.refresh_season.delay"):
        for _step in range(25):
            touched = rng.sample(tournaments, rng.choice([1, 1, 2]))
            for tournament in touched:
                change(rng, alice, tournament)
            request_refresh([season.pk], [t.pk for t in touched])
            requested = Season.objects.get(pk=season.pk).entries_requested
            # Only the changed tournaments' players are computed: the whole ranking is not.
            with mock.patch.object(entries, "season_lines", side_effect=AssertionError):
                assert refresh_season_entries(season, requested=requested, only_changed=True)
            assert stored_rows(season) == whole_rows(season)
    # Covered requests are skipped; a refresh without changes writes no line.
    assert not refresh_season_entries(season, requested=requested, only_changed=True)
    SeasonEntry.objects.filter(season=season).update(computed_at="2020-01-01T00:00:00Z")
    assert refresh_season_entries(season)
    assert not SeasonEntry.objects.filter(season=season).exclude(computed_at__year=2020).exists()


@pytest.mark.django_db
def test_a_new_reference_date_refreshes_every_line(alice: User) -> None:
    """The window moves with the reference date: no stored line is kept then."""
    rng = random.Random(7)
    season, tournaments = build(alice, rng, "ddv_rangliste")
    Season.objects.filter(pk=season.pk).update(reference_date="2026-03-01")
    season.refresh_from_db()
    with mock.patch("seasons.tasks.refresh_season.delay"):
        request_refresh([season.pk], [tournaments[0].pk])
    assert refresh_season_entries(season, requested=1, only_changed=True)
    assert stored_rows(season) == whole_rows(season)
    assert str(Season.objects.get(pk=season.pk).entries_reference) == "2026-03-01"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
def test_two_refreshes_at_once_leave_the_stored_ranking_whole(alice: User) -> None:
    rng = random.Random(11)
    season, tournaments = build(alice, rng, "best_n")
    failures: list[BaseException] = []
    for _round in range(4):
        touched = rng.sample(tournaments, 2)
        for tournament in touched:
            change(rng, alice, tournament)
        with mock.patch("seasons.tasks.refresh_season.delay"):
            request_refresh([season.pk], [touched[0].pk])
            request_refresh([season.pk], [touched[1].pk])
        start = threading.Barrier(2)

        def refresh(start: threading.Barrier = start, **kwargs: Any) -> None:
            try:
                start.wait(timeout=30)
                refresh_season_entries(Season.objects.get(pk=season.pk), **kwargs)
            except BaseException as exc:  # reported by the test's thread
                failures.append(exc)
            finally:
                connections.close_all()

        threads = [
            threading.Thread(target=refresh, kwargs={"only_changed": True}),
            threading.Thread(target=refresh, kwargs={} if _round % 2 else {"only_changed": True}),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not failures
        assert stored_rows(season) == whole_rows(season)
        done = Season.objects.get(pk=season.pk)
        assert done.entries_done == done.entries_requested
