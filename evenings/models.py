"""A club's evenings (Spielabend): a group of players from the registry that meets, its
evenings, their tables of 4 to 7 and the games entered at them (docs/evenings.md).

A game keeps what scored it: the profile's name and version, the entry kind (quick or
full), the facts as entered (a quick entry's facts or the engine's record), the Bock level
the engine gave it and every player's points. A closed evening keeps its settlement as
figures (``settlement``), computed once by ``cashbox.settlement``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cashbox.models import Booking
from clubs.models import Club
from common.models import ChangeLog
from rules.ruleset import PROFILES
from tournaments.models import Player

#: The profiles' names in the page's language (the engine's labels are its own).
PROFILE_LABELS = {
    "ddv": _("DDV tournament rules"),
    "haus_25": _("DDV, 25 games at a table of five"),
    "haus_bock": _("House rules with Bock (up to Double Bock)"),
    "haus_mit_bock": _("House rules with Bock, Armut and Schweinchen"),
    "kneipe": _("Pub rules (winners write, Bock queued)"),
}
PROFILE_CHOICES = [(name, PROFILE_LABELS.get(name, rs.label)) for name, rs in PROFILES.items()]


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Group(models.Model):
    class Settlement(models.TextChoices):
        TRANSFERS = "transfers", _("who pays whom")
        CASHBOX = "cashbox", _("everything into the cash box")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evening_groups")
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name"), max_length=60)
    profile = models.CharField(
        _("house rules"), max_length=40, choices=PROFILE_CHOICES, default="haus_mit_bock"
    )
    cents_per_point = models.PositiveIntegerField(_("cents per point"), default=5)
    settlement = models.CharField(
        _("settlement"), max_length=20, choices=Settlement.choices, default=Settlement.TRANSFERS
    )
    is_public = models.BooleanField(_("public"), default=False)
    # The club championship's rule (``evenings.championship``): a preset of
    # ``seasons.ranking.EVENING_PRESETS`` with overrides checked by
    # ``seasons.rules.EVENING_OVERRIDES`` (data, like a season's rule).
    ranking_preset = models.CharField(
        _("championship rule"), max_length=40, default="club_championship"
    )
    ranking_overrides = models.JSONField(_("championship rule overrides"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="evenings_group_slug_per_club")
        ]

    def __str__(self) -> str:
        return self.name


class GroupMember(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__last_name", "player__first_name"]
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="evenings_member_once")
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.player}"


class Evening(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("running")
        CLOSED = "closed", _("closed")

    class End(models.TextChoices):
        OPEN = "open", _("open end")
        ROUNDS = "rounds", _("a number of rounds")
        TIME = "time", _("an end time")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="evenings")
    date = models.DateField(_("date"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    end = models.CharField(_("end"), max_length=10, choices=End.choices, default=End.OPEN)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    ends_at = models.TimeField(_("end time"), null=True, blank=True)
    #: The settlement as figures, stored when the evening is closed.
    settlement = models.JSONField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")

    def __str__(self) -> str:
        return f"{self.group} {self.date}"


class EveningTable(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=40, unique=True, default=new_token)
    #: The players' ids in seat order (4 to 7).
    seats = models.JSONField(default=list)
    #: The position in ``seats`` of the next game's dealer.
    dealer = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="evenings_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.number}"


class EveningGame(models.Model):
    class Kind(models.TextChoices):
        QUICK = "quick", _("quick")
        FULL = "full", _("full")

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: A quick entry's facts, or the engine's game record (``rules.gamerecord``).
    facts = models.JSONField()
    #: Player id (as text) → points of this game; players who sat out have 0.
    points = models.JSONField()
    seats = models.JSONField()  # the players at the table, in order, when it was played
    dealer = models.PositiveSmallIntegerField()  # position in ``seats``
    bock = models.PositiveSmallIntegerField(default=0)
    fired = models.PositiveSmallIntegerField(default=0)  # Bock triggers of this game
    profile = models.CharField(max_length=40)
    profile_version = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=64, blank=True, default="")  # a retry's idempotency key
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    via = models.CharField(max_length=80)
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="evenings_game_number"),
            models.UniqueConstraint(
                fields=["table", "key"], condition=~Q(key=""), name="evenings_game_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}"


class EveningPayment(models.Model):
    """A player's payment of a closed evening, booked into the club's cash box as a
    contribution: one per evening and player (the constraint makes booking an evening twice
    book nothing twice). A reversal in the cash box leaves it here: the evening stays booked."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="payments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    booking = models.OneToOneField(
        Booking, on_delete=models.PROTECT, related_name="evening_payment"
    )
    cents = models.PositiveIntegerField()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player"], name="evenings_payment_once_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.evening}: {self.player} {self.cents} ct"


class EveningChange(ChangeLog):
    """Every change of a club's groups and evenings, with who made it and through which door."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evening_changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("evening change")
        verbose_name_plural = _("evening changes")
