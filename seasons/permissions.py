"""Who may see and keep which season. One rule for pages, API and services.

A season belongs to its ``owner``: he (and superusers) change it and attach tournaments, and
only tournaments he organizes. A public season is seen by everybody, a private one only by
those who may keep it; to everyone else it does not exist.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from seasons.models import Season
from tournaments.models import Tournament

User = AbstractBaseUser | AnonymousUser


def can_manage(user: User, season: Season) -> bool:
    if not user.is_authenticated:
        return False
    return bool(getattr(user, "is_superuser", False)) or season.owner_id == user.pk


def can_view(user: User, season: Season) -> bool:
    return season.is_public or can_manage(user, season)


def visible_seasons(user: User) -> QuerySet[Season]:
    seasons = Season.objects.all()
    if getattr(user, "is_superuser", False):
        return seasons
    if user.is_authenticated:
        return seasons.filter(Q(is_public=True) | Q(owner_id=user.pk))
    return seasons.filter(is_public=True)


def attachable_tournaments(season: Season) -> QuerySet[Tournament]:
    """The tournaments the season's owner organizes (imported ones included)."""
    return Tournament.objects.filter(organizers=season.owner_id)
