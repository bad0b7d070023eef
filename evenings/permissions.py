"""Who keeps a club's evenings: the members whose role keeps the kind ``evenings``
(``clubs.roles``: owners and organizers), asked of the one rule (``common.ownership``).
A table's private link lets its phone enter games at that table only (``table_by_token``);
the public sees a group's evenings only when the group is public (default: private)."""

from __future__ import annotations

from typing import Any

from clubs import roles
from clubs.models import Club, Membership
from common.ownership import Ownership, is_superuser
from evenings.models import Group

GROUPS: Ownership[Group] = Ownership(
    Group, keepers="club", roles=roles.keeping_roles(roles.EVENINGS)
)


#: Who books a closed evening's payments into the club's cash box (``clubs.roles``: owners,
#: organizers and cashiers).
PAYMENTS: Ownership[Group] = Ownership(
    Group, keepers="club", roles=roles.keeping_roles(roles.EVENING_PAYMENTS)
)


def keeps_evenings(user: Any, club: Club) -> bool:
    return GROUPS.may_keep_in(user, club.pk)


def may_book_payments(user: Any, club: Club) -> bool:
    return PAYMENTS.may_keep_in(user, club.pk)


def is_member(user: Any, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    return is_superuser(user) or Membership.objects.filter(club=club, user=user.pk).exists()


def may_see(user: Any, group: Group) -> bool:
    return GROUPS.may_see(user, group)


def may_see_result(user: Any, group: Group) -> bool:
    """An evening's result: whoever sees the group, and who books its payments (a cashier
    does not keep the evenings but books what they bring in)."""
    return may_see(user, group) or may_book_payments(user, group.club)
