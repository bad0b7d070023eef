"""A club's evenings ranked by the seasons' pure core: placement points per table size (ties
share the places they cover), points per 24 games, best N evenings, a running evening
pending. Worked by hand; Hypothesis for the symmetric tables' zero sum."""

from __future__ import annotations

import dataclasses
import datetime
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seasons.ranking import (
    CLUB_CHAMPIONSHIP,
    EVENING_AVERAGE,
    EVENING_POINTS,
    TABLE_POINTS,
    Result,
    TableResult,
    Why,
    half_away,
    rank_season,
    score,
    table_share,
)

REFERENCE = datetime.date(2026, 11, 28)


def shares(*points: int) -> list[Fraction]:
    """Each player's placement points at one table whose players scored ``points``."""
    return [table_share(TABLE_POINTS, TableResult(p, points)) for p in points]


def evening(
    player: int, number: int, points: int, games: int = 24, *, closed: bool = True, **kw: object
) -> Result:
    """Player's evening ``number`` (held on day ``number`` of November 2026)."""
    held_on = datetime.date(2026, 11, number)
    if closed:
        return Result(player, number, held_on, (points,), games=games, **kw)  # type: ignore[arg-type]
    return Result(
        player, number, held_on, (), open_points=(points,), complete=False, games=games, **kw
    )  # type: ignore[arg-type]


def test_the_tables_of_four_to_seven() -> None:
    assert TABLE_POINTS == (
        (3, 1, -1, -3),
        (4, 2, 0, -2, -4),
        (5, 3, 1, -1, -3, -5),
        (6, 4, 2, 0, -2, -4, -6),
    )


def test_a_table_of_four_by_hand() -> None:
    assert shares(10, -12, 5, -3) == [3, -3, 1, -1]
    # Two tied for places 1 and 2 share (3 + 1) / 2; the rest keep theirs.
    assert shares(5, 5, 0, -10) == [2, 2, -1, -3]
    # Two tied for places 2 and 3: (1 - 1) / 2 = 0.
    assert shares(5, 0, 0, -5) == [3, 0, 0, -3]
    # Three tied for places 2 to 4: (1 - 1 - 3) / 3 = -1.
    assert shares(9, -3, -3, -3) == [3, -1, -1, -1]
    # Everybody equal (a table that played no game): 0 each.
    assert shares(0, 0, 0, 0) == [0, 0, 0, 0]


def test_a_table_of_five_by_hand() -> None:
    assert shares(8, 4, 0, -4, -8) == [4, 2, 0, -2, -4]
    # Tied for places 1 and 2: (4 + 2) / 2 = 3.
    assert shares(5, 5, 0, -2, -8) == [3, 3, 0, -2, -4]
    # Three tied for places 2 to 4: (2 + 0 - 2) / 3 = 0.
    assert shares(9, 1, 1, 1, -12) == [4, 0, 0, 0, -4]
    # Tied for places 4 and 5: (-2 - 4) / 2 = -3.
    assert shares(6, 3, 1, -5, -5) == [4, 2, 0, -3, -3]


def test_a_size_without_a_row_scores_nothing_and_an_uneven_row_shares_exactly() -> None:
    assert table_share(TABLE_POINTS, TableResult(3, (3, 0, -3))) == 0  # no row for three
    uneven = ((10, 5, 0, 0),)
    assert table_share(uneven, TableResult(4, (4, 4, 0, -8))) == Fraction(15, 2)
    rule = dataclasses.replace(CLUB_CHAMPIONSHIP, table_points=uneven)
    result = evening(1, 1, 4, tables=(TableResult(4, (4, 4, 0, -8)),))
    assert score(rule, result) == 8  # 7.5, a half away from zero
    (line,) = rank_season(rule, [result], REFERENCE)
    assert line.value == Fraction(15, 2)  # the ranking keeps it exact
    assert half_away(Fraction(-5, 2)) == -3 and half_away(Fraction(-7, 3)) == -2


@given(
    st.integers(min_value=4, max_value=7).flatmap(
        lambda n: st.lists(st.integers(-500, 500), min_size=n, max_size=n)
    )
)
def test_the_placement_points_of_a_table_sum_to_zero(points: list[int]) -> None:
    """Whatever the points (ties included), a table's placement points sum to 0, each is a
    whole number, and more points never get fewer placement points."""
    given_shares = shares(*points)
    assert sum(given_shares) == 0
    assert all(s.denominator == 1 for s in given_shares)
    by_points = sorted(zip(points, given_shares, strict=True))
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(by_points))


def test_the_championship_adds_the_placement_points_of_the_best_evenings() -> None:
    rule = dataclasses.replace(CLUB_CHAMPIONSHIP, best_n=2)
    table = (30, 10, -10, -30)  # Anna first, Bert second, ...
    results = [
        # Anna: first (+3), first (+3), fourth (-3): the third evening is dropped.
        evening(1, 1, 30, tables=(TableResult(30, table),)),
        evening(1, 2, 30, tables=(TableResult(30, table),)),
        evening(1, 3, -30, tables=(TableResult(-30, table),)),
        # Bert: second (+1) twice.
        evening(2, 1, 10, tables=(TableResult(10, table),)),
        evening(2, 2, 10, tables=(TableResult(10, table),)),
    ]
    anna, bert = rank_season(rule, results, REFERENCE)
    assert (anna.player, anna.place, anna.value) == (1, 1, 6)
    assert [e.why for e in anna.entries] == [Why.DROPPED, Why.COUNTED, Why.COUNTED]
    assert [e.score for e in anna.entries] == [-3, 3, 3]
    assert anna.series == 2 and anna.total == 60  # two evenings counted, their points
    assert (bert.place, bert.value) == (2, 2)


def test_the_average_per_24_games_by_hand() -> None:
    # 30 points in 20 games and -6 in 16: (30 - 6) x 24 / 36 = 16.
    results = [evening(1, 1, 30, games=20), evening(1, 2, -6, games=16)]
    (line,) = rank_season(EVENING_AVERAGE, results, REFERENCE)
    assert line.value == 16 and line.games == 36
    # Each evening's own rate: 30 x 24 / 20 = 36; -6 x 24 / 16 = -9.
    assert [e.score for e in line.entries] == [-9, 36]
    # The best evening by its rate: 36, whatever its points.
    best = dataclasses.replace(EVENING_AVERAGE, best_n=1)
    results.append(evening(1, 3, 40, games=40))  # 24 per 24 games: more points, less rate
    (line,) = rank_season(best, results, REFERENCE)
    assert [e.why for e in line.entries] == [Why.DROPPED, Why.DROPPED, Why.COUNTED]
    assert line.value == 36


def test_no_game_played_is_worth_nothing_per_24_games() -> None:
    (line,) = rank_season(EVENING_AVERAGE, [evening(1, 1, 0, games=0)], REFERENCE)
    assert line.value == 0 and line.ranked


def test_a_running_evening_is_pending() -> None:
    table = (10, 0, 0, -10)
    results = [
        evening(1, 1, 10, tables=(TableResult(10, table),)),
        evening(1, 2, 12, closed=False, tables=(TableResult(12, (12, 0, 0, -12)),)),
        evening(2, 2, 5, closed=False),  # only a running evening: nothing counted yet
    ]
    for rule in (CLUB_CHAMPIONSHIP, EVENING_AVERAGE, EVENING_POINTS):
        anna, bert = rank_season(rule, results, REFERENCE)
        assert [e.why for e in anna.entries] == [Why.PENDING, Why.COUNTED]
        assert anna.provisional and anna.place == 1
        assert anna.series == 1 and anna.total == 10
        assert not bert.ranked and not bert.counted and bert.provisional
    anna, _bert = rank_season(CLUB_CHAMPIONSHIP, results, REFERENCE)
    assert anna.value == 3  # the closed evening's first place only


@pytest.mark.parametrize("rule", [CLUB_CHAMPIONSHIP, EVENING_AVERAGE, EVENING_POINTS])
def test_the_evening_presets_need_evenings_to_be_ranked(rule: object) -> None:
    needs_two = dataclasses.replace(rule, min_series=2)  # type: ignore[type-var]
    (line,) = rank_season(needs_two, [evening(1, 1, 5)], REFERENCE)
    assert not line.ranked and line.missing_series == 1
