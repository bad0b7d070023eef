"""Team-aware seating for one group's match day: one player of each team at every table.
Pure, no Django.

A group of g teams (g = 4, or 5 for a group of five) with g players each plays on g tables
of g. Team-mates never sit together, and over the day's series no two players meet twice
as long as there are at most g series: player m of team x is the point (x, m) of the affine
plane over GF(g) (the seating core's ``GaloisField``), and table b of series a is the line
m = a·x + b. Such a line holds one point of every x, so one player of each team; two points
of different teams lie on one line only, so they meet in one series only. (The lines
x = const would seat the teams together: they are the one parallel class left out.)

A player meets (g - 1) others per series and there are g(g - 1) players of other teams, so
after g series every pair has met: a further series repeats every pair at its tables. The
series after the g-th start the classes again. Seat order comes from the seating core
(``order_seats``: nobody keeps seat 1 or the list's seat every time).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.seating import SeatingError, count_repeats, pair_counts, table_sizes
from tournaments.seating.construct import GaloisField
from tournaments.seating.pairs import plan_repeats
from tournaments.seating.seats import SeatStats, order_seats, record_seats

#: Group sizes the construction covers: tables of four and of five.
SIZES = (4, 5)


class TeamSeatingError(ValueError):
    """A seating that cannot be made. ``code`` is stable; the words belong to the edge."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


@dataclass(frozen=True)
class TeamSeating:
    """``series[s][t]`` are the player ids at table t of series s + 1, in seat order (seat 1
    deals first). ``repeats`` counts every meeting of a pair after its first."""

    series: tuple[tuple[tuple[int, ...], ...], ...]
    repeats: int
    seed: int


def seat_teams(teams: Sequence[Sequence[int]], series: int, seed: int = 0) -> TeamSeating:
    """Tables for ``series`` series of a group: ``teams[x]`` are the player ids of team x
    (its line-up: as many players as there are teams, 4 or 5).

    No repeats for up to that many series; the same arguments give the same seating.
    """
    g = len(teams)
    if g not in SIZES or any(len(team) != g for team in teams):
        raise TeamSeatingError("teams_not_square", teams=g, players=[len(team) for team in teams])
    if series < 1:
        raise TeamSeatingError("invalid_series_count", series=series)
    ids = [player for team in teams for player in team]
    if len(set(ids)) != len(ids):
        raise TeamSeatingError("duplicate_player")
    field = GaloisField(g)
    add, mul = field.add_table, field.mul_table
    rng = random.Random(seed)
    stats: SeatStats = {}
    plan: list[tuple[tuple[int, ...], ...]] = []
    for s in range(series):
        slope = s % g
        tables = [[teams[x][add[mul[slope][x]][b]] for x in range(g)] for b in range(g)]
        seated = order_seats(tables, stats, rng)
        record_seats(stats, seated)
        plan.append(tuple(tuple(table) for table in seated))
    return TeamSeating(series=tuple(plan), repeats=plan_repeats(plan), seed=seed)


@dataclass(frozen=True)
class UnevenSeating:
    """One series' tables in seat order when the line-ups are not square (a player missing:
    tables of five). ``together`` counts pairs of team-mates at one table, ``repeats`` the
    pairs who already met in ``history``."""

    tables: tuple[tuple[int, ...], ...]
    together: int
    repeats: int
    seed: int


#: A pair of team-mates at one table weighs more than any number of repeated meetings.
_TOGETHER = 1000
_STEPS = 4000


def seat_uneven(
    teams: Sequence[Sequence[int]],
    history: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
) -> UnevenSeating:
    """Tables of four and five (``table_sizes`` of the seating core) for the players of
    ``teams``: team-mates apart as far as the sizes allow, then as few meetings of pairs who
    met in ``history`` (earlier series, tables of player ids) as a seeded search finds. The
    same arguments give the same seating.

    Used when ``seat_teams`` does not apply: a team of the group names fewer players, so the
    players do not fill one table per team; some table then seats two team-mates if there
    is no other way (15 players of four teams at three tables of five, say).
    """
    ids = [player for team in teams for player in team]
    if len(set(ids)) != len(ids):
        raise TeamSeatingError("duplicate_player")
    try:
        sizes = table_sizes(len(ids))
    except SeatingError as error:
        raise TeamSeatingError("no_table_split", players=len(ids), **error.params) from None
    team_of = {player: x for x, team in enumerate(teams) for player in team}
    met = pair_counts(history)
    rng = random.Random(seed)
    # Start: deal the players of the biggest teams first, one per table in turn.
    order = sorted(range(len(teams)), key=lambda x: (-len(teams[x]), x))
    dealt = [player for x in order for player in teams[x]]
    tables: list[list[int]] = [[] for _size in sizes]
    slot = 0
    for player in dealt:
        while len(tables[slot % len(sizes)]) >= sizes[slot % len(sizes)]:
            slot += 1
        tables[slot % len(sizes)].append(player)
        slot += 1

    def cost(table: Sequence[int]) -> int:
        total = 0
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if team_of[a] == team_of[b]:
                    total += _TOGETHER
                if met[(a, b) if a < b else (b, a)]:
                    total += 1
        return total

    costs = [cost(table) for table in tables]
    for _step in range(_STEPS):
        if sum(costs) == 0 or len(tables) < 2:
            break
        t, u = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[t])), rng.randrange(len(tables[u]))
        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
        new_t, new_u = cost(tables[t]), cost(tables[u])
        if new_t + new_u <= costs[t] + costs[u]:
            costs[t], costs[u] = new_t, new_u
        else:
            tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    stats: SeatStats = {}
    for earlier in history:
        record_seats(stats, earlier)
    seated = order_seats(tables, stats, rng)
    together = sum(c // _TOGETHER for c in costs)
    return UnevenSeating(
        tables=tuple(tuple(table) for table in seated),
        together=together,
        repeats=count_repeats(seated, history),
        seed=seed,
    )
