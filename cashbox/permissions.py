"""Who keeps a club's cash box: the members whose role keeps the kind ``cashbox``
(``clubs.roles``: owners and cashiers), asked of the one rule (``common.ownership``).
Nobody else sees anything of it, not even that it exists (404 outside the club)."""

from __future__ import annotations

from typing import Any

from cashbox.models import Booking
from clubs import roles
from clubs.models import Club, Membership
from common.ownership import Ownership, is_superuser

CASHBOX: Ownership[Booking] = Ownership(
    Booking, keepers="club", roles=roles.keeping_roles(roles.CASHBOX)
)


def keeps_cashbox(user: Any, club: Club) -> bool:
    return CASHBOX.may_keep_in(user, club.pk)


def is_member(user: Any, club: Club) -> bool:
    """A member of the club (any role) or a superuser: who may use the settlement page."""
    if not user.is_authenticated:
        return False
    return is_superuser(user) or Membership.objects.filter(club=club, user=user.pk).exists()
