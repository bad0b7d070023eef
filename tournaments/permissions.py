"""Who may do what with a tournament and with a player registry. One rule, used by views,
API and services alike.

A tournament belongs to a club; its club's keepers keep it (``TOURNAMENTS``).

Registries (design decision 14): players belong to the registry of a club
(``Player.registry_club``), kept by the club's owners and organizers (``REGISTRY``); to
everyone else its players do not exist. A tournament works in the registry of its club.
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


#: The one rule applied to the players of a registry: kept by the keepers of its club. A
#: registry is never public.
REGISTRY: Ownership[Player] = Ownership(
    Player, keepers="registry_club", roles=roles.keeping_roles(roles.REGISTRY), public=None
)


def registry_owner(tournament: Tournament) -> int | None:
    """The id of the user a new player of the tournament is created by (``Player.owner``):
    its first organizer; None for a tournament without organizers."""
    through = Tournament.organizers.through
    return (
        through.objects.filter(tournament_id=tournament.pk)
        .order_by("pk")
        .values_list("user_id", flat=True)
        .first()
    )


def tournament_registry(tournament: Tournament) -> QuerySet[Player]:
    """The players a tournament may register, match and merge with: its club's registry
    (a tournament of no club has none)."""
    if tournament.club_id is None:
        return Player.objects.none()
    return Player.objects.filter(registry_club_id=tournament.club_id)


def kept_players(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    """The players of the registries ``user`` keeps (every player for superusers)."""
    if not user.is_authenticated:
        return Player.objects.none()
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    return Player.objects.filter(REGISTRY.kept_by(user))


def readable_players(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    """The players whose details (e-mail, DDV number) ``user`` may see and correct: those of
    the registries he keeps and the players of the tournaments he keeps (a tournament of a
    club that played with a registry of before the clubs' registries)."""
    if not user.is_authenticated:
        return Player.objects.none()
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    kept = Tournament.objects.filter(TOURNAMENTS.kept_by(user)).values("pk")
    organized = Player.objects.filter(registrations__tournament__in=kept).values("pk")
    registry = Player.objects.filter(REGISTRY.kept_by(user)).values("pk")
    return Player.objects.filter(Q(pk__in=registry) | Q(pk__in=organized))


def may_merge(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """Only the keepers of the player's registry clean it up, anonymize him and export his
    data (and superusers): an organizer of a tournament he played in reads him but does not
    keep him."""
    return REGISTRY.may_keep(user, player)
