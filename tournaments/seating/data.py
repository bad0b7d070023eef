"""Plain data going into and out of the seating draw (no Django, no ORM)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

#: Bump whenever the same input can produce a different plan. It is published with every
#: plan so that anyone can re-run the draw with the same code.
ALGORITHM_VERSION = "3"

DrawMode = Literal["random", "standings"]

#: Earlier series of this tournament: one entry per series, each a list of tables, each table
#: the player ids in seat order (seat 1 first).
History = Sequence[Sequence[Sequence[int]]]


class SeatingError(ValueError):
    """A draw that cannot be made. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class SeatingPlayer:
    """A present player. ``id`` is any stable integer (start number or database id)."""

    id: int
    club: str | None = None


@dataclass(frozen=True)
class Unhonoured:
    """A keep-apart pair (smaller id first) that the draw seated at one table in ``series``;
    ``reason`` is a stable code (see ``seating.apart``)."""

    series: int
    pair: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class SeatingOptions:
    """How to draw.

    ``seed`` makes the draw reproducible. ``keep_clubs_apart`` applies to series 1.
    ``mode="standings"`` (Swiss style, for later series) seats by ``standings`` (player ids,
    leader first). ``planned_series`` is the number of series of the tournament: when it is
    given and the history is exactly what this algorithm drew with the same seed, the next
    series is taken from the full-tournament plan, which keeps the zero-repeat guarantee.
    ``keep_apart`` are pairs of player ids who must never share a table (a hard constraint:
    pairs with an absent player are ignored; pairs the draw cannot honour are reported in
    ``Plan.unhonoured``).
    """

    seed: int
    keep_clubs_apart: bool = False
    mode: DrawMode = "random"
    standings: tuple[int, ...] = ()
    planned_series: int | None = None
    keep_apart: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Plan:
    """One drawn series.

    ``tables`` lists player ids in seat order (seat 1 deals first, the last seat keeps the
    list). ``repeats`` counts the pairs at one table in this series who already sat together
    earlier in the tournament. ``unhonoured`` are the keep-apart pairs seated together anyway.
    """

    series: int
    tables: list[list[int]]
    repeats: int
    seed: int
    version: str = ALGORITHM_VERSION
    unhonoured: tuple[Unhonoured, ...] = ()


@dataclass(frozen=True)
class TournamentPlan:
    """A complete plan for players numbered 1..N (what ``manage.py seating`` prints).

    ``repeats`` is the sum of the per-series repeats: the number of times over the whole plan
    that a pair sits together again.
    """

    seed: int
    series: list[Plan] = field(default_factory=list)
    version: str = ALGORITHM_VERSION

    @property
    def repeats(self) -> int:
        return sum(plan.repeats for plan in self.series)

    @property
    def unhonoured(self) -> list[Unhonoured]:
        return [entry for plan in self.series for entry in plan.unhonoured]

    def to_dict(self, *, with_pairs: bool = False) -> dict[str, Any]:
        """The CLI's JSON; ``with_pairs`` adds the keep-apart report (the old output is
        unchanged without it)."""
        result: dict[str, Any] = {
            "seed": self.seed,
            "version": self.version,
            "series": [plan.tables for plan in self.series],
            "repeats": self.repeats,
        }
        if with_pairs:
            result["unhonoured"] = [
                {"series": e.series, "pair": list(e.pair), "reason": e.reason}
                for e in self.unhonoured
            ]
        return result
