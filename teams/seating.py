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
