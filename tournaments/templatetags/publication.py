"""``{% published_name registration %}``: a player's name as the page's viewer may see it
(``tournaments.publication``): in full on pages that set ``keeper`` (the organizers' own),
else as the player consented."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Player, Registration
from tournaments.publication import registration_name, shown_name

register = template.Library()


@register.simple_tag(takes_context=True)
def published_name(context: Any, registration: Registration) -> str:
    tournament = context.get("tournament")
    if tournament is not None and tournament.pk != registration.tournament_id:
        tournament = None
    return registration_name(
        registration, keeper=bool(context.get("keeper")), tournament=tournament
    )


@register.filter
def published(player: Player) -> str:
    """A registry player's name as he consented, on pages without a tournament (leagues,
    teams): ``{{ line.player|published }}``."""
    return shown_name(player.first_name, player.last_name, player.name_form)
