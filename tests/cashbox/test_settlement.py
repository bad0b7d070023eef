"""The settlement (pure): balances from points in cents, summing to zero; the fewest
transfers (exact for small groups, greedy with its bound above); alles in die Kasse."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cashbox.settlement import (
    EXACT_UP_TO,
    Mode,
    Rate,
    Score,
    SettlementError,
    Transfer,
    balances,
    fewest_transfers,
    greedy_transfers,
    parse_scores,
    settle,
    zero_sum_groups,
)


def _cents(scores: list[Score], rate: Rate) -> dict[str, int]:
    return {b.name: b.cents for b in balances(scores, rate)[0]}


def _applied(owed: list[tuple[str, int]], transfers: list[Transfer]) -> dict[str, int]:
    left = dict(owed)
    for t in transfers:
        left[t.payer] += t.cents
        if t.payee is not None:
            left[t.payee] -= t.cents
    return left


# --- Hand-computed examples ----------------------------------------------------------------


def test_zero_sum_points_become_money_as_they_are() -> None:
    # One evening at one table: 10 ct a point, 5 ct an extra.
    scores = [Score("Anna", 12, 2), Score("Bernd", -4, 0), Score("Claudia", -3, 1),
              Score("Dieter", -5, 1)]  # fmt: skip
    found, surplus = balances(scores, Rate(10, 5))
    # Money 130, -40, -25, -45 makes a surplus of 20: settled against the mean (5 each).
    assert surplus == 20
    assert [b.cents for b in found] == [125, -45, -30, -50]
    found, surplus = balances(scores, Rate(10))
    assert surplus == 0 and [b.cents for b in found] == [120, -40, -30, -50]


def test_winners_only_points_are_settled_against_the_mean() -> None:
    # "Nur-Plus": only the winners wrote points; the mean is 7.5 points.
    found, surplus = balances([Score("A", 14), Score("B", 10), Score("C", 6), Score("D", 0)],
                              Rate(10))  # fmt: skip
    assert surplus == 300
    assert [b.cents for b in found] == [65, 25, -15, -75]


def test_cents_left_over_come_from_the_richest_by_name() -> None:
    # 10 ct a point, 3 players, 10 points in all: 100 ct over three is 33 ct and 1 left.
    found, _ = balances([Score("Cem", 5), Score("Bea", 5), Score("Al", 0)], Rate(10))
    assert [b.cents for b in found] == [17, 16, -33]  # Bea comes before Cem: she gives it
    assert sum(b.cents for b in found) == 0


def test_fewest_transfers_find_the_pairs() -> None:
    owed = [("A", 500), ("B", -500), ("C", 300), ("D", -200), ("E", -100)]
    transfers, exact = fewest_transfers(owed)
    assert exact
    assert transfers == [
        Transfer("B", "A", 500),
        Transfer("D", "C", 200),
        Transfer("E", "C", 100),
    ]
    # The greedy way pays 500 from B to A, then D and E to C, too; a harder case:
    owed = [("A", 600), ("B", 400), ("C", -300), ("D", -300), ("E", -400)]
    greedy = greedy_transfers(owed)
    transfers, _ = fewest_transfers(owed)
    assert len(transfers) == 3 < len(greedy) == 4  # E pays B; C and D pay A
    assert Transfer("E", "B", 400) in transfers


def test_zero_sum_groups_split_as_finely_as_possible() -> None:
    groups = zero_sum_groups([("A", 1), ("B", -1), ("C", 2), ("D", -2), ("E", 0)])
    assert sorted(sorted(n for n, _ in g) for g in groups) == [["A", "B"], ["C", "D"]]


def test_alles_in_die_kasse() -> None:
    result = settle([Score("A", 8), Score("B", -3), Score("C", -5)], Rate(50), Mode.CASHBOX)
    assert result.transfers == (Transfer("B", None, 150), Transfer("C", None, 250))
    assert result.to_cashbox == 400


def test_nothing_to_settle() -> None:
    result = settle([Score("A", 0), Score("B", 0)], Rate(10))
    assert result.transfers == () and all(b.cents == 0 for b in result.balances)


@pytest.mark.parametrize(
    ("scores", "rate", "code"),
    [
        ([], Rate(10), "no_players"),
        ([Score("A", 1), Score("a", -1)], Rate(10), "name_twice"),
        ([Score(" ", 1)], Rate(10), "name_missing"),
        ([Score("A", 10**6)], Rate(10), "points_out_of_range"),
        ([Score("A", 1, -1)], Rate(10), "extras_out_of_range"),
        ([Score("A", 1)], Rate(-1), "rate_out_of_range"),
    ],
)
def test_refusals(scores: list[Score], rate: Rate, code: str) -> None:
    with pytest.raises(SettlementError) as refused:
        settle(scores, rate)
    assert refused.value.code == code


def test_transfers_need_a_zero_sum() -> None:
    with pytest.raises(SettlementError) as refused:
        fewest_transfers([("A", 1)])
    assert refused.value.code == "not_zero_sum"


def test_a_pasted_list() -> None:
    text = "Anna Müller 12 2\n\nBernd;-4\nClaudia\t−8\t1\n  Dieter   0  "
    assert parse_scores(text) == [
        Score("Anna Müller", 12, 2),
        Score("Bernd", -4),
        Score("Claudia", -8, 1),
        Score("Dieter", 0),
    ]
    for wrong, line in (("Anna", 1), ("A 1\nB x", 2), ("A;1;2;3", 1), ("A;1,5", 1)):
        with pytest.raises(SettlementError) as refused:
            parse_scores(wrong)
        assert refused.value.code == "line_unreadable" and refused.value.line == line


# --- Properties ----------------------------------------------------------------------------

NAMES = [f"P{i:02d}" for i in range(40)]


@st.composite
def groups(draw: st.DrawFn, most: int = 10) -> list[Score]:
    size = draw(st.integers(1, most))
    return [
        Score(NAMES[i], draw(st.integers(-300, 300)), draw(st.integers(0, 20))) for i in range(size)
    ]


rates = st.builds(Rate, st.integers(0, 100), st.integers(0, 50))


@given(groups(), rates)
def test_a_settlement_sums_to_zero_and_settles_everyone(scores: list[Score], rate: Rate) -> None:
    result = settle(scores, rate)
    assert sum(b.cents for b in result.balances) == 0
    owed = [(b.name, b.cents) for b in result.balances]
    assert len(result.transfers) <= max(len(scores) - 1, 0)
    assert all(t.cents > 0 and t.payer != t.payee for t in result.transfers)
    assert set(_applied(owed, list(result.transfers)).values()) <= {0}
    assert result.exact


@st.composite
def owed(draw: st.DrawFn, most: int = 9) -> list[tuple[str, int]]:
    """Balances that sum to zero, often with zero-sum subgroups (small values)."""
    values = draw(st.lists(st.integers(-6, 6), min_size=1, max_size=most - 1))
    values.append(-sum(values))
    return list(zip(NAMES, values, strict=False))


@given(owed())
def test_exact_is_never_worse_than_greedy_and_the_fewest(owing: list[tuple[str, int]]) -> None:
    exact, is_exact = fewest_transfers(owing)
    greedy = greedy_transfers(owing)
    assert is_exact and len(exact) <= len(greedy)
    for transfers in (exact, greedy):
        assert all(t.cents > 0 for t in transfers)
        assert set(_applied(owing, transfers).values()) <= {0}
    # The minimum: n players with a balance, k disjoint zero-sum groups at most.
    people = [(n, c) for n, c in owing if c]
    assert len(exact) == len(people) - _most_zero_sum_groups([c for _, c in people])


def _most_zero_sum_groups(values: list[int]) -> int:
    """By brute force: the most disjoint zero-sum groups ``values`` split into."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in chosen) == 0:
                others = [v for i, v in enumerate(rest) if i not in chosen]
                best = max(best, 1 + _most_zero_sum_groups(others))
    return best


@settings(max_examples=30)
@given(st.lists(st.integers(-10_000, 10_000), min_size=EXACT_UP_TO + 1, max_size=39))
def test_above_the_exact_limit_the_greedy_bound_holds(values: list[int]) -> None:
    values.append(-sum(values))
    owing = list(zip(NAMES, values, strict=False))
    transfers, exact = fewest_transfers(owing)
    people = sum(1 for v in values if v)
    assert len(transfers) <= max(people - 1, 0)
    assert exact == (people <= EXACT_UP_TO)
    assert set(_applied(owing, transfers).values()) <= {0}


@given(groups(most=12), rates)
def test_the_cash_box_takes_every_loss(scores: list[Score], rate: Rate) -> None:
    result = settle(scores, rate, Mode.CASHBOX)
    losses = -sum(b.cents for b in result.balances if b.cents < 0)
    assert result.to_cashbox == losses
    assert all(t.payee is None and t.cents > 0 for t in result.transfers)
    assert len(result.transfers) <= max(len(scores) - 1, 0)


@given(groups(), rates)
def test_the_settlement_is_deterministic(scores: list[Score], rate: Rate) -> None:
    assert settle(scores, rate) == settle(list(scores), Rate(*vars(rate).values()))
