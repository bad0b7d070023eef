"""Who may do what with a tournament and with a player registry. One rule, used by views,
API and services alike.

A tournament belongs to a club; its club's keepers keep it (``TOURNAMENTS``).

Registries (design decision 7): players still belong to the registry of one user. A
tournament works in the registry of its first organizer (the one who created it); the
keepers of its club work in that registry for that tournament. Moving the registry to the
club changes only ``registry_owner``, ``readable_players`` and ``may_merge`` below.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs import roles
from common.ownership import Ownership
from tournaments.models import Player, Tournament

#: The one rule (``common.ownership``) applied to tournaments: kept by their club's keepers.
#: Upper apps add the tournaments they govern (a league's groups) in their ``ready``.
TOURNAMENTS: Ownership[Tournament] = Ownership(
    Tournament, keepers="club", roles=roles.keeping_roles(roles.TOURNAMENTS)
)


#: The same rule for the referee calls of a tournament (``scoring.services.referee``): its
#: club's referees handle them, and so do those who keep it.
RULINGS: Ownership[Tournament] = Ownership(
    Tournament, keepers="club", roles=roles.keeping_roles(roles.RULINGS)
)


def may_referee(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    """Whether ``user`` may take and rule the referee calls of ``tournament``."""
    return RULINGS.may_keep(user, tournament)


def is_organizer(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    return TOURNAMENTS.may_keep(user, tournament)


def can_view(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    return TOURNAMENTS.may_see(user, tournament)


def visible_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see: the public ones and those he organizes."""
    return TOURNAMENTS.visible(user)


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
    kept = Tournament.objects.filter(TOURNAMENTS.kept_by(user)).values("pk")
    organized = Player.objects.filter(registrations__tournament__in=kept).values("pk")
    return Player.objects.filter(Q(owner_id=user.pk) | Q(pk__in=organized))


def may_merge(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """Only a registry's owner cleans it up (and superusers): a co-organizer reads the
    players of his tournaments but does not own them."""
    if not user.is_authenticated or player.owner_id is None:
        return False
    return bool(getattr(user, "is_superuser", False)) or player.owner_id == user.pk
