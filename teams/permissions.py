"""Who may see and keep which team competition. One rule for pages, API and services.

A league belongs to its ``owner``: he (and superusers) change it, its teams, squads, match
days and line-ups. A public league is seen by everybody, a private one only by those who
may keep it; to everyone else it does not exist.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from teams.models import League
from tournaments.models import Player

User = AbstractBaseUser | AnonymousUser


def can_manage(user: User, league: League) -> bool:
    if not user.is_authenticated:
        return False
    return bool(getattr(user, "is_superuser", False)) or league.owner_id == user.pk


def can_view(user: User, league: League) -> bool:
    return league.is_public or can_manage(user, league)


def visible_leagues(user: User) -> QuerySet[League]:
    leagues = League.objects.all()
    if getattr(user, "is_superuser", False):
        return leagues
    if user.is_authenticated:
        return leagues.filter(Q(is_public=True) | Q(owner_id=user.pk))
    return leagues.filter(is_public=True)


def squad_candidates(league: League) -> QuerySet[Player]:
    """The players a league's squads may take: those of its owner's registry."""
    return Player.objects.filter(owner_id=league.owner_id)
