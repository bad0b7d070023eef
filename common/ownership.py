"""Who may keep an owned thing and who may see it: one rule for tournaments, seasons and
leagues, for the pages, the API and the services alike.

A thing belongs to a club (its ``club``; a player to the club of his registry,
``registry_club``); it is kept by the club's members whose role keeps things of its kind
(``clubs.roles``: owners and organizers) and by superusers. A thing of no club is kept by
superusers only. A public thing is seen by everybody; a private one only by those who keep
it, and to everyone else it does not exist (404).

Who keeps a thing is decided in one place, ``Ownership.kept_by``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Model, Q, QuerySet

User = AbstractBaseUser | AnonymousUser
M = TypeVar("M", bound=Model)


def is_superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


@dataclass
class Ownership(Generic[M]):
    """The rule for one model. ``keepers``: the foreign key to the club that owns a row;
    ``roles``: the roles of that club whose members keep it; ``public``: the flag that makes
    a row public, None for a kind that is never public (a club's player registry).
    ``public_rules`` lets an upper app say, for the rows it is responsible for, when they
    are public instead (a league's group tournaments are public when the league is)."""

    model: type[M]
    keepers: str
    roles: tuple[str, ...]
    public: str | None = "is_public"
    public_rules: list[Callable[[], tuple[Q, Q]]] = field(default_factory=list)

    # --- who keeps it (the one place that knows what owning is) ---------------------------

    def kept_by(self, user: User) -> Q:
        """The rows ``user`` keeps, as a filter (none for anonymous users)."""
        if not user.is_authenticated:
            return Q(pk__in=[])
        # One membership per club and user: the join never repeats a row.
        return Q(
            **{
                f"{self.keepers}__memberships__user": user.pk,
                f"{self.keepers}__memberships__role__in": self.roles,
            }
        )

    def may_keep_in(self, user: User, club_pk: int) -> bool:
        """Whether ``user`` keeps things of this kind in the club ``club_pk`` (the same rule
        as ``kept_by``, asked of a club rather than of a row: a cash box with no booking
        yet, a new booking)."""
        if not user.is_authenticated:
            return False
        if is_superuser(user):
            return True
        clubs = self.model._meta.get_field(self.keepers).related_model
        assert clubs is not None and not isinstance(clubs, str)
        return clubs._default_manager.filter(
            pk=club_pk, memberships__user=user.pk, memberships__role__in=self.roles
        ).exists()

    def may_keep(self, user: User, thing: M) -> bool:
        if not user.is_authenticated:
            return False
        if is_superuser(user):
            return True
        if getattr(thing, f"{self.keepers}_id") is None:
            return False  # of no club: no query
        return self.model._default_manager.filter(self.kept_by(user), pk=thing.pk).exists()

    # --- who sees it -----------------------------------------------------------------------

    def add_public_rule(self, rule: Callable[[], tuple[Q, Q]]) -> None:
        """``rule()`` answers (the rows it governs, when such a row is public). Upper apps
        call this in their ``AppConfig.ready``."""
        if rule not in self.public_rules:
            self.public_rules.append(rule)

    def public_q(self) -> Q:
        """What the public may see, as a filter."""
        if self.public is None:
            return Q(pk__in=[])
        governed = [rule() for rule in self.public_rules]
        own = Q(**{self.public: True})
        for applies, _public in governed:
            own &= ~applies
        for applies, public in governed:
            own |= applies & public
        return own

    def is_public(self, thing: M) -> bool:
        if self.public is None:
            return False
        if not self.public_rules:
            return bool(getattr(thing, self.public))
        return self.model._default_manager.filter(self.public_q(), pk=thing.pk).exists()

    def may_see(self, user: User, thing: M) -> bool:
        return self.is_public(thing) or self.may_keep(user, thing)

    def visible(self, user: User, queryset: QuerySet[M] | None = None) -> QuerySet[M]:
        """The rows ``user`` may see: the public ones and those he keeps."""
        rows = self.model._default_manager.all() if queryset is None else queryset
        if is_superuser(user):
            return rows
        if not user.is_authenticated:
            return rows.filter(self.public_q())
        kept = self.model._default_manager.filter(self.kept_by(user)).values("pk")
        return rows.filter(self.public_q() | Q(pk__in=kept))

    def public_rows(self, queryset: QuerySet[M] | None = None) -> QuerySet[M]:
        rows = self.model._default_manager.all() if queryset is None else queryset
        return rows.filter(self.public_q())

    def related_public_q(self, prefix: str) -> Q:
        """``public_q`` seen from a row that points here through ``prefix`` (e.g. a
        registration's ``tournament``)."""
        return Q(**{f"{prefix}__pk__in": self.public_rows().values("pk")})
