"""Ranking players by named metrics: pure, no Django.

A tournament picks the order of tie-break metrics after total points (design decision 2:
total points, then the better best single-series score, then the better last-series score;
players still equal share the place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from operator import attrgetter, neg, or_
from typing import NamedTuple, cast


@dataclass(slots=True)
class StandingRow:
    """One player's figures. ``series_points`` has one entry per series of the tournament
    up to the last one with results; ``None`` where the player did not play it. (Not
    frozen: the standings make one per player, and a frozen dataclass takes seven times as
    long to make; nothing changes one once made.)"""

    key: int
    series_points: tuple[int | None, ...]
    total: int
    data: dict[str, object] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    value: Callable[[StandingRow], int]


def _best_series(row: StandingRow) -> int:
    points = row.series_points
    if points and None not in points:  # most players: every series played, max in C
        return max(cast("tuple[int, ...]", points))
    played = [p for p in points if p is not None]
    return max(played) if played else 0


def _last_series(row: StandingRow) -> int:
    last = row.series_points[-1] if row.series_points else None
    return last if last is not None else 0


METRICS: dict[str, Metric] = {
    "total": Metric("total", "total points", attrgetter("total")),  # in C: no call per row
    "best_series": Metric("best_series", "best single-series score", _best_series),
    "last_series": Metric("last_series", "last-series score", _last_series),
}


class Ranked(NamedTuple):
    """A row with its place (a named tuple: made a thousand times per standings, and
    several times faster to make than a frozen dataclass)."""

    place: int
    shared: bool
    row: StandingRow


def rank(rows: Sequence[StandingRow], tiebreak: Sequence[str] = ()) -> list[Ranked]:
    """Rows sorted best first with their places; unknown metric keys are ignored. Players
    equal on every metric share a place; the next place skips accordingly (1, 2, 2, 4)."""
    metrics = [METRICS["total"]] + [METRICS[k] for k in tiebreak if k in METRICS and k != "total"]

    # the metrics negated, built metric by metric; the row indexes sorted by (metrics, row
    # key), flat tuples of ints: they compare several times faster than nested tuples, and
    # the stable sort keeps equal rows in their order
    columns = [list(map(neg, map(m.value, rows))) for m in metrics]
    metric_keys = list(zip(*columns, strict=True))
    sort_keys = list(zip(*columns, [row.key for row in rows], strict=True))
    order = sorted(range(len(rows)), key=sort_keys.__getitem__)
    keys = [metric_keys[i] for i in order]
    tied = [a == b for a, b in pairwise(keys)]  # each line with the next one
    with_previous, with_next = [False, *tied], [*tied, False]
    places = []
    place = 0
    for index, equal in enumerate(with_previous, start=1):
        if not equal:
            place = index
        places.append(place)
    return list(
        map(Ranked, places, map(or_, with_previous, with_next), map(rows.__getitem__, order))
    )
