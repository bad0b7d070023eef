"""Use cases of the results app. Each runs in one transaction and records an audit entry.

They answer with the typed outcomes below or raise ``tournaments.services.ServiceError``
(the one domain error of all apps); the HTML pages and the API turn both into responses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Door(StrEnum):
    """How an actor reaches the results."""

    CAPTAIN = "captain"  # the table's private link (no account)
    ORGANIZER = "organizer"  # an organizer's session in the HTML pages
    API = "api"  # an organizer through the REST API
    TEAM_CAPTAIN = "team_captain"  # a team's private link (no account): its line-ups


@dataclass(frozen=True)
class Actor:
    """Who changes results, through which door, from which phone (captains' device cookie
    or ``Device-Id`` header: a random value that tells two phones apart, nothing more)."""

    via: Door
    user: Any = None
    seat: int | None = None
    device: str = ""

    @property
    def is_organizer(self) -> bool:
        return self.via in (Door.ORGANIZER, Door.API) and self.user is not None

    def describe(self, table_number: int | None = None) -> str:
        if self.via == Door.CAPTAIN:
            text = f"captain link table {table_number}"
            return f"{text}, seat {self.seat}" if self.seat else text
        if self.via == Door.TEAM_CAPTAIN:
            return "team captain link"
        name = getattr(self.user, "username", "?")
        return f"{self.via} {name}"


@dataclass(frozen=True)
class GameEntered:
    """A game entered (``created``) or corrected. ``replayed``: a retry of a request that had
    already succeeded; the answer is the original one and nothing was written again."""

    game: dict[str, Any]
    sheet: dict[str, Any]
    created: bool
    replayed: bool = False

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
