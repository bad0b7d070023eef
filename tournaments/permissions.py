"""Who may do what with a tournament. One rule, used by views, API and services alike."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Tournament


def is_organizer(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return tournament.organizers.filter(pk=user.pk).exists()


def can_view(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    return tournament.is_public or is_organizer(user, tournament)
