"""Seat positions: seat 1 deals first, the last seat keeps the list.

Every table's seat order is the permutation that repeats the fewest earlier positions of its
players (seat 1 and the last seat count double), ties broken by the seeded generator. At a
table of four, a permutation giving nobody their previous seat always exists, so after two
series nobody can have sat at the same position every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

#: Per player: ``stats[p][i]`` for i in 1..5 counts seat i; ``stats[p][LAST]`` the last seat.
SeatStats = dict[int, list[int]]
LAST = 6

_PERMUTATIONS = {size: list(permutations(range(size))) for size in (4, 5)}


def new_stats() -> list[int]:
    return [0] * (LAST + 1)


def record_seats(stats: SeatStats, tables: Sequence[Sequence[int]]) -> None:
    """Add one series (tables in seat order) to ``stats``."""
    for table in tables:
        for position, player in enumerate(table, start=1):
            row = stats.setdefault(player, new_stats())
            row[position] += 1
            if position == len(table):
                row[LAST] += 1


def seat_cost(row: Sequence[int], position: int, size: int) -> int:
    cost = row[position]
    if position == 1:
        cost += row[1]
    if position == size:
        cost += row[LAST]
    return cost


def order_seats(
    tables: Sequence[Sequence[int]], stats: SeatStats, rng: random.Random
) -> list[list[int]]:
    """Put every table in seat order, balancing positions against ``stats``."""
    empty = new_stats()
    ordered: list[list[int]] = []
    for table in tables:
        members = sorted(table)
        size = len(members)
        rows = [stats.get(p, empty) for p in members]
        # costs[i][pos]: member i at seat pos + 1.
        costs = [[seat_cost(row, pos + 1, size) for pos in range(size)] for row in rows]
        best_value = -1
        best: list[tuple[int, ...]] = []
        for perm in _PERMUTATIONS.get(size, [tuple(range(size))]):
            # perm[i] is the seat index of member i.
            value = sum(costs[i][perm[i]] for i in range(size))
            if best_value < 0 or value < best_value:
                best_value = value
                best = [perm]
            elif value == best_value:
                best.append(perm)
        perm = best[0] if len(best) == 1 else rng.choice(best)
        seated = [0] * size
        for i, seat in enumerate(perm):
            seated[seat] = members[i]
        ordered.append(seated)
    return ordered
