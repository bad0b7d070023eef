"""A game and deductions of the same player in one series, or his games of two series, saved
at the same moment on PostgreSQL: they lock different things, yet the player's series and
tournament totals end up the sums of all of them, every time."""

from __future__ import annotations

import pytest
from django.db import connection

from common.actors import ORGANIZER, Actor
from scoring import doors
from scoring.models import PlayerScore, SeriesTotal, TournamentTotal
from scoring.services.deductions import add_deduction
from scoring.services.entry import delete_last_game, save_game
from scoring.services.series_totals import differences
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_user, running_table, seat_table, set_status
from tests.scoring.test_concurrency import load, race
from tournaments.models import Registration, Series, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 15
CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="phone-a")


def points_of(registration: Registration) -> tuple[int, int]:
    """The player's stored total and the sum of his score rows (series 1)."""
    stored = SeriesTotal.objects.get(registration=registration, series_number=1)
    rows = PlayerScore.objects.filter(registration=registration, series_number=1)
    return stored.points, sum(rows.values_list("points", flat=True))


def test_a_game_and_two_deductions_at_once_all_count(tournament: Tournament) -> None:
    organizer = Actor(ORGANIZER, user=make_user("orga"))
    for n in range(1, TRIALS + 1):
        table = load(running_table(tournament, number=n).pk)
        save_game(table, NORMAL, actor=CAPTAIN)
        seat1 = table.seats.get(position=1).registration
        series = Series.objects.get(pk=table.series_id)
        outcomes = race(
            # with the version seen: the claim of the sheet locks the totals
            lambda t=table.pk: save_game(load(t), NORMAL, expected_version=1, actor=CAPTAIN),
            lambda r=seat1, s=series: add_deduction(s, r, -2, "Handy am Tisch", organizer),
            lambda r=seat1, s=series: add_deduction(s, r, -3, "Karte gezeigt", organizer),
        )
        assert not any(isinstance(o, BaseException) for o in outcomes), outcomes
        assert points_of(seat1) == (1 + 1 - 2 - 3, 1 + 1 - 2 - 3)
    assert differences(tournament) == []


def test_deleting_a_game_while_a_deduction_is_saved_loses_neither(tournament: Tournament) -> None:
    organizer = Actor(ORGANIZER, user=make_user("orga"))
    for n in range(1, TRIALS + 1):
        table = load(running_table(tournament, number=n).pk)
        save_game(table, NORMAL, actor=CAPTAIN)
        save_game(load(table.pk), NORMAL, actor=CAPTAIN)
        seat2 = table.seats.get(position=2).registration
        series = Series.objects.get(pk=table.series_id)
        outcomes = race(
            lambda t=table.pk: delete_last_game(load(t), expected_version=2, actor=CAPTAIN),
            lambda r=seat2, s=series: add_deduction(s, r, -4, "Unsportlich", organizer),
        )
        assert not any(isinstance(o, BaseException) for o in outcomes), outcomes
        assert points_of(seat2) == (-1 - 4, -1 - 4)
    assert differences(tournament) == []


def test_games_of_one_player_in_two_series_at_once_both_count(tournament: Tournament) -> None:
    organizer = Actor(ORGANIZER, user=make_user("orga"))
    series2 = tournament.series.get(number=2)
    set_status(series2, Series.Status.RUNNING)
    for n in range(1, TRIALS + 1):
        first = load(running_table(tournament, number=n).pk)
        players = [s.registration for s in first.seats.order_by("position")]
        second = load(seat_table(series2, players, number=n).pk)
        outcomes = race(
            lambda t=first.pk: save_game(load(t), NORMAL, expected_version=0, actor=CAPTAIN),
            lambda t=second.pk: save_game(load(t), NORMAL, actor=CAPTAIN),
            lambda r=players[0]: add_deduction(series2, r, -2, "Handy am Tisch", organizer),
        )
        assert not any(isinstance(o, BaseException) for o in outcomes), outcomes
        overall = TournamentTotal.objects.get(registration=players[0])
        assert (overall.points, overall.series_points) == (1 + 1 - 2, [1, 1 - 2])
    assert differences(tournament) == []
