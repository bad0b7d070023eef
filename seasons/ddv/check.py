"""Whether a tournament qualifies as a DDV ranking tournament: a pure function of its facts
returning the reasons it does not (none: it qualifies). Codes here, words at the edge
(``seasons.ddv.report.reason_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

#: The DDV's minimums for a ranking tournament (docs/ddv-report.md).
MIN_PLAYERS = 32
MIN_SERIES = 3
#: The rule set preset a ranking tournament plays by, without overrides.
DDV_RULESET = "ddv"


class Reason(StrEnum):
    FEW_PLAYERS = "few_players"
    FEW_SERIES = "few_series"
    NOT_DDV_RULES = "not_ddv_rules"
    SERIES_OPEN = "series_open"


@dataclass(frozen=True)
class Facts:
    players: int  # players with a result in at least one series
    series: int  # series the tournament plays
    ruleset: str  # its preset
    overrides: bool  # it changes something of the preset
    open_series: int  # series not closed yet


def qualification(facts: Facts) -> tuple[Reason, ...]:
    """The reasons ``facts`` fail the DDV's conditions, in a fixed order (none: qualifies)."""
    reasons = []
    if facts.players < MIN_PLAYERS:
        reasons.append(Reason.FEW_PLAYERS)
    if facts.series < MIN_SERIES:
        reasons.append(Reason.FEW_SERIES)
    if facts.ruleset != DDV_RULESET or facts.overrides:
        reasons.append(Reason.NOT_DDV_RULES)
    if facts.open_series:
        reasons.append(Reason.SERIES_OPEN)
    return tuple(reasons)
