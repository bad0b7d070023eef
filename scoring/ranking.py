"""Ranking players by named metrics: pure, no Django.

A tournament picks the order of tie-break metrics after total points (design decision 2:
total points, then the better best single-series score, then the better last-series score;
players still equal share the place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import neg
from typing import NamedTuple


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
    played = [p for p in row.series_points if p is not None]
    return max(played) if played else 0


def _last_series(row: StandingRow) -> int:
    last = row.series_points[-1] if row.series_points else None
    return last if last is not None else 0


METRICS: dict[str, Metric] = {
    "total": Metric("total", "total points", lambda row: row.total),
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

    # (sort key, row key, index), built metric by metric: plain tuples sort fastest; the
    # index keeps equal rows in their order
    keyed = zip(*[map(neg, map(m.value, rows)) for m in metrics], strict=True)
    decorated = sorted(zip(keyed, [row.key for row in rows], range(len(rows)), strict=True))
    keys = [d[0] for d in decorated]
    ordered = [rows[d[2]] for d in decorated]
    ranked = []
    place = 0
    for index, row in enumerate(ordered):
        if index == 0 or keys[index] != keys[index - 1]:
            place = index + 1
        shared = (index > 0 and keys[index] == keys[index - 1]) or (
            index + 1 < len(keys) and keys[index] == keys[index + 1]
        )
        ranked.append(Ranked(place, shared, row))
    return ranked
