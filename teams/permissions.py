"""Who may see and keep which team competition. One rule for pages, API and services.

A league belongs to its club: the club's keepers (and superusers) change it, its teams,
squads, match days and line-ups. A public league is seen by everybody, a private one only by
those who may keep it; to everyone else it does not exist.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs import roles
from common.ownership import Ownership
from teams.models import League
from tournaments.models import Player

User = AbstractBaseUser | AnonymousUser

#: The one rule (``common.ownership``) applied to leagues: kept by their club's keepers.
LEAGUES: Ownership[League] = Ownership(
    League, keepers="club", roles=roles.keeping_roles(roles.LEAGUES)
)


def can_manage(user: User, league: League) -> bool:
    return LEAGUES.may_keep(user, league)


def can_view(user: User, league: League) -> bool:
    return LEAGUES.may_see(user, league)


def visible_leagues(user: User) -> QuerySet[League]:
    return LEAGUES.visible(user)


def group_tournaments() -> tuple[Q, Q]:
    """The tournaments a league governs (its groups' play) and when they are public: when
    the league is. A private league hides its groups' tournaments, their standings, hall
    display and exports; a public one shows them, whatever the tournament's own flag says.
    Added to the tournaments' rule in ``TeamsConfig.ready``."""
    return Q(team_group__isnull=False), Q(team_group__match_day__league__is_public=True)


def squad_candidates(league: League) -> QuerySet[Player]:
    """The players a league's squads may take: those of its club's registry."""
    if league.club_id is None:
        return Player.objects.none()
    return Player.objects.filter(registry_club_id=league.club_id)
