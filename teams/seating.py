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

A player's point is his identity's, not his place in a line-up: ``points_by_identity`` gives
every player of a team the index m he held in the day's earlier series, whatever order a
line-up names him in, so the same four named in another order meet nobody twice.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.seating import (
    NO_SEATING_FOUND,
    TEAM_LINE_UP,
    SeatingError,
    Unhonoured,
    count_repeats,
    pair_counts,
    table_sizes,
)
from tournaments.seating.apart import normalize_pairs, separate, together
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
    deals first). ``repeats`` counts every meeting of a pair after its first.
    ``unhonoured``: keep-apart pairs seated together anyway (code ``team_line_up``)."""

    series: tuple[tuple[tuple[int, ...], ...], ...]
    repeats: int
    seed: int
    unhonoured: tuple[Unhonoured, ...] = ()


def seat_teams(
    teams: Sequence[Sequence[int]],
    series: int,
    seed: int = 0,
    keep_apart: Sequence[Sequence[int]] = (),
) -> TeamSeating:
    """Tables for ``series`` series of a group: ``teams[x]`` are the player ids of team x
    (its line-up: as many players as there are teams, 4 or 5).

    No repeats for up to that many series; the same arguments give the same seating.
    ``keep_apart`` pairs (of different teams; team-mates never share a table) are separated
    series by series by exchanging two players of one team between tables (so every table
    keeps one player of each team), at the least cost in repeats; a series' seating depends
    only on the series before it, so drawing series by series gives the same tables.
    """
    g = len(teams)
    if g not in SIZES or any(len(team) != g for team in teams):
        raise TeamSeatingError("teams_not_square", teams=g, players=[len(team) for team in teams])
    if series < 1:
        raise TeamSeatingError("invalid_series_count", series=series)
    ids = [player for team in teams for player in team]
    if len(set(ids)) != len(ids):
        raise TeamSeatingError("duplicate_player")
    apart = normalize_pairs(keep_apart, present=ids)
    team_of = {player: x for x, team in enumerate(teams) for player in team}
    field = GaloisField(g)
    add, mul = field.add_table, field.mul_table
    rng = random.Random(seed)
    stats: SeatStats = {}
    plan: list[tuple[tuple[int, ...], ...]] = []
    unhonoured: list[Unhonoured] = []
    for s in range(series):
        slope = s % g
        tables = [[teams[x][add[mul[slope][x]][b]] for x in range(g)] for b in range(g)]
        if apart and together(tables, apart):
            tables = separate(
                tables,
                apart,
                random.Random(f"{seed}/{s + 1}/apart"),
                met=functools.partial(_met, pair_counts(plan)),
                may_swap=lambda x, y: team_of[x] == team_of[y],
            )
            unhonoured += [
                Unhonoured(series=s + 1, pair=pair, reason=TEAM_LINE_UP)
                for pair in together(tables, apart)
            ]
        seated = order_seats(tables, stats, rng)
        record_seats(stats, seated)
        plan.append(tuple(tuple(table) for table in seated))
    return TeamSeating(
        series=tuple(plan), repeats=plan_repeats(plan), seed=seed, unhonoured=tuple(unhonoured)
    )


def _met(counts: Counter[tuple[int, int]], p: int, q: int) -> int:
    return counts[(p, q) if p < q else (q, p)]


def points_by_identity(line_ups: Sequence[Sequence[int]], size: int) -> tuple[int, ...]:
    """One team's players of the last line-up of ``line_ups`` (the team's line-ups of the
    day's series 1, 2, …, in order; an empty one where it named nobody), ordered by their
    point m = 0, 1, … of the affine plane: a player keeps the point he first got, in
    whatever order a later line-up names him. A player new to the day (a substitute), or
    one whose point a substitute still holds, takes the smallest point free in that series.
    Players beyond ``size`` points follow in their given order."""
    point_of: dict[int, int] = {}  # player -> his point
    since: dict[int, int] = {}  # player -> the series he got it in
    seated: dict[int, int] = {}  # the last line-up's players -> their points
    current: Sequence[int] = ()
    for number, line_up in enumerate(line_ups):
        current = line_up
        seated = {}
        taken: set[int] = set()
        # Players who hold a point keep it; the earlier holder wins a point held twice.
        holders = sorted((p for p in line_up if p in point_of), key=lambda p: (since[p], p))
        for player in holders:
            if point_of[player] not in taken:
                seated[player] = point_of[player]
                taken.add(point_of[player])
        free = iter([m for m in range(size) if m not in taken])
        for player in line_up:
            if player not in seated:
                point = next(free, None)
                if point is not None:
                    seated[player] = point
                    point_of[player], since[player] = point, number
    ordered = sorted(seated, key=lambda p: seated[p])
    return (*ordered, *(p for p in current if p not in seated))


@dataclass(frozen=True)
class UnevenSeating:
    """One series' tables in seat order when the line-ups are not square (a player missing:
    tables of five). ``together`` counts pairs of team-mates at one table, ``repeats`` the
    pairs who already met in ``history``."""

    tables: tuple[tuple[int, ...], ...]
    together: int
    repeats: int
    seed: int
    unhonoured: tuple[Unhonoured, ...] = ()


#: A pair of team-mates at one table weighs more than any number of repeated meetings.
_TOGETHER = 1000
_STEPS = 4000


def seat_uneven(
    teams: Sequence[Sequence[int]],
    history: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
    keep_apart: Sequence[Sequence[int]] = (),
    series: int = 0,
) -> UnevenSeating:
    """Tables of four and five (``table_sizes`` of the seating core) for the players of
    ``teams``: team-mates apart as far as the sizes allow, then as few meetings of pairs who
    met in ``history`` (earlier series, tables of player ids) as a seeded search finds. The
    same arguments give the same seating.

    Used when ``seat_teams`` does not apply: a team of the group names fewer players, so the
    players do not fill one table per team; some table then seats two team-mates if there
    is no other way (15 players of four teams at three tables of five, say).
    ``keep_apart`` pairs weigh like team-mates; those left together are reported for
    ``series`` in ``unhonoured``.
    """
    ids = [player for team in teams for player in team]
    if len(set(ids)) != len(ids):
        raise TeamSeatingError("duplicate_player")
    try:
        sizes = table_sizes(len(ids))
    except SeatingError as error:
        raise TeamSeatingError("no_table_split", players=len(ids), **error.params) from None
    team_of = {player: x for x, team in enumerate(teams) for player in team}
    apart = set(normalize_pairs(keep_apart, present=ids))
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
                if team_of[a] == team_of[b] or ((a, b) if a < b else (b, a)) in apart:
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
    left = together(seated, sorted(apart))
    mates = sum(c // _TOGETHER for c in costs) - len(left)
    return UnevenSeating(
        tables=tuple(tuple(table) for table in seated),
        together=mates,
        repeats=count_repeats(seated, history),
        seed=seed,
        unhonoured=tuple(
            Unhonoured(series=series, pair=pair, reason=NO_SEATING_FOUND) for pair in left
        ),
    )
