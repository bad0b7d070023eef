"""Who may see and keep which season. One rule for pages, API and services.

A season belongs to its club: the club's keepers (and superusers) change it and attach
tournaments, and only tournaments of the same club. A public season is seen by everybody, a
private one only by those who may keep it; to everyone else it does not exist.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubs import roles
from common.ownership import Ownership
from seasons.models import Season
from tournaments.models import Tournament

User = AbstractBaseUser | AnonymousUser

#: The one rule (``common.ownership``) applied to seasons: kept by their club's keepers.
SEASONS: Ownership[Season] = Ownership(
    Season, keepers="club", roles=roles.keeping_roles(roles.SEASONS)
)


def can_manage(user: User, season: Season) -> bool:
    return SEASONS.may_keep(user, season)


def can_view(user: User, season: Season) -> bool:
    return SEASONS.may_see(user, season)


def visible_seasons(user: User) -> QuerySet[Season]:
    return SEASONS.visible(user)


def attachable_tournaments(season: Season) -> QuerySet[Tournament]:
    """The tournaments of the season's club (imported ones included)."""
    if season.club_id is None:
        return Tournament.objects.none()
    return Tournament.objects.filter(club=season.club_id)
