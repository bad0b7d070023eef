"""Who acts, and through which door. Every use case of every app takes an ``Actor``; its
change log records ``actor.describe()``.

A door is a way in: an organizer's session in the pages, an organizer through the REST API
(both here, every app has them), a table's private link (``scoring.doors``), a team's
private link (``teams.doors``). Each app defines the doors it opens; a lower layer never
names an upper app's door.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Door:
    """A way in. ``code`` is stable (it is written into the log); ``account``: whoever comes
    through it is signed in (an organizer's session or API credentials); ``text``: how the
    log names an actor without an account (``{table}`` filled in); ``seated``: the log adds
    the seat he said he sits on, if he said so."""

    code: str
    account: bool = False
    text: str = ""
    seated: bool = False

    def __str__(self) -> str:
        return self.code

    def describe(self, actor: Actor, table_number: int | None = None) -> str:
        if self.account or not self.text:
            return f"{self.code} {getattr(actor.user, 'username', '?')}"
        text = self.text.format(table=table_number)
        return f"{text}, seat {actor.seat}" if self.seated and actor.seat else text


#: An organizer's session in the HTML pages.
ORGANIZER = Door("organizer", account=True)
#: An organizer through the REST API.
API = Door("api", account=True)


@dataclass(frozen=True)
class Actor:
    """Who changes something, through which door, from which phone (captains' device cookie
    or ``Device-Id`` header: a random value that tells two phones apart, nothing more)."""

    via: Door
    user: Any = None
    seat: int | None = None
    device: str = ""

    @property
    def is_organizer(self) -> bool:
        return self.via.account and self.user is not None

    def describe(self, table_number: int | None = None) -> str:
        return self.via.describe(self, table_number)
