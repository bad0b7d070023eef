"""Use cases of the results app. Each runs in one transaction and records an audit entry.

They answer with the typed outcomes below or raise ``common.services.ServiceError``
(the one domain error of all apps); who acts is a ``common.actors.Actor``. The HTML pages
and the API turn both into responses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.series import SeriesReport


@dataclass(frozen=True)
class GameEntered:
    """A game entered (``created``) or corrected. ``replayed``: a retry of a request that had
    already succeeded; the answer is the original one and nothing was written again.
    ``report``: the sheet with this game, checked (when the caller asked for it and the game
    was written now), from the replay that completed the game."""

    game: dict[str, Any]
    sheet: dict[str, Any]
    created: bool
    replayed: bool = False
    report: SeriesReport | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "sheet": self.sheet}


@dataclass(frozen=True)
class SheetChanged:
    """A sheet after a change (deleted game, submitted, confirmed, reopened, time-out).
    ``replayed``: the change had already been made (a retry); nothing was written again."""

    sheet: dict[str, Any]
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"sheet": self.sheet}
