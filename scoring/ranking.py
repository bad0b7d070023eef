"""Ranking players by named metrics: pure, no Django.

A tournament picks the order of tie-break metrics after total points (design decision 2:
total points, then the better best single-series score, then the better last-series score;
players still equal share the place).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from operator import eq, itemgetter, neg, or_
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


#: One row's points per series, None where it has no result.
Points = Sequence[int | None]


@dataclass(frozen=True)
class Metric:
    """A tie-break: ``column(series_points, totals, complete)`` gives every row's value
    (higher is better), one per row; ``complete``: the caller knows that every row has a
    figure for every series (the usual table: then the metric runs in C)."""

    key: str
    label: str
    column: Callable[[Sequence[Points], Sequence[int], bool], Iterable[int]]

    def value(self, row: StandingRow) -> int:
        """The value of one row."""
        (value,) = self.column([row.series_points], [row.total], False)
        return value


def _totals(
    series_points: Sequence[Points], totals: Sequence[int], complete: bool
) -> Sequence[int]:
    return totals


def _best_of(points: Points) -> int:
    played = [p for p in points if p is not None]
    return max(played) if played else 0


def _best_series(
    series_points: Sequence[Points], totals: Sequence[int], complete: bool
) -> Iterable[int]:
    if complete:
        return map(max, cast("Sequence[Sequence[int]]", series_points))
    return map(_best_of, series_points)


def _last_of(points: Points) -> int:
    last = points[-1] if points else None
    return last if last is not None else 0


def _last_series(
    series_points: Sequence[Points], totals: Sequence[int], complete: bool
) -> Iterable[int]:
    if complete:
        return map(itemgetter(-1), cast("Sequence[Sequence[int]]", series_points))
    return map(_last_of, series_points)


def series_sums(series_points: Sequence[Points], complete: bool = False) -> list[int]:
    """Each row's total of its series points (``complete`` as for ``Metric``)."""
    if complete:
        return list(map(sum, cast("Sequence[Sequence[int]]", series_points)))
    return list(map(sum, map(partial(filter, None), series_points)))


METRICS: dict[str, Metric] = {
    "total": Metric("total", "total points", _totals),
    "best_series": Metric("best_series", "best single-series score", _best_series),
    "last_series": Metric("last_series", "last-series score", _last_series),
}


class Ranked(NamedTuple):
    """A row with its place (a named tuple: made a thousand times per standings, and
    several times faster to make than a frozen dataclass)."""

    place: int
    shared: bool
    row: StandingRow


class Order(NamedTuple):
    """The rows' indexes best first, and for each of these its place and whether it shares
    it."""

    indexes: list[int]
    places: list[int]
    shared: list[bool]


def rank(rows: Sequence[StandingRow], tiebreak: Sequence[str] = ()) -> list[Ranked]:
    """Rows sorted best first with their places; unknown metric keys are ignored. Players
    equal on every metric share a place; the next place skips accordingly (1, 2, 2, 4)."""
    order = rank_columns(
        [row.key for row in rows],
        [row.series_points for row in rows],
        [row.total for row in rows],
        tiebreak,
    )
    return list(map(Ranked, order.places, order.shared, map(rows.__getitem__, order.indexes)))


def rank_columns(
    keys: Sequence[int],
    series_points: Sequence[Points],
    totals: Sequence[int],
    tiebreak: Sequence[str] = (),
    *,
    complete: bool = False,
) -> Order:
    """``rank`` of rows given column by column (their keys, series points and totals, one
    entry per row): no row objects for a table that needs none. ``complete`` as for
    ``Metric``."""
    if not keys:
        return Order([], [], [])
    metrics = [METRICS["total"]] + [METRICS[k] for k in tiebreak if k in METRICS and k != "total"]

    # the metrics negated, built metric by metric; the row indexes sorted by (metrics, row
    # key), flat tuples of ints: they compare several times faster than nested tuples, and
    # the stable sort keeps equal rows in their order
    columns = [list(map(neg, m.column(series_points, totals, complete))) for m in metrics]
    metric_keys = list(zip(*columns, strict=True))
    sort_keys = list(zip(*columns, keys, strict=True))
    indexes = sorted(range(len(keys)), key=sort_keys.__getitem__)
    ordered = list(map(metric_keys.__getitem__, indexes))
    tied = list(map(eq, ordered, ordered[1:]))  # each line with the next one
    with_previous, with_next = [False, *tied], [*tied, False]
    # a line's place is its position, but the place of the line before where it ties with
    # it: only the tied lines are visited (few in a large field)
    places = list(range(1, len(indexes) + 1))
    for index in compress(range(1, len(indexes)), tied):
        places[index] = places[index - 1]
    return Order(indexes, places, list(map(or_, with_previous, with_next)))
