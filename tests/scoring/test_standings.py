"""Standings from stored scores: totals with penalties, ties, five-player tables, queries."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actors import ORGANIZER, Actor
from scoring import doors
from scoring.services.deductions import add_deduction
from scoring.services.entry import save_game
from scoring.standings import overall_standings, series_standings
from tests.factories import RE_WINS, make_tournament, running_table

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")


@pytest.fixture
def tournament(db):
    return make_tournament(tiebreak=["best_series", "last_series"])


def test_totals_places_and_penalties(tournament, alice: User) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    save_game(table, {"contract": "solo", "solo": "buben", "re": [2],
                         "re_points": 150}, actor=CAPTAIN)  # fmt: skip
    organizer = Actor(ORGANIZER, user=alice)
    seat4 = table.seats.get(position=4).registration
    add_deduction(table.series, seat4, -2, "Unsportliches Verhalten", organizer)
    rows = overall_standings(tournament)
    by_seat = {r["start_number"]: r for r in rows}
    # game 1: seats 1, 3 +1, seats 2, 4 -1; game 2: soloist 2 wins value 1: +3, others -1
    assert {n: r["total"] for n, r in by_seat.items()} == {1: 0, 2: 2, 3: 0, 4: -4}
    assert (
        by_seat[2]["solos"] == 1 and by_seat[2]["compulsory"] == 1 and by_seat[2]["solos_won"] == 1
    )
    assert rows[0]["start_number"] == 2 and rows[0]["place"] == 1
    assert by_seat[1]["games"] == 2
    assert by_seat[1]["series"] == [by_seat[1]["total"]]


def test_shared_place_when_all_metrics_equal(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    rows = overall_standings(tournament)
    assert [(r["place"], r["shared"]) for r in rows] == [(1, True), (1, True), (3, True), (3, True)]


def test_five_player_table_sitter_scores_zero_and_plays_less(tournament) -> None:
    table = running_table(tournament, size=5)
    save_game(table, {**RE_WINS, "re": [2, 3]}, actor=CAPTAIN)
    by_seat = {r["start_number"]: r for r in series_standings(table.series)}
    assert by_seat[1]["total"] == 0 and by_seat[1]["games"] == 0
    assert by_seat[2]["games"] == 1


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as ctx:
        func()
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_field(tournament) -> None:
    for number in range(1, 3):
        table = running_table(tournament, number=number)
        save_game(table, RE_WINS, actor=CAPTAIN)
    small = count_queries(lambda: overall_standings(tournament))
    for number in range(3, 13):
        table = running_table(tournament, number=number)
        save_game(table, RE_WINS, actor=CAPTAIN)
    # one query (the names, each player's tournament total, the number of series started),
    # whatever the size of the field
    assert count_queries(lambda: overall_standings(tournament)) == small == 1
    assert count_queries(lambda: series_standings(tournament.series.get(number=1))) <= 3
