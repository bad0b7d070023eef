"""Entry fees and prize money (glossary: Startgeld, Preisgeld).

Money is integer cents (design decision 11). A fee's status is never stored as such: every
tap at the desk is a ``Booking`` (paid, waived, open again), appended and never edited; the
status is the latest booking's, and taking a payment back is a booking of its own that
reverses it (a negative amount). ``Booking.number`` counts a registration's bookings: it is
the version a cashier's page saw, and the database refuses two bookings of one number, so two
cashiers cannot overwrite each other unseen.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from common.models import ChangeLog
from tournaments.models import Registration, Tournament

#: The longest label of a reduced fee ("Jugend", "Mitglied", "Ermäßigt").
MAX_LABEL = 40


class FeeSettings(models.Model):
    """A tournament's standard fee and where its prize pot comes from."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="fee_settings"
    )
    standard_cents = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    #: A fixed prize pot; None: the pot is the fees received.
    pot_cents = models.PositiveIntegerField(_("prize pot (cents)"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("fee settings")
        verbose_name_plural = _("fee settings")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.standard_cents}"


class ReducedFee(models.Model):
    """A reduced fee of a tournament with its label (e.g. "Jugend" 5.00)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="reduced_fees"
    )
    label = models.CharField(_("label"), max_length=MAX_LABEL)
    cents = models.PositiveIntegerField(_("amount (cents)"))

    class Meta:
        ordering = ["tournament", "cents", "label"]
        verbose_name = _("reduced fee")
        verbose_name_plural = _("reduced fees")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "label"], name="reduced_fee_label_once")
        ]

    def __str__(self) -> str:
        return self.label


class Booking(models.Model):
    """One tap at the desk: a registration's fee paid, waived or open again."""

    class Kind(models.TextChoices):
        PAID = "paid", _("paid")
        WAIVED = "waived", _("waived")
        OPEN = "open", _("open")

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        TRANSFER = "transfer", _("bank transfer")
        OTHER = "other", _("other")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="fee_bookings"
    )
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="fee_bookings"
    )
    #: The registration's n-th booking (1, 2, …): the version of its fee after it.
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: The fee due: its label ("" for the standard fee) and amount when booked.
    fee_label = models.CharField(max_length=MAX_LABEL, blank=True)
    fee_cents = models.PositiveIntegerField(default=0)
    #: Money received (positive) or paid back (negative, reversing a payment).
    amount_cents = models.IntegerField(default=0)
    method = models.CharField(max_length=10, choices=Method.choices, blank=True)
    #: The payment this booking takes back, if it does.
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    #: The idempotency key of the request that made it ("" without one).
    key = models.CharField(max_length=64, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["registration", "number"]
        verbose_name = _("fee booking")
        verbose_name_plural = _("fee bookings")
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "number"], name="fee_booking_number_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "key"], condition=~Q(key=""), name="fee_booking_key_once"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="fee_booking_number_positive"),
            # Money moves with a method; a payment brings money in, the rest takes it back.
            models.CheckConstraint(
                condition=Q(amount_cents=0) | ~Q(method=""), name="fee_booking_money_has_method"
            ),
            models.CheckConstraint(
                condition=~Q(kind="paid") | Q(amount_cents__gte=0),
                name="fee_booking_payment_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(kind="paid") | Q(amount_cents__lte=0),
                name="fee_booking_only_payments_bring_money",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration_id} #{self.number} {self.kind} {self.amount_cents}"


class Prize(models.Model):
    """A line of a tournament's prize table: the prize of a ``place``, or a ``special``
    prize (the best solo player, the best series); an amount in ``cents`` or a ``share`` of
    the pot in basis points (10000: all of it)."""

    class Special(models.TextChoices):
        SOLOS_WON = "solos_won", _("best solo player")
        BEST_SERIES = "best_series", _("best series")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    special = models.CharField(
        _("special prize"), max_length=20, choices=Special.choices, blank=True
    )
    cents = models.PositiveIntegerField(_("amount (cents)"), null=True, blank=True)
    share = models.PositiveIntegerField(_("share of the pot (basis points)"), null=True, blank=True)

    class Meta:
        # The places in order, then the special prizes (NULL sorts apart on each database).
        ordering = ["tournament", F("place").asc(nulls_last=True), "special"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "place"],
                condition=Q(place__isnull=False),
                name="prize_place_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "special"],
                condition=~Q(special=""),
                name="prize_special_once",
            ),
            models.CheckConstraint(
                condition=(Q(place__isnull=False) & Q(special=""))
                | (Q(place__isnull=True) & ~Q(special="")),
                name="prize_place_or_special",
            ),
            models.CheckConstraint(
                condition=(Q(cents__isnull=False) & Q(share__isnull=True))
                | (Q(cents__isnull=True) & Q(share__isnull=False)),
                name="prize_amount_or_share",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="prize_place_positive"
            ),
            models.CheckConstraint(
                condition=Q(share__isnull=True) | Q(share__lte=10000),
                name="prize_share_at_most_all",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.place or self.special}: {self.cents or self.share}"


class FeeChange(ChangeLog):
    """Every fee booking and every change of a tournament's fees and prize table: who,
    when, through which door, before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="fee_changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("fee change")
        verbose_name_plural = _("fee changes")
