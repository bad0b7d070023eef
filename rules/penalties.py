"""Penalty components (Strafpunkte, spec 9) as they enter a game record.

These helpers build the ``penalties`` list of a record for the referee's decision; the scorer
just adds whatever components the record carries (they must sum to zero). Unsportsmanlike
deductions (TSR 9.7) have no counter-credit and go to the record's ``deductions`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.gamerecord import SeatPoints
from rules.ruleset import RuleSet


class PenaltyClass(StrEnum):
    IRRELEVANT = "irrelevant"  # unerheblich: 0 points
    MINOR = "minor"  # geringfügig
    SEVERE = "severe"  # schwerwiegend
    DECIDED_GAME = "decided_game"  # violation in an already decided game (TSR 9.5): minor
    UNSPORTSMANLIKE = "unsportsmanlike"  # deduction without counter-credit (TSR 9.7)


@dataclass(frozen=True, slots=True)
class PenaltyDecision:
    """The components to record and whether the game counts as not played."""

    components: tuple[SeatPoints, ...]
    not_played: bool


def minor_penalty(
    violator: int,
    active: Sequence[int],
    ruleset: RuleSet,
    *,
    soloist: int | None = None,
    can_hurt_soloist: bool = False,
) -> PenaltyDecision:
    """Geringfügiger Verstoß (TSR 9.3): violator -3, each other active player +1; in a solo an
    opponent's violation that can hurt the soloist: violator -3, soloist +3, others 0."""
    points = ruleset.minor_penalty
    if soloist is not None and violator != soloist and can_hurt_soloist:
        return PenaltyDecision((SeatPoints(violator, -points), SeatPoints(soloist, points)), False)
    return PenaltyDecision(_spread(violator, active, points), False)


def severe_penalty(
    violator: int,
    active: Sequence[int],
    absagen: int,
    ruleset: RuleSet,
    *,
    soloist: int | None = None,
) -> PenaltyDecision:
    """Schwerwiegender Verstoß (TSR 9.4). ``absagen`` (0..4) = k: the Absagen of the violator's
    opponents made before the violation (in a solo: the soloist's Absagen).

    Normal game or soloist's fault: not played; violator -(12 + 3k), the others +(4 + k) each.
    Opponent's fault in a solo: the solo counts as played; violator -(12 + 3k), soloist the
    same plus, others 0.
    """
    if not 0 <= absagen <= 4:
        raise ValueError("absagen must be 0..4")
    points = ruleset.severe_penalty + ruleset.severe_penalty_per_absage * absagen
    if soloist is not None and violator != soloist:
        return PenaltyDecision((SeatPoints(violator, -points), SeatPoints(soloist, points)), False)
    return PenaltyDecision(_spread(violator, active, points), True)


def _spread(violator: int, active: Sequence[int], points: int) -> tuple[SeatPoints, ...]:
    others = [seat for seat in active if seat != violator]
    if not others or points % len(others):
        raise ValueError("penalty cannot be spread evenly over the other players")
    share = points // len(others)
    return (SeatPoints(violator, -points), *(SeatPoints(seat, share) for seat in others))
