"""Pure tests of seating latecomers into a drawn series (no database)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    SeatingError,
    count_repeats,
    is_valid_count,
    pair_counts,
    seat_latecomers,
)
from tournaments.seating.latecomers import _shape

FOURS = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
FIVES = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]


def test_latecomer_joins_the_table_of_four_where_he_meets_nobody_again() -> None:
    history = [[[13, 1, 5, 9], [2, 3, 4, 6]]]
    plan = seat_latecomers(FOURS, history, [13])
    # 13 met 1, 5 and 9 (one at every table): any table costs one repeat; the first is taken.
    assert plan.tables[0] == [1, 2, 3, 4, 13]
    assert plan.repeat_pairs == [(1, 13)]
    history = [[[13, 1, 5, 14], [2, 3, 4, 6]]]
    plan = seat_latecomers(FOURS, history, [13])
    assert plan.tables[2] == [9, 10, 11, 12, 13]
    assert plan.repeat_pairs == [] and plan.new_tables == 0
    assert [(m.player, m.table, m.seat, m.from_table) for m in plan.moves] == [(13, 2, 5, None)]


def test_nobody_already_seated_changes_seat_at_a_filled_table() -> None:
    drawn = [[4, 2, 3, 1], [8, 7, 6, 5]]
    plan = seat_latecomers(drawn, [], [10, 9])
    assert plan.tables == [[4, 2, 3, 1, 9], [8, 7, 6, 5, 10]]


def test_five_player_tables_go_to_those_who_had_fewer() -> None:
    # Players 1..4 each had a table of five, 5..8 none; no repeats either way.
    history = [[[1, 20, 21, 22, 23], [2, 24, 25, 26, 27], [3, 28, 29, 30, 31], [4, 32, 33, 34, 35]]]
    plan = seat_latecomers(FOURS[:2], history, [9])
    assert plan.tables == [[1, 2, 3, 4], [5, 6, 7, 8, 9]]


def test_one_latecomer_and_only_tables_of_five_makes_a_new_table_of_four() -> None:
    # Moving 1, 6 or 11 would seat two of them together again.
    history = [[[1, 6, 11, 30]]]
    plan = seat_latecomers(FIVES, history, [16])
    assert plan.new_tables == 1 and len(plan.tables) == 4
    assert sorted(len(t) for t in plan.tables) == [4, 4, 4, 4]
    moved = [m for m in plan.moves if m.from_table is not None]
    assert sorted(m.from_table for m in moved) == [0, 1, 2]
    new_table = plan.tables[3]
    assert 16 in new_table and len({1, 6, 11} & set(new_table)) <= 1
    assert plan.repeat_pairs == [] and plan.repeats == 0
    # The tables a player left keep their order, closed up.
    for index, table in enumerate(FIVES):
        assert plan.tables[index] == [p for p in table if p not in new_table]


def test_four_latecomers_and_three_tables_of_four_sit_together() -> None:
    plan = seat_latecomers(FOURS, [], [13, 14, 15, 16])
    assert plan.tables[:3] == FOURS
    assert sorted(plan.tables[3]) == [13, 14, 15, 16]
    assert all(m.from_table is None for m in plan.moves)


def test_two_latecomers_one_table_of_four_move_two_players() -> None:
    drawn = [[1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]
    plan = seat_latecomers(drawn, [], [20, 21])
    # Filling the table of four would leave one latecomer needing three movers; two suffice.
    assert plan.tables[0] == [1, 2, 3, 4]
    assert sorted(len(t) for t in plan.tables) == [4, 4, 4, 4]
    assert len([m for m in plan.moves if m.from_table is not None]) == 2


def test_impossible_total_is_refused_with_the_nearest_counts() -> None:
    with pytest.raises(SeatingError) as info:
        seat_latecomers(FIVES[:2], [], [16])
    assert info.value.code == "no_table_split"
    assert (info.value.params["below"], info.value.params["above"]) == (10, 12)


@pytest.mark.parametrize(
    ("tables", "late", "code"),
    [
        (FOURS, [4], "already_seated"),
        (FOURS, [13, 13], "duplicate_player"),
        ([[1, 2, 3]], [4], "invalid_table"),
        ([[1, 2, 3, 4], [4, 5, 6, 7]], [9], "duplicate_player"),
    ],
)
def test_bad_input_is_refused(tables, late, code) -> None:
    with pytest.raises(SeatingError) as info:
        seat_latecomers(tables, [], late)
    assert info.value.code == code


def test_no_latecomers_changes_nothing() -> None:
    plan = seat_latecomers(FOURS, [], [])
    assert plan.tables == FOURS and plan.moves == [] and plan.new_tables == 0


# --- properties ----------------------------------------------------------------------------


@st.composite
def situations(draw):
    sizes = draw(st.lists(st.sampled_from([4, 5]), min_size=1, max_size=10))
    seated_count = sum(sizes)
    late_count = draw(st.integers(min_value=1, max_value=9))
    ids = list(range(1, seated_count + late_count + 1))
    order = draw(st.permutations(ids))
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    history = []
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        earlier = draw(st.permutations(ids))
        history.append([list(earlier[i : i + 4]) for i in range(0, len(earlier) - 3, 4)])
    seed = draw(st.integers(min_value=0, max_value=1000))
    return tables, history, list(order[seated_count:]), seed


@settings(max_examples=200, deadline=None)
@given(situations())
def test_latecomer_properties(situation) -> None:
    tables, history, late, seed = situation
    total = sum(len(t) for t in tables) + len(late)
    if not is_valid_count(total):
        with pytest.raises(SeatingError) as info:
            seat_latecomers(tables, history, late, seed)
        assert info.value.code == "no_table_split"
        return
    plan = seat_latecomers(tables, history, late, seed)
    seated = [p for table in plan.tables for p in table]
    assert sorted(seated) == sorted([p for t in tables for p in t] + late), "everyone once"
    assert {len(t) for t in plan.tables} <= {4, 5}
    assert len(plan.tables) == len(tables) + plan.new_tables
    moved = [p for i, t in enumerate(tables) for p in t if p not in plan.tables[i]]
    assert len(moved) <= 3
    if not plan.new_tables:
        assert not moved, "nobody moves unless a new table is needed"
    fours = [i for i, t in enumerate(tables) if len(t) == 4]
    if len(late) <= len(fours):
        assert plan.new_tables == 0
    for i, table in enumerate(tables):
        stays = [p for p in plan.tables[i] if p in table]
        assert stays == [p for p in table if p in stays], "seat order kept"
        left = len(table) - len(stays)
        assert left <= 1 and (left == 0 or len(table) == 5)
        assert plan.tables[i][: len(stays)] == stays, "latecomers take the last seat"
    assert {m.player for m in plan.moves} == set(late) | set(moved) | {
        p for t in plan.tables[len(tables) :] for p in t
    }
    for move in plan.moves:
        assert plan.tables[move.table][move.seat - 1] == move.player
    assert plan.repeats == count_repeats(plan.tables, history)
    met = pair_counts(history)
    assert all(met[pair] for pair in plan.repeat_pairs)
    assert plan == seat_latecomers(tables, history, list(reversed(late)), seed), "deterministic"


@settings(max_examples=100, deadline=None)
@given(situations())
def test_filling_tables_of_four_costs_the_fewest_repeats(situation) -> None:
    tables, history, late, seed = situation
    fours = [i for i, t in enumerate(tables) if len(t) == 4]
    late = late[: len(fours)][:3]
    if not late:
        return
    plan = seat_latecomers(tables, history, late, seed)
    met = pair_counts(history)

    def cost(assignment: tuple[int, ...]) -> int:
        return sum(
            1
            for p, t in zip(late, assignment, strict=True)
            for q in tables[t]
            if met[tuple(sorted((p, q)))]
        )

    best = min(cost(a) for a in itertools.permutations(fours, len(late)))
    assert len(plan.repeat_pairs) == best


def test_every_total_that_splits_has_a_shape() -> None:
    """Whenever the new total splits into tables of four and five, latecomers can be seated
    with at most three movers, one from each of that many tables of five."""
    for fours, fives, late in itertools.product(range(8), range(8), range(1, 30)):
        if fours + fives == 0 or not is_valid_count(4 * fours + 5 * fives + late):
            continue
        filled, moved = _shape(late, fours, fives)
        assert 0 <= filled <= min(late, fours) and 0 <= moved <= min(3, fives)
        rest = late - filled + moved
        assert rest == 0 or is_valid_count(rest)
