"""Encounter counting on player ids: who already sat with whom."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .data import History

Pair = tuple[int, int]


def table_pairs(table: Sequence[int]) -> list[Pair]:
    """All pairs at one table, each as (smaller id, larger id)."""
    members = sorted(table)
    return [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]


def pair_counts(history: History) -> Counter[Pair]:
    """How often each pair sat at one table in ``history``."""
    counts: Counter[Pair] = Counter()
    for series in history:
        for table in series:
            counts.update(table_pairs(table))
    return counts


def count_repeats(tables: Sequence[Sequence[int]], history: History) -> int:
    """Pairs at one table in ``tables`` who already sat together somewhere in ``history``."""
    counts = pair_counts(history)
    return sum(1 for table in tables for pair in table_pairs(table) if counts[pair])


def plan_repeats(series: History) -> int:
    """Repeats of a whole plan: for every series, the pairs who already met in an earlier one.

    A pair that sits together in three series counts twice.
    """
    counts: Counter[Pair] = Counter()
    repeats = 0
    for tables in series:
        pairs = [pair for table in tables for pair in table_pairs(table)]
        repeats += sum(1 for pair in pairs if counts[pair])
        counts.update(pairs)
    return repeats


def repeat_lower_bound(n_players: int, sizes_per_series: Sequence[Sequence[int]]) -> int:
    """A simple lower bound on ``plan_repeats``: pair meetings beyond the N(N-1)/2 pairs."""
    meetings = sum(s * (s - 1) // 2 for sizes in sizes_per_series for s in sizes)
    return max(0, meetings - n_players * (n_players - 1) // 2)


def five_table_counts(history: History) -> Counter[int]:
    """How many five-player tables each player had in ``history``."""
    counts: Counter[int] = Counter()
    for series in history:
        for table in series:
            if len(table) == 5:
                counts.update(table)
    return counts


def seat_counts(history: History) -> dict[int, Counter[int]]:
    """For each player, how often they sat at each seat position (1-based)."""
    counts: dict[int, Counter[int]] = {}
    for series in history:
        for table in series:
            for position, player in enumerate(table, start=1):
                counts.setdefault(player, Counter())[position] += 1
    return counts
