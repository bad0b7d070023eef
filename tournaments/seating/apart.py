"""Keep-apart pairs: players who must never share a table (a couple, a parent and child).

A hard constraint on top of every draw: after the draw has chosen its tables, players are
swapped between tables until no pair shares one, choosing among the swaps that lower the
number of pairs at one table the one that costs least (repeats, or for the standings draw the
distance in the standings). Where no seating is found, everybody is still seated and each pair
left at one table is reported with a stable reason code (no words here).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from .data import SeatingError, Unhonoured
from .pairs import Pair

#: Reason codes of a pair that could not be kept apart.
#: One of the two is in more pairs than there are other tables to put his partners at.
NOT_ENOUGH_TABLES = "not_enough_tables"
#: The search found no seating that keeps the pair apart (within its step budget).
NO_SEATING_FOUND = "no_seating_found"
#: A latecomer could only be seated at his partner's table without moving seated players.
LATECOMER_NO_OTHER_TABLE = "latecomer_no_other_table"
#: Both already sat at one table of the drawn series, which seating latecomers does not change.
ALREADY_SEATED_TOGETHER = "already_seated_together"
#: A team draw can only exchange players of one team between tables, and no exchange helped.
TEAM_LINE_UP = "team_line_up"

#: Swaps that lower nothing are allowed this many times before giving up (deterministic).
SIDEWAYS_STEPS = 200


def normalize_pairs(pairs: Iterable[Sequence[int]], present: Iterable[int] = ()) -> list[Pair]:
    """Each pair once as (smaller, larger), sorted; pairs with an absent player dropped when
    ``present`` is given. A player paired with himself raises ``SeatingError``."""
    keep = set(present)
    result: set[Pair] = set()
    for raw in pairs:
        a, b = raw
        if a == b:
            raise SeatingError("pair_with_self", f"Player {a} is paired with himself.", player=a)
        if keep and (a not in keep or b not in keep):
            continue
        result.add((min(a, b), max(a, b)))
    return sorted(result)


def partners(pairs: Iterable[Pair]) -> dict[int, set[int]]:
    result: dict[int, set[int]] = {}
    for a, b in pairs:
        result.setdefault(a, set()).add(b)
        result.setdefault(b, set()).add(a)
    return result


def together(tables: Sequence[Sequence[int]], pairs: Iterable[Pair]) -> list[Pair]:
    """The pairs of ``pairs`` that share a table in ``tables``, sorted."""
    where = {p: t for t, table in enumerate(tables) for p in table}
    return sorted((a, b) for a, b in pairs if a in where and b in where and where[a] == where[b])


def reasons(
    tables: Sequence[Sequence[int]], pairs: Sequence[Pair], series: int
) -> list[Unhonoured]:
    """Why each pair still at one table in ``tables`` is there (for a draw's report)."""
    linked = partners(pairs)
    n_tables = len(tables)
    result = []
    for a, b in together(tables, pairs):
        crowded = len(linked[a]) >= n_tables or len(linked[b]) >= n_tables
        reason = NOT_ENOUGH_TABLES if crowded else NO_SEATING_FOUND
        result.append(Unhonoured(series=series, pair=(a, b), reason=reason))
    return result


def separate(
    tables: Sequence[Sequence[int]],
    pairs: Sequence[Pair],
    rng: random.Random,
    *,
    met: Callable[[int, int], int],
    may_swap: Callable[[int, int], bool],
    bias: Callable[[int, int], int] | None = None,
) -> list[list[int]]:
    """Swap players between tables until no pair of ``pairs`` shares a table.

    ``met(p, q)`` is the price of seating p and q at one table (their earlier meetings); a
    swap costs the change of that sum, then ``bias(x, y)`` (e.g. the distance in the
    standings); ``may_swap(x, y)`` says whether the swap is allowed at all. Every step takes
    a swap that lowers the number of pairs at one table, the cheapest one (ties from
    ``rng``); when none does, a cheapest swap that keeps it (not undoing the last one), at
    most ``SIDEWAYS_STEPS`` times. Returns new tables (same sizes).
    """
    result = [list(table) for table in tables]
    if not pairs:
        return result
    linked = partners(pairs)
    where = {p: t for t, table in enumerate(result) for p in table}

    def clashes(x: int, t: int, without: int) -> int:
        mine = linked.get(x)
        if not mine:
            return 0
        return sum(1 for y in result[t] if y != without and y != x and y in mine)

    def load(x: int, t: int, without: int) -> int:
        return sum(met(x, z) for z in result[t] if z != without and z != x)

    sideways = 0
    last: tuple[int, int] | None = None
    while True:
        bad = together(result, pairs)
        if not bad:
            break
        best_key: tuple[int, int, int] | None = None
        choices: list[tuple[int, int]] = []
        movers = sorted({x for pair in bad for x in pair})
        for x in movers:
            a = where[x]
            for b, table in enumerate(result):
                if b == a:
                    continue
                for y in table:
                    if not may_swap(x, y) or (y, x) == last or (x, y) == last:
                        continue
                    change = (
                        clashes(x, b, y) + clashes(y, a, x) - clashes(x, a, x) - clashes(y, b, y)
                    )
                    if change > 0:
                        continue
                    repeats = load(x, b, y) + load(y, a, x) - load(x, a, x) - load(y, b, y)
                    key = (change, repeats, bias(x, y) if bias else 0)
                    if best_key is None or key < best_key:
                        best_key, choices = key, [(x, y)]
                    elif key == best_key:
                        choices.append((x, y))
        if best_key is None:
            break
        if best_key[0] == 0:
            sideways += 1
            if sideways > SIDEWAYS_STEPS:
                break
        x, y = choices[0] if len(choices) == 1 else rng.choice(choices)
        a, b = where[x], where[y]
        result[a][result[a].index(x)] = y
        result[b][result[b].index(y)] = x
        where[x], where[y] = b, a
        last = (x, y)
    return result


def relabel(plan: Sequence[Sequence[Sequence[int]]], pairs: Sequence[Pair]) -> list[int]:
    """Exchange whole schedules of players (which changes neither repeats nor anyone's
    five-player tables) so that keep-apart pairs share a table in as few series as possible.

    Players are 0..n-1 of a complete ``plan``; returns ``label`` with ``label[p]`` the player
    who takes p's schedule. Greedy: the exchange that lowers the count most, lowest indices
    first, until none does.
    """
    n = sum(len(table) for table in plan[0]) if plan else 0
    label = list(range(n))
    if not pairs or not plan:
        return label
    # seat_of[x][s]: the table of schedule x in series s; slot[p]: the schedule p holds.
    seat_of = [[0] * len(plan) for _ in range(n)]
    for s, tables in enumerate(plan):
        for t, table in enumerate(tables):
            for p in table:
                seat_of[p][s] = t
    slot = list(range(n))
    linked = partners(pairs)

    def clashes(p: int, x: int, skip: int = -1) -> int:
        mine = seat_of[x]
        total = 0
        for q in linked.get(p, ()):
            if q == skip:
                continue
            theirs = seat_of[slot[q]]
            total += sum(1 for a, b in zip(mine, theirs, strict=True) if a == b)
        return total

    for _ in range(4 * len(pairs) + 8):
        best: tuple[int, int, int] | None = None
        movers = sorted({p for pair in pairs for p in pair if clashes(p, slot[p])})
        if not movers:
            break
        for p in movers:
            for q in range(n):
                if q == p:
                    continue
                x, y = slot[p], slot[q]
                before = clashes(p, x) + clashes(q, y, skip=p)
                slot[p], slot[q] = y, x
                after = clashes(p, y) + clashes(q, x, skip=p)
                slot[p], slot[q] = x, y
                change = after - before
                if change < 0 and (best is None or change < best[0]):
                    best = (change, p, q)
        if best is None:
            break
        _, p, q = best
        slot[p], slot[q] = slot[q], slot[p]
    # Player p now sits where schedule slot[p] sat: the old holder of that schedule.
    for p in range(n):
        label[slot[p]] = p
    return label
