"""Running totals of a score sheet: the one place that sums a table's rows seat by seat.

The captain's sheet and the printed games list both show, after every row, what each seat
has so far. Pure: the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TotalsRow:
    """One row's points per seat and the totals after it, both in the order of the seats."""

    points: tuple[int, ...]
    totals: tuple[int, ...]


def seat_points(scores: Mapping[Any, Any] | None) -> dict[int, int]:
    """A game's stored scores (JSON: seat as text → points) keyed by seat number."""
    return {int(seat): int(points) for seat, points in (scores or {}).items()}


def running_totals(rows: Iterable[Mapping[int, int]], positions: Sequence[int]) -> list[TotalsRow]:
    """Each row's points for ``positions`` (a seat missing from a row scores 0) and the
    running totals after it; seats outside ``positions`` are left out."""
    totals = [0] * len(positions)
    result = []
    for row in rows:
        points = tuple(row.get(p, 0) for p in positions)
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        result.append(TotalsRow(points, tuple(totals)))
    return result
