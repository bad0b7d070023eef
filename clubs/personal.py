"""A user's personal club: where what he owned alone moves, and where what he creates goes
unless he chooses another of his clubs. Written against the models it is given, so that
the migrations run it with their historical models and the services with the real ones."""

from __future__ import annotations

from typing import Any

from clubs import roles
from common.slugs import slug_from_name


def club_name(user: Any) -> str:
    """A personal club is named after its user: his full name, else his user name."""
    full = f"{user.first_name} {user.last_name}".strip()
    return full or user.username


def free_slug(club_model: Any, name: str) -> str:
    base = slug_from_name(name, "club")[:54]
    slug, number = base, 1
    while slug == "einladung" or club_model.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def personal_club(club_model: Any, membership_model: Any, user: Any) -> Any:
    """The user's personal club, made on first use with him as its owner."""
    club = club_model.objects.filter(personal_of=user).first()
    if club is None:
        name = club_name(user)
        club = club_model.objects.create(
            name=name, slug=free_slug(club_model, name), personal_of=user
        )
        membership_model.objects.create(club=club, user=user, role=roles.OWNER)
    return club


def join(membership_model: Any, club: Any, user: Any, role: str) -> None:
    """Make ``user`` a member of ``club`` with ``role`` unless he is one already."""
    membership_model.objects.get_or_create(club=club, user=user, defaults={"role": role})
