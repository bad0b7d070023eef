"""The hall's part of the demo tournament: an announcement on the display."""

from __future__ import annotations

from typing import Any

from common.actors import ORGANIZER, Actor
from hall.services import announce
from tournaments.models import Tournament

ANNOUNCEMENT = "Siegerehrung um 18:00 Uhr im Foyer"


def announce_in_demo(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    organizer = tournament.organizers.order_by("pk").first()
    announce(tournament, ANNOUNCEMENT, actor=Actor(ORGANIZER, user=organizer))
