"""Who does the fee work of a tournament: the one rule (``common.ownership``) applied to
tournaments with the roles that keep the kind ``fees`` (``clubs.roles``: owners, organizers
and cashiers of the tournament's club). Pages and services ask it; nothing else checks a
role."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubs import roles
from common.ownership import Ownership
from tournaments.models import Tournament

FEES: Ownership[Tournament] = Ownership(
    Tournament, keepers="club", roles=roles.keeping_roles(roles.FEES)
)


def may_handle_fees(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    return FEES.may_keep(user, tournament)


def fee_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """The tournaments whose fees ``user`` handles (superusers: all)."""
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(FEES.kept_by(user))
