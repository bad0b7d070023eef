"""The individual ranking's core by hand (``teams.individual``, no database): by total points
over every closed series, ties broken by the best and then the last series the player
played, equal players sharing the place; running series shown apart; a player with fewer
series ranked by his total. Hypothesis: places never go down the list, every closed point
is counted once."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from teams.individual import PlayerResults, SeriesResult, rank_players


def player(key: int, *points: int, running: tuple[int, ...] = ()) -> PlayerResults:
    return PlayerResults(
        key,
        tuple(SeriesResult(p, games=24) for p in points)
        + tuple(SeriesResult(p, games=24, closed=False) for p in running),
    )


def test_by_total_then_best_then_last_series_and_shared_places() -> None:
    lines = rank_players(
        [
            player(1, 10, 20),  # 30, best 20
            player(2, 15, 15),  # 30, best 15
            player(3, 40),  # 40 in one series: ranked by the total, first
            player(4, 5, 25),  # 30, best 25
            player(5, 25, 5),  # 30, best 25, last 5: behind 4
            player(6, -3, 0, 3),  # 0
            player(7, 3, 0, -3),  # 0, best 3, last -3: behind 6
            player(8, 0, 0),  # 0, best 0
            player(9, 12, 18),  # 30, best 18
            player(10, 18, 12),  # 30, best 18, last 12: behind 9
            player(11, 0, 0),  # equal to 8 on everything: shared place
        ]
    )
    assert [(line.player, line.place, line.shared) for line in lines] == [
        (3, 1, False),
        (4, 2, False),
        (5, 3, False),
        (1, 4, False),
        (9, 5, False),
        (10, 6, False),
        (2, 7, False),
        (6, 8, False),
        (7, 9, False),
        (8, 10, True),
        (11, 10, True),
    ]
    first = lines[0]
    assert (first.series, first.total, first.average) == (1, 40, Fraction(40))
    assert (first.best_series, first.last_series, first.games) == (40, 40, 24)
    assert lines[1].average == Fraction(15)
    assert lines[7].average == Fraction(0)


def test_fewer_series_rank_by_total_not_by_average() -> None:
    # Two series of +20 (average 20) against four of +12 (average 12, total 48).
    lines = rank_players([player(1, 20, 20), player(2, 12, 12, 12, 12)])
    assert [(line.player, line.place, line.total, line.average) for line in lines] == [
        (2, 1, 48, Fraction(12)),
        (1, 2, 40, Fraction(20)),
    ]


def test_running_series_are_shown_not_counted() -> None:
    lines = rank_players([player(1, 10, running=(50,)), player(2, 20), player(3, running=(7,))])
    assert [(line.player, line.place) for line in lines] == [(2, 1), (1, 2), (3, None)]
    counted = lines[1]
    assert (counted.total, counted.series, counted.open_series, counted.open_points) == (
        10,
        1,
        1,
        50,
    )
    assert counted.provisional and not lines[0].provisional
    waiting = lines[2]
    assert (waiting.series, waiting.total, waiting.average, waiting.best_series) == (
        0,
        0,
        Fraction(0),
        None,
    )


def test_equal_players_keep_the_given_order() -> None:
    lines = rank_players([player(9, 5), player(3, 5), player(5, 5)])
    assert [(line.player, line.place, line.shared) for line in lines] == [
        (9, 1, True),
        (3, 1, True),
        (5, 1, True),
    ]


def test_without_tiebreaks_equal_totals_share() -> None:
    lines = rank_players([player(1, 10, 20), player(2, 15, 15)], tiebreak=())
    assert [(line.place, line.shared) for line in lines] == [(1, True), (1, True)]


series = st.lists(st.tuples(st.integers(min_value=-120, max_value=120), st.booleans()), max_size=6)


@given(st.lists(series, max_size=30))
def test_places_never_go_down_and_every_closed_point_counts_once(
    field: list[list[tuple[int, bool]]],
) -> None:
    players = [
        PlayerResults(key, tuple(SeriesResult(p, closed=c) for p, c in results))
        for key, results in enumerate(field)
    ]
    lines = rank_players(players)
    assert sorted(line.player for line in lines) == list(range(len(field)))
    places = [line.place for line in lines if line.place is not None]
    assert places == sorted(places)
    assert all(line.place is None for line in lines[len(places) :])
    assert all(place <= index + 1 for index, place in enumerate(places))
    assert sum(line.total for line in lines) == sum(
        p for results in field for p, closed in results if closed
    )
    assert sum(line.open_points for line in lines) == sum(
        p for results in field for p, closed in results if not closed
    )
    for before, after in pairwise(lines):
        if before.place is not None and after.place is not None:
            assert before.total >= after.total
            assert (before.place == after.place) == (
                (before.total, before.best_series, before.last_series)
                == (after.total, after.best_series, after.last_series)
            )
