"""The clubs' use cases so far: the club a new thing goes into."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs import personal
from clubs.models import Club, Membership
from clubs.roles import keeping_roles
from common.services import Refusal, ServiceError


def personal_club(user: Any) -> Club:
    club: Club = personal.personal_club(Club, Membership, user)
    return club


def clubs_keeping(user: Any, kind: str) -> QuerySet[Club]:
    """The clubs in which ``user`` keeps things of ``kind`` (a choice when creating one)."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user=user.pk, memberships__role__in=keeping_roles(kind)
    ).order_by("name", "pk")


def home_club(user: Any, kind: str, club: Club | None = None) -> Club:
    """The club a new thing of ``kind`` created by ``user`` belongs to: ``club`` if he keeps
    such things there, by default his personal club (made on first use)."""
    if club is None:
        return personal_club(user)
    if not clubs_keeping(user, kind).filter(pk=club.pk).exists():
        raise ServiceError(
            "not_club_keeper",
            _("You cannot create this in the club “%(club)s”.") % {"club": club.name},
            field="club",
            refusal=Refusal.FORBIDDEN,
        )
    return club
