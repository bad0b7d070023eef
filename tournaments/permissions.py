"""Who may do what with a tournament and with a player registry. One rule, used by views,
API and services alike.

Registries (design decision 7): players belong to the registry of one owner. A tournament
works in the registry of its owner, its first organizer (the one who created it); its
co-organizers work in that registry for that tournament. A club account shared by several
organizers would change only ``registry_owner`` and ``readable_players`` below.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from tournaments.models import Player, Tournament


def is_organizer(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return tournament.organizers.filter(pk=user.pk).exists()


def can_view(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    return tournament.is_public or is_organizer(user, tournament)


def registry_owner(tournament: Tournament) -> int | None:
    """The id of the user whose registry the tournament's players come from: its first
    organizer; None for a tournament without organizers (it has no registry)."""
    through = Tournament.organizers.through
    return (
        through.objects.filter(tournament_id=tournament.pk)
        .order_by("pk")
        .values_list("user_id", flat=True)
        .first()
    )


def tournament_registry(tournament: Tournament) -> QuerySet[Player]:
    """The players a tournament may register, match and merge with."""
    owner = registry_owner(tournament)
    if owner is None:
        return Player.objects.none()
    return Player.objects.filter(owner_id=owner)


def readable_players(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    """The players whose details (e-mail, DDV number) ``user`` may see and correct: his own
    registry and the players of the tournaments he organizes."""
    if not user.is_authenticated:
        return Player.objects.none()
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    organized = Player.objects.filter(registrations__tournament__organizers=user.pk).values("pk")
    return Player.objects.filter(Q(owner_id=user.pk) | Q(pk__in=organized))


def may_merge(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """Only a registry's owner cleans it up (and superusers): a co-organizer reads the
    players of his tournaments but does not own them."""
    if not user.is_authenticated or player.owner_id is None:
        return False
    return bool(getattr(user, "is_superuser", False)) or player.owner_id == user.pk
