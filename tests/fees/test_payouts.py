"""The pure payout core: hand-computed examples to the cent, and its invariants."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fees.payouts import (
    WHOLE,
    Finisher,
    PlacePrize,
    SpecialPrize,
    best,
    payouts,
    resolve_shares,
    split_evenly,
)


def finishers(*places: int) -> list[Finisher]:
    """Player keys 1, 2, … with start numbers 1, 2, … at ``places``."""
    return [Finisher(key=i, place=p, start_number=i) for i, p in enumerate(places, start=1)]


def test_three_players_sharing_places_two_to_four_pool_and_split_to_the_cent() -> None:
    # Place 1: 100.00; places 2-4: 60.00 + 40.00 + 20.01 = 120.01 for three players;
    # 12001 / 3 = 4000 rest 1: the lowest start number of the three gets the cent.
    prizes = [
        PlacePrize(1, cents=10000),
        PlacePrize(2, cents=6000),
        PlacePrize(3, cents=4000),
        PlacePrize(4, cents=2001),
    ]
    result = payouts(finishers(1, 2, 2, 2, 5), prizes)
    paid = {line.key: line.cents for line in result.lines}
    assert paid == {1: 10000, 2: 4001, 3: 4000, 4: 4000, 5: 0}
    assert [line.shared_with for line in result.lines] == [1, 3, 3, 3, 1]
    assert result.total == 10000 + 6000 + 4000 + 2001 == 22001
    assert result.unpaid_cents == 0


def test_the_leftover_cents_go_by_start_number_not_by_key() -> None:
    group = [
        Finisher(key=7, place=2, start_number=30),
        Finisher(key=8, place=2, start_number=4),
        Finisher(key=9, place=2, start_number=12),
        Finisher(key=1, place=1, start_number=50),
    ]
    prizes = [PlacePrize(1, cents=500), PlacePrize(2, cents=50), PlacePrize(3, cents=30),
              PlacePrize(4, cents=22)]  # fmt: skip
    paid = {line.key: line.cents for line in payouts(group, prizes).lines}
    # 102 / 3 = 34 each, nothing left; 101 would give the start number 4 the cent.
    assert paid == {1: 500, 7: 34, 8: 34, 9: 34}
    prizes[-1] = PlacePrize(4, cents=21)
    paid = {line.key: line.cents for line in payouts(group, prizes).lines}
    assert paid == {1: 500, 8: 34, 9: 34, 7: 33}
    prizes[-1] = PlacePrize(4, cents=20)
    paid = {line.key: line.cents for line in payouts(group, prizes).lines}
    assert paid == {1: 500, 8: 34, 9: 33, 7: 33}


def test_shares_of_the_pot_round_by_largest_remainder() -> None:
    # 10.01 € in thirds: 333.6333…, 333.6333…, 333.7334 → 333 each and 2 cents missing; the
    # largest remainder (the third share) first, then the better of two equal ones.
    assert resolve_shares(1001, [3333, 3333, 3334]) == [334, 333, 334]
    assert sum(resolve_shares(1001, [3333, 3333, 3334])) == 1001
    # 46 players x 10 € = 460 €: 50 / 30 / 20 % exactly.
    assert resolve_shares(46000, [5000, 3000, 2000]) == [23000, 13800, 9200]
    # Shares below 100 %: the total is rounded down, never more than the pot's share.
    assert resolve_shares(999, [2500, 2500]) == [250, 249]


def test_a_place_nobody_occupies_is_not_paid() -> None:
    prizes = [PlacePrize(1, cents=3000), PlacePrize(2, cents=2000), PlacePrize(3, cents=1000)]
    result = payouts(finishers(1, 1), prizes)
    assert [line.cents for line in result.lines] == [2500, 2500]
    assert result.unpaid_cents == 1000
    assert result.total == 5000


def test_shares_and_amounts_mixed_with_a_special_prize() -> None:
    # Pot 200.00: place 1 half of it, place 2 a quarter, place 3 a fixed 15.00; the best
    # solo player (two share it) 10 % of the pot.
    prizes = [PlacePrize(1, share=5000), PlacePrize(2, share=2500), PlacePrize(3, cents=1500)]
    specials = [SpecialPrize("solos_won", "Bester Solospieler", share=1000, winners=(3, 4))]
    result = payouts(finishers(1, 2, 3, 4), prizes, pot=20000, specials=specials)
    paid = {line.key: line.cents for line in result.lines}
    assert paid == {1: 10000, 2: 5000, 3: 1500 + 1000, 4: 1000}
    assert result.place_amounts == {1: 10000, 2: 5000, 3: 1500}
    assert result.special_amounts == {"solos_won": 2000}
    assert result.total == 10000 + 5000 + 1500 + 2000


def test_a_special_prize_without_winner_is_not_paid() -> None:
    specials = [SpecialPrize("solos_won", "Solo", cents=999, winners=())]
    result = payouts(finishers(1, 2), [PlacePrize(1, cents=100)], specials=specials)
    assert result.total == 100 and result.unpaid_cents == 999


def test_best_names_the_highest_above_zero() -> None:
    assert best({1: 3, 2: 5, 3: 5}) == (2, 3)
    assert best({1: 0, 2: 0}) == ()
    assert best({}) == ()


def test_nonsense_is_refused() -> None:
    with pytest.raises(ValueError):
        payouts(finishers(1), [PlacePrize(1, cents=1), PlacePrize(1, cents=2)])
    with pytest.raises(ValueError):
        payouts(finishers(1), [PlacePrize(0, cents=1)])
    with pytest.raises(ValueError):
        resolve_shares(-1, [100])


# --- Invariants ------------------------------------------------------------------------------


@st.composite
def standings(draw: st.DrawFn) -> list[Finisher]:
    """Groups of equal players with the places the standings give them (1, 2, 2, 4, …)
    and start numbers in any order."""
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=12))
    numbers = draw(st.permutations(range(1, sum(sizes) + 1)))
    result, place, key = [], 1, 0
    for size in sizes:
        for _ in range(size):
            result.append(Finisher(key=key, place=place, start_number=numbers[key]))
            key += 1
        place += size
    return result


falling = st.lists(st.integers(0, 100_000), max_size=20).map(lambda xs: sorted(xs, reverse=True))


@given(standings(), falling)
def test_sum_paid_is_the_prizes_of_the_places_occupied(
    players: list[Finisher], amounts: list[int]
) -> None:
    prizes = [PlacePrize(place, cents=c) for place, c in enumerate(amounts, start=1)]
    result = payouts(players, prizes)
    occupied = [c for place, c in enumerate(amounts, start=1) if place <= len(players)]
    assert result.total == sum(occupied)
    assert result.total + result.unpaid_cents == sum(amounts)


@given(standings(), falling)
def test_a_group_differs_by_a_cent_at_most_and_better_places_get_no_less(
    players: list[Finisher], amounts: list[int]
) -> None:
    prizes = [PlacePrize(place, cents=c) for place, c in enumerate(amounts, start=1)]
    lines = payouts(players, prizes).lines
    by_place: dict[int, list[int]] = {}
    for line in lines:
        by_place.setdefault(line.place, []).append(line.cents)
    for group in by_place.values():
        assert max(group) - min(group) <= 1
    # Monotone: everybody of a better place gets at least what anybody of a worse one gets.
    ordered = [by_place[p] for p in sorted(by_place)]
    for better, worse in pairwise(ordered):
        assert min(better) >= max(worse)
    # Within a group the leftover cents went to the lower start numbers.
    start = {f.key: f.start_number for f in players}
    for line_a, line_b in pairwise(lines):
        if line_a.place == line_b.place:
            assert start[line_a.key] < start[line_b.key] and line_a.cents >= line_b.cents


@given(
    st.integers(0, 10_000_000),
    st.lists(st.integers(0, WHOLE), max_size=10).filter(lambda s: sum(s) <= WHOLE),
)
def test_shares_pay_the_pots_share_rounded_down_each_within_a_cent(
    pot: int, shares: list[int]
) -> None:
    amounts = resolve_shares(pot, shares)
    assert sum(amounts) == pot * sum(shares) // WHOLE
    for share, amount in zip(shares, amounts, strict=True):
        assert abs(amount * WHOLE - pot * share) < WHOLE
    if sum(shares) == WHOLE:
        assert sum(amounts) == pot


@given(st.integers(0, 10**9), st.lists(st.integers(), min_size=1, max_size=30, unique=True))
def test_split_evenly_loses_nothing(pool: int, keys: list[int]) -> None:
    parts = split_evenly(pool, keys)
    assert sum(parts.values()) == pool
    assert max(parts.values()) - min(parts.values()) <= 1
    assert [parts[k] for k in keys] == sorted(parts.values(), reverse=True)
