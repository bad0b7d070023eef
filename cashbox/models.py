"""The club's cash box (Kasse): a ledger of bookings in integer cents (design decision 11).

A booking is never edited or deleted: a wrong one is reversed by a booking of the opposite
amount that names it (``reverses``), at most once (a unique constraint, so that two cashiers
reversing it at the same moment cannot both succeed). The amount is signed: positive money
comes into the box, negative goes out; the kind fixes the sign (a check constraint):
contributions and fines come in, expenses and payouts go out, a correction goes either way,
a reversal is the opposite of what it reverses. The balance is the sum of all amounts.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from common.models import ChangeLog


class Immutable(Exception):
    """A booking was to be changed or deleted: it may only be reversed."""


class BookingQuerySet(models.QuerySet["Booking"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise Immutable("bookings are never changed; reverse one instead")

    def delete(self) -> NoReturn:
        raise Immutable("bookings are never deleted; reverse one instead")


class Booking(models.Model):
    class Kind(models.TextChoices):
        CONTRIBUTION = "contribution", _("contribution")
        FINE = "fine", _("fine")
        EXPENSE = "expense", _("expense")
        PAYOUT = "payout", _("payout")
        CORRECTION = "correction", _("correction")
        REVERSAL = "reversal", _("reversal")

    #: The kinds that bring money in, those that take it out (the rest: either way).
    INCOMING: ClassVar[tuple[str, ...]] = (Kind.CONTRIBUTION, Kind.FINE)
    OUTGOING: ClassVar[tuple[str, ...]] = (Kind.EXPENSE, Kind.PAYOUT)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="bookings")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    cents = models.BigIntegerField(_("amount in cents"))
    booked_on = models.DateField(_("date"))
    text = models.CharField(_("text"), max_length=200)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("member"),
    )
    reverses = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="reversals",
        verbose_name=_("reverses"),
    )
    booked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=80)  # "organizer alice"
    booked_at = models.DateTimeField(auto_now_add=True)

    objects = BookingQuerySet.as_manager()

    class Meta:
        ordering = ["booked_on", "pk"]
        verbose_name = _("booking")
        verbose_name_plural = _("bookings")
        constraints = [
            models.UniqueConstraint(fields=["reverses"], name="cashbox_booking_reversed_once"),
            models.CheckConstraint(condition=~Q(cents=0), name="cashbox_booking_not_zero"),
            models.CheckConstraint(
                condition=(
                    Q(kind__in=["contribution", "fine"], cents__gt=0)
                    | Q(kind__in=["expense", "payout"], cents__lt=0)
                    | Q(kind__in=["correction", "reversal"])
                ),
                name="cashbox_booking_sign_by_kind",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind="reversal", reverses__isnull=False)
                    | (~Q(kind="reversal") & Q(reverses__isnull=True))
                ),
                name="cashbox_booking_reversal_names_its_booking",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.booked_on} {self.get_kind_display()} {self.cents} ct: {self.text}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise Immutable("bookings are never changed; reverse one instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise Immutable("bookings are never deleted; reverse one instead")


class CashboxChange(ChangeLog):
    """Every booking and every reversal in the cash box's log: who, when, through which door
    (``after``: the booking; a reversal's ``before``: the booking it reverses)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="cashbox_changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("cash box change")
        verbose_name_plural = _("cash box changes")
