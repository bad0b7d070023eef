"""The statistics read on games entered through the entry service: figures computed by hand,
the same counts as the kept totals, a transcribed sheet, and a player over two tournaments."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actors import ORGANIZER, Actor
from scoring.models import SeriesTotal
from scoring.services.deductions import add_deduction
from scoring.statistics import Rate, SeriesResult, SoloOutcomes
from scoring.stats_read import player_statistics, tournament_statistics
from tests.factories import RE_WINS as NORMAL
from tests.factories import (
    add_players,
    make_tournament,
    make_user,
    play,
    seat_table,
    set_status,
)
from tournaments.models import Registration, Series, Tournament

pytestmark = pytest.mark.django_db

FOX = {"contract": "normal", "re": [1, 2], "re_points": 100, "extras": {"re": {"fuchs": 1}}}
SOLO = {"contract": "solo", "solo": "damen", "re": [3], "re_points": 150}  # soloist +3
LOST_SOLO = {"contract": "solo", "solo": "buben", "re": [2], "re_points": 100}  # soloist -3
AGAINST = {"contract": "normal", "re": [2, 4], "re_points": 120}  # Kontra wins: 2 each

#: Series 1, one table: players 1..4 at seats 1..4, five games. Series 2: one game with the
#: seats reversed (player 4 at seat 1). A deduction of -2 for player 4 in series 1.
#:
#: game   1 NORMAL  2 FOX      3 SOLO     4 LOST_SOLO  5 AGAINST   (series 2) NORMAL
#: P1     Re +1     Re -1      K -1       K +1         K +2        K -1  (seat 4)
#: P2     K -1      Re -1      K -1       Solo -3      Re -2       Re +1 (seat 3)
#: P3     Re +1     K +1       Solo +3    K +1         K +2        K -1  (seat 2)
#: P4     K -1      K +1       K -1       K +1         Re -2       Re +1 (seat 1)


def series_world(organizer: Any) -> tuple[Tournament, list[Registration]]:
    tournament = make_tournament(slug="stats", organizers=[organizer], series_count=3)
    players = add_players(tournament, 4)
    first, second = tournament.series.get(number=1), tournament.series.get(number=2)
    set_status(first, Series.Status.RUNNING)
    play(seat_table(first, players), [NORMAL, FOX, SOLO, LOST_SOLO, AGAINST])
    add_deduction(first, players[3], -2, "late", Actor(ORGANIZER, user=organizer))
    set_status(first, Series.Status.CLOSED)
    set_status(second, Series.Status.RUNNING)
    play(seat_table(second, players[::-1]), [NORMAL])
    return tournament, players


@pytest.fixture
def stats_world() -> tuple[Tournament, list[Registration]]:
    return series_world(make_user("olga"))


def test_the_tournaments_figures_by_hand(stats_world: Any) -> None:
    tournament, _ = stats_world
    stats = tournament_statistics(tournament)
    t = stats.figures
    assert stats.series_numbers == (1, 2)
    assert t.games == 6
    assert t.solos == Rate(2, 6) and t.solos_won == Rate(1, 2)
    assert (t.normal.re, t.normal.kontra, t.normal.known) == (2, 2, 4)
    assert (t.solo_games.re, t.solo_games.kontra, t.solo_games.known) == (1, 1, 2)
    assert t.all_games.re_rate == Rate(3, 6)
    assert t.compulsory == SoloOutcomes(won=1, lost=1, count=2, points=0)
    assert t.voluntary == SoloOutcomes()


def test_each_players_figures_by_hand(stats_world: Any) -> None:
    tournament, _ = stats_world
    lines = {line.start_number: line for line in tournament_statistics(tournament).players}
    # standings order: P3 (7), P1 (1), P4 (-3), P2 (-7)
    assert [line.start_number for line in tournament_statistics(tournament).players] == [
        3,
        1,
        4,
        2,
    ]
    p1, p2, p3, p4 = (lines[n].figures for n in (1, 2, 3, 4))
    assert p1.series == (SeriesResult(1, 2), SeriesResult(2, -1))
    assert p1.per_series == Fraction(1, 2) and p1.games == 6
    assert p1.re == Rate(1, 2) and p1.kontra == Rate(2, 4)
    assert p1.solos == Rate(0, 6) and p1.solos_won.value is None
    assert p2.re == Rate(1, 4) and p2.kontra == Rate(0, 2)
    assert p2.solos == Rate(1, 6) and p2.solos_won == Rate(0, 1)
    assert p2.compulsory == SoloOutcomes(won=0, lost=1, count=1, points=-3)
    assert p2.points == -7
    assert p3.re == Rate(2, 2) and p3.kontra == Rate(3, 4)
    assert p3.compulsory == SoloOutcomes(won=1, lost=0, count=1, points=3)
    assert p3.per_series == Fraction(7, 2)
    # the deduction counts in his series points, not in his games
    assert p4.series == (SeriesResult(1, -4), SeriesResult(2, 1))
    assert p4.re == Rate(1, 2) and p4.kontra == Rate(2, 4) and p4.games == 6


def test_the_counts_agree_with_the_kept_totals(stats_world: Any) -> None:
    """Games, solos, solos won and compulsory solos are what the series totals keep."""
    tournament, players = stats_world
    lines = {line.start_number: line.figures for line in tournament_statistics(tournament).players}
    for registration in players:
        totals = SeriesTotal.objects.filter(registration=registration, entries__gt=0)
        figures = lines[registration.start_number]
        assert figures.games == sum(t.games for t in totals)
        assert figures.solos.count == sum(t.solos for t in totals)
        assert figures.solos_won.count == sum(t.solos_won for t in totals)
        assert figures.compulsory.count == sum(t.compulsory for t in totals)
        assert figures.voluntary.won == sum(t.voluntary_won for t in totals)
        assert figures.points == sum(t.points for t in totals)


def test_a_tournament_without_games() -> None:
    tournament = make_tournament(slug="empty")
    add_players(tournament, 3)
    stats = tournament_statistics(tournament)
    assert stats.series_numbers == () and stats.figures.games == 0
    assert len(stats.players) == 3
    assert all(p.figures.games == 0 and p.figures.per_series is None for p in stats.players)


def test_a_transcribed_sheet_names_only_the_soloist() -> None:
    tournament = make_tournament(slug="paper", entry_mode="transcription")
    players = add_players(tournament, 4)
    series = tournament.series.get(number=1)
    set_status(series, Series.Status.RUNNING)
    rows = [
        {"scores": {"1": 1, "2": -1, "3": 1, "4": -1}},
        {"scores": {"1": -1, "2": -1, "3": 3, "4": -1}, "soloist": 3, "compulsory": True},
    ]
    play(seat_table(series, players), rows)
    stats = tournament_statistics(tournament)
    assert stats.figures.games == 2
    # the normal game's parties are unknown: only the solo counts for Re and Kontra
    assert stats.figures.all_games.known == 1 and stats.figures.solo_games.re == 1
    p3 = next(p.figures for p in stats.players if p.start_number == 3)
    assert p3.re == Rate(1, 1) and p3.kontra == Rate(0, 0) and p3.games == 2
    assert p3.compulsory == SoloOutcomes(won=1, lost=0, count=1, points=3)


def test_a_player_over_two_tournaments() -> None:
    organizer = make_user("olga")
    first, players = series_world(organizer)
    later_date = first.starts_on.replace(year=first.starts_on.year + 1)
    second = make_tournament(slug="spring", organizers=[organizer], starts_on=later_date)
    again = Registration.objects.create(tournament=second, player=players[1].player, start_number=9)
    others = add_players(second, 3)
    series = second.series.get(number=1)
    set_status(series, Series.Status.RUNNING)
    play(seat_table(series, [*others[:2], again, others[2]]), [NORMAL, SOLO])  # he is seat 3
    with CaptureQueriesContext(connection) as queries:
        stats = player_statistics([players[1], again])
    assert len(queries) == 3
    assert [p.tournament_slug for p in stats.tournaments] == ["stats", "spring"]
    later = stats.tournaments[1].figures
    assert later.series == (SeriesResult(1, 4),) and later.re == Rate(2, 2)
    overall = stats.overall
    assert overall.games == 8 and overall.points == -3 and overall.series_played == 3
    assert overall.per_series == -1
    assert overall.solos == Rate(2, 8) and overall.solos_won == Rate(1, 2)
    assert overall.compulsory == SoloOutcomes(won=1, lost=1, count=2, points=0)
    assert player_statistics([]).tournaments == ()
    assert player_statistics([]).overall.games == 0
