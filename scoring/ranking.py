"""Ranking players by named metrics: pure, no Django.

A tournament picks the order of tie-break metrics after total points (design decision 2:
total points, then the better best single-series score, then the better last-series score;
players still equal share the place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StandingRow:
    """One player's figures. ``series_points`` has one entry per series of the tournament
    up to the last one with results; ``None`` where the player did not play it."""

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


@dataclass(frozen=True)
class Ranked:
    place: int
    shared: bool
    row: StandingRow


def rank(rows: Sequence[StandingRow], tiebreak: Sequence[str] = ()) -> list[Ranked]:
    """Rows sorted best first with their places; unknown metric keys are ignored. Players
    equal on every metric share a place; the next place skips accordingly (1, 2, 2, 4)."""
    metrics = [METRICS["total"]] + [METRICS[k] for k in tiebreak if k in METRICS and k != "total"]

    def sort_key(row: StandingRow) -> tuple[int, ...]:
        return tuple(-m.value(row) for m in metrics)

    ordered = sorted(rows, key=lambda row: (sort_key(row), row.key))
    keys = [sort_key(row) for row in ordered]
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
