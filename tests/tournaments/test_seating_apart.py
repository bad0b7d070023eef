"""Keep-apart pairs in every draw kind (pure, no database)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teams.seating import seat_teams, seat_uneven
from tournaments.seating import (
    ALREADY_SEATED_TOGETHER,
    LATECOMER_NO_OTHER_TABLE,
    NOT_ENOUGH_TABLES,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    draw_plan,
    draw_tournament,
    is_valid_count,
    plan_next_series,
    seat_latecomers,
)
from tournaments.seating.apart import normalize_pairs, together

#: Extra repeats a plan with keep-apart pairs may have over the same draw without them:
#: this many per pair and series (measured: at most 1.0 in 210 random fields of 8..120
#: players, 1..6 series, up to one pair per 8 players; see docs/seating.md).
MARGIN_PER_PAIR_AND_SERIES = 2


def players(n: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(id=i) for i in range(1, n + 1)]


def shared(tables: list[list[int]], pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return together(tables, pairs)


def test_a_couple_never_shares_a_table_in_a_whole_plan() -> None:
    pairs = ((1, 2), (9, 3))
    plan = draw_plan(players(16), 5, SeatingOptions(seed=7, keep_apart=pairs))
    for series in plan.series:
        assert shared(series.tables, [(1, 2), (3, 9)]) == []
        assert series.unhonoured == ()
    # everybody seated once per series, tables of four
    assert all(sorted(p for t in s.tables for p in t) == list(range(1, 17)) for s in plan.series)


def test_without_pairs_the_plan_is_unchanged() -> None:
    plain = draw_tournament(24, 4, 5)
    assert draw_plan(players(24), 4, SeatingOptions(seed=5, keep_apart=())) == plain
    # a pair with an absent player is ignored
    ignored = SeatingOptions(seed=5, keep_apart=((1, 99),))
    assert draw_plan(players(24), 4, ignored).to_dict() == plain.to_dict()


def test_the_same_seed_gives_the_same_plan_with_pairs() -> None:
    options = SeatingOptions(seed=11, keep_apart=((4, 5), (6, 20)))
    assert draw_plan(players(21), 3, options) == draw_plan(players(21), 3, options)


def test_a_pair_in_either_order_counts_once_and_a_player_with_himself_is_refused() -> None:
    assert normalize_pairs([(2, 1), (1, 2), (3, 4)]) == [(1, 2), (3, 4)]
    with pytest.raises(SeatingError) as error:
        draw_plan(players(8), 1, SeatingOptions(seed=1, keep_apart=((3, 3),)))
    assert error.value.code == "pair_with_self"


def test_impossible_pairs_are_reported_and_everybody_is_still_seated() -> None:
    # 8 players at two tables: 1, 2 and 3 must all sit apart, but there are two tables.
    pairs = ((1, 2), (1, 3), (2, 3))
    plan = draw_plan(players(8), 2, SeatingOptions(seed=3, keep_apart=pairs))
    for series in plan.series:
        assert sorted(p for t in series.tables for p in t) == list(range(1, 9))
        assert len(series.unhonoured) == 1, "two of the three share a table, no more"
        for entry in series.unhonoured:
            assert entry.reason == NOT_ENOUGH_TABLES and entry.series == series.series
        assert len(series.unhonoured) == len(shared(series.tables, list(pairs)))
    assert plan.to_dict(with_pairs=True)["unhonoured"][0]["reason"] == NOT_ENOUGH_TABLES
    assert "unhonoured" not in plan.to_dict()


def test_series_by_series_draw_keeps_pairs_apart_against_history() -> None:
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]]
    pairs = ((1, 5), (2, 6), (3, 7), (4, 8))
    plan = plan_next_series(players(12), history, SeatingOptions(seed=3, keep_apart=pairs))
    assert shared(plan.tables, list(pairs)) == [] and plan.unhonoured == ()


def test_standings_draw_keeps_pairs_apart_and_moves_the_nearest_player() -> None:
    standings = tuple(range(1, 13))
    options = SeatingOptions(seed=3, mode="standings", standings=standings, keep_apart=((1, 2),))
    plan = plan_next_series(players(12), [], options)
    assert shared(plan.tables, [(1, 2)]) == []
    # 2 changes places with 5, the nearest player at the next table; the rest stay in blocks
    tops = [sorted(t) for t in plan.tables]
    assert sorted(tops) == [[1, 3, 4, 5], [2, 6, 7, 8], [9, 10, 11, 12]]


def test_a_latecomer_who_only_fits_at_his_partners_table_is_reported() -> None:
    drawn = [[1, 2, 3, 4, 10], [5, 6, 7, 8, 11], [12, 13, 14, 15]]
    plan = seat_latecomers(drawn, [], [9], keep_apart=[(9, 12)], series=2)
    assert sorted(p for p in plan.tables[2] if p in (9, 12)) == [9, 12]
    assert [(e.pair, e.reason, e.series) for e in plan.unhonoured] == [
        ((9, 12), LATECOMER_NO_OTHER_TABLE, 2)
    ]


def test_a_latecomer_joins_the_table_without_his_partner() -> None:
    drawn = [[1, 2, 3, 4], [5, 6, 7, 8]]
    plan = seat_latecomers(drawn, [], [9], keep_apart=[(9, 1)])
    assert 9 in plan.tables[1] and plan.unhonoured == []
    # a pair the drawn tables already seat together stays (nobody seated moves for it)
    plan = seat_latecomers(drawn, [], [9], keep_apart=[(2, 3)])
    assert [(e.pair, e.reason) for e in plan.unhonoured] == [((2, 3), ALREADY_SEATED_TOGETHER)]


def test_team_draw_keeps_pairs_of_different_teams_apart() -> None:
    teams = [[1, 2, 3, 4], [11, 12, 13, 14], [21, 22, 23, 24], [31, 32, 33, 34]]
    pairs = [(1, 11), (2, 22), (3, 33)]
    day = seat_teams(teams, 4, seed=5, keep_apart=pairs)
    for tables in day.series:
        assert shared([list(t) for t in tables], pairs) == []
        for table in tables:  # still one player of every team at every table
            assert sorted(p // 10 for p in table) == [0, 1, 2, 3]
    assert day.unhonoured == ()
    # drawn series by series, the earlier series stay as they were
    assert seat_teams(teams, 2, seed=5, keep_apart=pairs).series == day.series[:2]
    uneven = seat_uneven([*teams[:3], [31, 32, 33]], (), 3, keep_apart=[(1, 11)], series=1)
    assert shared([list(t) for t in uneven.tables], [(1, 11)]) == []


@st.composite
def fields(draw: st.DrawFn) -> tuple[int, int, int, list[tuple[int, int]]]:
    n = draw(st.integers(8, 120).filter(is_valid_count))
    series = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 10_000))
    count = draw(st.integers(1, max(1, n // 8)))
    pairs = draw(
        st.lists(
            st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda p: p[0] != p[1]),
            min_size=count,
            max_size=count,
        )
    )
    return n, series, seed, pairs


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_random_fields_never_seat_a_pair_together(
    field: tuple[int, int, int, list[tuple[int, int]]],
) -> None:
    n, n_series, seed, raw = field
    pairs = normalize_pairs(raw)
    plan = draw_plan(players(n), n_series, SeatingOptions(seed=seed, keep_apart=tuple(raw)))
    without = draw_plan(players(n), n_series, SeatingOptions(seed=seed))
    for series in plan.series:
        assert sorted(p for t in series.tables for p in t) == list(range(1, n + 1))
        assert [len(t) for t in series.tables] == [len(t) for t in without.series[0].tables]
        # up to one pair per 8 players a plan always exists: no pair shares a table
        assert shared(series.tables, pairs) == []
        assert series.unhonoured == ()
    margin = MARGIN_PER_PAIR_AND_SERIES * len(pairs) * n_series
    assert plan.repeats <= without.repeats + margin


def test_series_by_series_with_the_plan_gives_the_plans_tables() -> None:
    pairs = ((1, 2), (3, 17), (8, 9))
    options = SeatingOptions(seed=21, keep_apart=pairs, planned_series=4)
    full = draw_plan(players(17), 4, options)
    history: list[list[list[int]]] = []
    for number in range(1, 5):
        plan = plan_next_series(players(17), history, options)
        assert plan.tables == full.series[number - 1].tables
        history.append(plan.tables)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.sampled_from(["random", "standings"]))
def test_a_series_against_any_history_keeps_pairs_apart(
    field: tuple[int, int, int, list[tuple[int, int]]], mode: str
) -> None:
    n, n_series, seed, raw = field
    pairs = normalize_pairs(raw)
    earlier = draw_tournament(n, n_series, seed + 1)  # a history the pairs did not shape
    history = [plan.tables for plan in earlier.series]
    standings = tuple(sorted(range(1, n + 1), key=lambda p: (p * 7919) % n))
    options = SeatingOptions(
        seed=seed,
        mode="standings" if mode == "standings" else "random",
        standings=standings,
        keep_apart=tuple(raw),
    )
    plan = plan_next_series(players(n), history, options)
    assert sorted(p for t in plan.tables for p in t) == list(range(1, n + 1))
    assert shared(plan.tables, pairs) == [] and plan.unhonoured == ()


def test_the_cli_output_is_unchanged_without_pairs_and_reports_them_with() -> None:
    plain, paired = StringIO(), StringIO()
    call_command("seating", players=8, series=2, seed=1, stdout=plain)
    assert json.loads(plain.getvalue()) == draw_tournament(8, 2, 1).to_dict()
    assert "unhonoured" not in json.loads(plain.getvalue())
    call_command("seating", players=8, series=2, seed=1, keep_apart="1-2,1-3,2-3", stdout=paired)
    body = json.loads(paired.getvalue())
    assert [e["reason"] for e in body["unhonoured"]] == [NOT_ENOUGH_TABLES] * 2
    assert [e["series"] for e in body["unhonoured"]] == [1, 2]
    with pytest.raises(CommandError):
        call_command("seating", players=8, series=2, seed=1, keep_apart="1+2", stdout=paired)
