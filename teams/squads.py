"""A squad's edges: finding players of the owner's registry, and a player new to the registry
put straight into a squad (one transaction: no orphan player when the squad refuses him)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from common.services import ServiceError
from scoring.services import Actor
from teams.models import League, SquadMember, Team
from teams.permissions import squad_candidates
from teams.services import add_squad_member
from tournaments.models import Player

SEARCH_MAX_LENGTH = 80
SEARCH_LIMIT = 20


def search_candidates(league: League, text: str) -> QuerySet[Player]:
    """Players of the owner's registry whose name or club contains every word of ``text``,
    not yet in a squad of the league (at most ``SEARCH_LIMIT``)."""
    found = squad_candidates(league).exclude(
        pk__in=SquadMember.objects.filter(league=league).values("player_id")
    )
    for word in text.split()[:5]:
        found = found.filter(
            Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(club__icontains=word)
        )
    return found.order_by("last_name", "first_name", "pk")[:SEARCH_LIMIT]


@transaction.atomic
def add_new_player(
    team: Team, first_name: str, last_name: str, club: str, *, actor: Actor
) -> SquadMember:
    """A new player of the league owner's registry, in ``team``'s squad."""
    first_name, last_name = first_name.strip(), last_name.strip()
    if not first_name or not last_name:
        raise ServiceError(
            "name_required", _("Give the first and the last name."), field="last_name"
        )
    league = team.league
    player = Player.objects.create(
        owner_id=league.owner_id, first_name=first_name, last_name=last_name, club=club.strip()
    )
    return add_squad_member(team, player, actor=actor)
