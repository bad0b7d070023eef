"""Pure tests of the seating draw (no database)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    ALGORITHM_VERSION,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    count_repeats,
    draw_plan,
    draw_tournament,
    five_table_counts,
    is_valid_count,
    plan_next_series,
    plan_repeats,
    table_sizes,
)
from tournaments.seating import draw as seating_draw
from tournaments.seating.construct import (
    GaloisField,
    affine_plane_16,
    layered_design,
    prime_power,
    spread_design_32,
)

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def series_of(plan):
    return [s.tables for s in plan.series]


def assert_valid_series(tables, players):
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(players), "everyone seated exactly once"
    assert sorted(len(t) for t in tables) == sorted(table_sizes(len(players)))


def assert_fair_fives(plan_series, n):
    """Nobody gets a second five-player table before everyone has had one."""
    counts = Counter()
    for tables in plan_series:
        for table in tables:
            if len(table) == 5:
                counts.update(table)
        values = [counts[p] for p in range(1, n + 1)]
        assert max(values) - min(values) <= 1


# --- table sizes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (8, [4, 4]),
        (9, [4, 5]),
        (10, [5, 5]),
        (12, [4, 4, 4]),
        (13, [4, 4, 5]),
        (15, [5, 5, 5]),
        (19, [4, 5, 5, 5]),
        (33, [4] * 7 + [5]),
    ],
)
def test_table_sizes(n, sizes):
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, 7, 11])
def test_impossible_counts_are_refused_with_advice(n):
    with pytest.raises(SeatingError) as info:
        table_sizes(n)
    assert info.value.code == "no_table_split"
    assert "add" in info.value.message
    assert info.value.params["above"] > n


def test_eleven_names_both_neighbours():
    with pytest.raises(SeatingError) as info:
        table_sizes(11)
    assert "(12 in all)" in info.value.message
    assert "(10 in all)" in info.value.message


@given(st.integers(min_value=1, max_value=500))
def test_valid_counts_are_exactly_4a_plus_5b(n):
    expected = any((n - 5 * b) >= 0 and (n - 5 * b) % 4 == 0 for b in range(n // 5 + 1))
    assert is_valid_count(n) == expected
    if expected:
        sizes = table_sizes(n)
        assert sum(sizes) == n
        assert set(sizes) <= {4, 5}
        assert sizes.count(5) == n % 4


# --- constructions -------------------------------------------------------------------------


def test_affine_plane_has_no_repeats():
    design = affine_plane_16()
    assert len(design) == 5
    assert plan_repeats(design) == 0


def test_spread_design_has_no_repeats():
    design = spread_design_32()
    assert len(design) == 9
    assert plan_repeats(design) == 0


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9, 11, 16, 25, 27])
def test_galois_field_is_a_field(q):
    field = GaloisField(q)
    add, mul = field.add_table, field.mul_table
    elements = range(q)
    assert all(any(mul[x][y] == 1 for y in elements) for x in range(1, q))
    assert all(
        mul[x][add[y][z]] == add[mul[x][y]][mul[x][z]]
        for x in elements
        for y in elements
        for z in elements
    )


def test_prime_power():
    assert prime_power(8) == (2, 3)
    assert prime_power(9) == (3, 2)
    assert prime_power(7) == (7, 1)
    assert prime_power(6) is None
    assert prime_power(1) is None


@pytest.mark.parametrize(
    ("q", "extras"), [(q, k) for q in (5, 7, 8, 9, 11, 13) for k in range(4)] + [(4, 0)]
)
def test_layered_design_has_no_repeats(q, extras):
    design = layered_design(q, extras)
    n = 4 * q + extras
    assert len(design) == q
    for tables in design:
        assert sorted(p for table in tables for p in table) == list(range(n))
        assert sorted(len(table) for table in tables) == sorted(table_sizes(n))
    assert plan_repeats(design) == 0
    # Every extra player meets every base player exactly once over the q series.
    for extra in range(4 * q, n):
        met = [p for tables in design for table in tables if extra in table for p in table]
        assert sorted(p for p in met if p < 4 * q) == list(range(4 * q))


# --- full plans ----------------------------------------------------------------------------


@FAST
@given(
    n=st.integers(min_value=12, max_value=120).filter(is_valid_count),
    r=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_everyone_seated_once_per_series_at_allowed_tables(n, r, seed):
    plan = draw_tournament(n, r, seed)
    assert len(plan.series) == r
    for tables in series_of(plan):
        assert_valid_series(tables, range(1, n + 1))
    assert plan.version == ALGORITHM_VERSION
    assert plan.repeats == plan_repeats(series_of(plan))


@settings(max_examples=6, deadline=None)
@given(n=st.sampled_from([17, 45, 101, 202]), seed=st.integers(min_value=0, max_value=2**31))
def test_same_seed_same_plan(n, seed):
    first = draw_tournament(n, 3, seed).to_dict()
    seating_draw.clear_cache()
    assert draw_tournament(n, 3, seed).to_dict() == first


def test_different_seeds_give_different_plans():
    assert (
        draw_tournament(40, 2, 1).to_dict()["series"]
        != draw_tournament(40, 2, 2).to_dict()["series"]
    )


def test_plan_does_not_depend_on_player_order():
    players = [SeatingPlayer(id=i, club=None) for i in range(1, 41)]
    options = SeatingOptions(seed=9)
    forward = draw_plan(players, 3, options)
    backward = draw_plan(list(reversed(players)), 3, options)
    assert series_of(forward) == series_of(backward)


@pytest.mark.parametrize(
    ("n", "r"),
    [
        (16, 5),
        (32, 8),
        (36, 8),
        (37, 8),
        (40, 8),
        (41, 8),
        (44, 6),
        (47, 8),
        (53, 8),
        (64, 8),
        (97, 8),
        (100, 8),
        (150, 8),
        (203, 8),
        (257, 8),
        (399, 8),
        (400, 8),
    ],
)
def test_zero_repeats_where_possible(n, r):
    plan = draw_tournament(n, r, seed=20240601)
    assert plan.repeats == 0
    assert_fair_fives(series_of(plan), n)


@FAST
@given(
    n=st.integers(min_value=40, max_value=400).filter(is_valid_count),
    seed=st.integers(min_value=0, max_value=2**31),
)
# Version 2 broke the rotation for these (see the regression test below).
@example(n=82, seed=71685718)
@example(n=70, seed=1282502805)
def test_zero_repeats_and_fair_fives_for_large_counts(n, seed):
    plan = draw_tournament(n, 8, seed)
    assert plan.repeats == 0
    assert_fair_fives(series_of(plan), n)


@pytest.mark.parametrize(
    ("n", "seed"),
    [(82, 71685718), (70, 1282502805), (43, 0), (66, 1), (70, 0), (78, 2), (82, 1), (115, 1)],
)
def test_fair_fives_when_a_round_of_five_tables_ends(n, seed):
    """Regression (version 2): the last players of a round without a five-player table must
    all take the tables of five, and they had met. Version 2's strict search left repeats
    for all of these, and its relaxed plan gave somebody a second table of five while others
    had none (all but the last two). Version 3 prepares the end of the round and repairs the
    whole plan before it bends the rotation."""
    plan = draw_tournament(n, 8, seed)
    assert plan.repeats == 0
    assert_fair_fives(series_of(plan), n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(33, 40))
@pytest.mark.parametrize("r", [7, 8])
def test_zero_repeats_from_33_to_39(n, r):
    """Repeats first: the layered design gives zero repeats where the searches do not.

    The five-table rotation comes second: the strict search keeps it exact when it reaches
    zero repeats, the relaxed search bends it; the layered design seats its k = N % 4 extra
    players at a table of five in every series and everybody else at most k times.
    """
    plan = draw_tournament(n, r, seed=20240601)
    assert plan.repeats == 0 == plan_repeats(series_of(plan))
    assert len(plan.series) == r
    for tables in series_of(plan):
        assert_valid_series(tables, range(1, n + 1))
    fives = five_table_counts(series_of(plan))
    k = n % 4
    assert len([p for p in range(1, n + 1) if fives[p] > k + 2]) <= k


@pytest.mark.slow
@pytest.mark.parametrize(("n", "pattern"), [(33, {1: 32, 8: 1}), (35, {3: 32, 8: 3})])
def test_layered_design_five_tables(n, pattern):
    # Both searches leave repeats for 33 and 35 players in 8 series (version 1: about 5 and
    # 11): the layered design's extras sit at a table of five in every series.
    plan = draw_tournament(n, 8, seed=1)
    assert plan.repeats == 0
    fives = five_table_counts(series_of(plan))
    assert Counter(fives[p] for p in range(1, n + 1)) == pattern


@pytest.mark.slow
@pytest.mark.parametrize(("n", "r", "seed"), [(34, 8, 3), (39, 8, 11)])
def test_layered_plans_are_deterministic_and_followed_series_by_series(n, r, seed):
    players = [SeatingPlayer(id=10 + i) for i in range(n)]
    options = SeatingOptions(seed=seed, planned_series=r)
    full = draw_plan(players, r, options)
    seating_draw.clear_cache()
    assert draw_plan(players, r, options) == full
    assert full.repeats == 0
    history: list[list[list[int]]] = []
    for number in range(1, r + 1):
        plan = plan_next_series(players, history, options)
        assert plan.tables == full.series[number - 1].tables
        history.append(plan.tables)
    assert plan_repeats(history) == 0
    assert draw_plan(players, 2, SeatingOptions(seed=seed + 1)).series[0] != full.series[0]


@pytest.mark.slow
def test_layered_design_helps_beyond_its_series():
    # 31 = 4 * 7 + 3: zero repeats for up to 7 series; the 8th is searched (version 1: 26-29).
    assert draw_tournament(31, 8, 1).repeats <= 20


def test_few_repeats_for_small_counts():
    # 20 players, 4 series: no repeats; 24 players, 8 series: far fewer than a random draw.
    assert draw_tournament(20, 4, 3).repeats == 0
    assert draw_tournament(24, 8, 3).repeats < 40


@pytest.mark.parametrize(("n", "r"), [(16, 4), (17, 5), (36, 6), (101, 8)])
def test_seat_positions_rotate(n, r):
    plan = draw_tournament(n, r, seed=7)
    seats: dict[int, set[int]] = {}
    for tables in series_of(plan):
        for table in tables:
            for position, player in enumerate(table, start=1):
                seats.setdefault(player, set()).add(position)
    assert all(len(positions) > 1 for positions in seats.values())
    # Balanced: nobody holds one seat much more often than an even share.
    for player in seats:
        counts = Counter(
            position
            for tables in series_of(plan)
            for table in tables
            for position, who in enumerate(table, start=1)
            if who == player
        )
        assert max(counts.values()) <= -(-r // 4) + 1


# --- clubs ---------------------------------------------------------------------------------


@FAST
@given(
    n=st.sampled_from([40, 45, 64]),
    clubs=st.integers(min_value=5, max_value=8),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_club_mates_apart_in_series_one(n, clubs, seed):
    players = [SeatingPlayer(id=i, club=f"Club {i % clubs}") for i in range(1, n + 1)]
    club = {p.id: p.club for p in players}
    plan = draw_plan(players, 3, SeatingOptions(seed=seed, keep_clubs_apart=True))
    for table in plan.series[0].tables:
        names = [club[p] for p in table]
        assert len(set(names)) == len(names)
    for tables in series_of(plan):
        assert_valid_series(tables, range(1, n + 1))
    assert plan.repeats == 0


# --- the incremental draw ------------------------------------------------------------------


def test_draw_series_follows_the_planned_tournament():
    players = [SeatingPlayer(id=100 + i) for i in range(33)]
    options = SeatingOptions(seed=5, planned_series=4)
    full = draw_plan(players, 4, options)
    history: list[list[list[int]]] = []
    for number in range(1, 5):
        plan = plan_next_series(players, history, options)
        assert plan.series == number
        assert plan.tables == full.series[number - 1].tables
        history.append(plan.tables)
    assert plan_repeats(history) == full.repeats


@FAST
@given(seed=st.integers(min_value=0, max_value=2**31), n=st.sampled_from([44, 61, 120]))
def test_draw_series_without_plan_avoids_repeats(seed, n):
    players = [SeatingPlayer(id=i) for i in range(1, n + 1)]
    history: list[list[list[int]]] = []
    for _ in range(6):
        plan = plan_next_series(players, history, SeatingOptions(seed=seed))
        assert_valid_series(plan.tables, range(1, n + 1))
        assert plan.repeats == count_repeats(plan.tables, history) == 0
        history.append(plan.tables)
    assert_fair_fives(history, n)


def test_draw_series_with_changed_players_and_foreign_history():
    players = [SeatingPlayer(id=i) for i in range(1, 42)]
    history = [[list(range(1, 41))[i : i + 4] for i in range(0, 40, 4)] + [[41, 42, 43, 44]]]
    # Player 41 stays, 42..44 have left, 41 players present: one table of five.
    plan = plan_next_series(players, history, SeatingOptions(seed=1, planned_series=5))
    assert_valid_series(plan.tables, range(1, 42))
    assert plan.repeats == 0
    assert plan.series == 2


def test_draw_series_refuses_impossible_counts():
    players = [SeatingPlayer(id=i) for i in range(7)]
    with pytest.raises(SeatingError) as info:
        plan_next_series(players, [], SeatingOptions(seed=1))
    assert info.value.code == "no_table_split"


def test_duplicate_players_are_refused():
    with pytest.raises(SeatingError) as info:
        plan_next_series([SeatingPlayer(id=1)] * 8, [], SeatingOptions(seed=1))
    assert info.value.code == "duplicate_player"


# --- standings (Swiss) ----------------------------------------------------------------------


def test_standings_mode_seats_leaders_together():
    players = [SeatingPlayer(id=i) for i in range(1, 17)]
    standings = tuple(range(16, 0, -1))
    plan = plan_next_series(
        players, [[[1, 2, 3, 4]]], SeatingOptions(seed=1, mode="standings", standings=standings)
    )
    assert [sorted(t) for t in plan.tables] == [
        [13, 14, 15, 16],
        [9, 10, 11, 12],
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]
    assert plan.repeats == 6


def test_standings_mode_gives_five_player_tables_to_those_without_one():
    players = [SeatingPlayer(id=i) for i in range(1, 14)]  # 4 + 4 + 5
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12, 13]]]
    plan = plan_next_series(
        players, history, SeatingOptions(seed=1, mode="standings", standings=tuple(range(1, 14)))
    )
    five = next(t for t in plan.tables if len(t) == 5)
    assert not set(five) & {9, 10, 11, 12, 13}
    assert_valid_series(plan.tables, range(1, 14))
