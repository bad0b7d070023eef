"""Booking a closed evening's payments into the club's cash box (docs/cashbox.md).

In the mode "alles in die Kasse" every player with a negative balance pays it into the box:
one contribution per paying player, dated the evening, "Spielabend 27.11.2026 - Anna".
In the mode "wer zahlt wem" the players pay each other and nothing is booked. The evening's
row is locked, so two people booking it at once are taken one after the other: the second
finds it booked and gets the first answer; the unique constraint on evening and player
stands behind the lock. Who may: ``clubs.roles.EVENING_PAYMENTS`` (owners, organizers,
cashiers). Every booking is logged in the cash box's log, the evening's booking in its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from cashbox.models import Booking
from cashbox.services import BookingData, add_booking, locked_club
from common.actors import Actor
from common.services import Refusal, ServiceError
from evenings.models import Evening, EveningChange, EveningPayment, Group
from evenings.permissions import may_book_payments


@dataclass(frozen=True)
class Booked:
    """The evening's payments in the cash box; ``again``: they were booked before (a second
    click, a retried request): nothing new was booked."""

    payments: list[EveningPayment]
    again: bool

    @property
    def cents(self) -> int:
        return sum(p.cents for p in self.payments)


def _refuse(code: str, message: str, refusal: Refusal = Refusal.CONFLICT) -> ServiceError:
    return ServiceError(code, message, refusal=refusal)


def payments_of(evening: Evening) -> list[EveningPayment]:
    """The evening's payments, each with ``is_reversed`` (its booking reversed in the box)."""
    reversed_ = Booking.objects.filter(reverses=OuterRef("booking"))
    rows = EveningPayment.objects.filter(evening=evening).annotate(is_reversed=Exists(reversed_))
    return list(rows.order_by("pk"))


def payment_text(evening: Evening, name: str) -> str:
    """The booking's text: "Spielabend 27.11.2026 - Anna" (in the language of the request)."""
    date = formats.date_format(evening.date, "SHORT_DATE_FORMAT")
    return _("Evening %(date)s – %(name)s") % {"date": date, "name": name}


def to_book(evening: Evening) -> list[tuple[int, str, int]]:
    """(player, name, cents) of every player who pays into the cash box after the evening,
    from its stored settlement; empty unless it is closed and settles into the box."""
    figures = evening.settlement
    if figures is None or figures["mode"] != Group.Settlement.CASHBOX:
        return []
    return [
        (t["payer"], t["payer_name"], t["cents"])
        for t in figures["transfers"]
        if t["payee"] is None and t["cents"] > 0
    ]


@transaction.atomic
def book_payments(evening: Evening, *, actor: Actor) -> Booked:
    """Book the closed evening's payments into the club's cash box, once."""
    evening = Evening.objects.select_for_update().select_related("group__club").get(pk=evening.pk)
    club = evening.group.club
    if actor.user is None or not may_book_payments(actor.user, club):
        raise _refuse(
            "forbidden",
            _("Only the club's owners, organizers and cashiers book an evening's payments."),
            Refusal.FORBIDDEN,
        )
    done = payments_of(evening)
    if done:
        return Booked(done, again=True)
    if evening.status != Evening.Status.CLOSED:
        raise _refuse("not_closed", _("Close the evening before booking its payments."))
    if evening.settlement is None or evening.settlement["mode"] != Group.Settlement.CASHBOX:
        raise _refuse(
            "players_pay_each_other",
            _("This group settles who pays whom: nothing goes into the cash box."),
        )
    due = to_book(evening)
    if not due:
        raise _refuse("nothing_to_pay", _("Nobody pays into the cash box after this evening."))
    club = locked_club(club)
    booked_on = min(evening.date, timezone.localdate())
    payments = []
    try:
        with transaction.atomic():  # the constraint decides a race the lock did not see
            for player, name, cents in due:
                data = BookingData(
                    Booking.Kind.CONTRIBUTION, cents, booked_on, payment_text(evening, name)
                )
                booking = add_booking(club, data, actor=actor)
                payments.append(
                    EveningPayment.objects.create(
                        evening=evening, player_id=player, booking=booking, cents=cents
                    )
                )
    except IntegrityError as exc:
        raise _refuse("already_booked", _("This evening's payments are already booked.")) from exc
    EveningChange.objects.create(
        club=club,
        action="evenings.evening.booked",
        after={
            "evening": evening.pk,
            "bookings": [p.booking_id for p in payments],
            "cents": sum(p.cents for p in payments),
        },
        user=actor.user,
        via=actor.describe(),
    )
    for payment in payments:
        payment.is_reversed = False  # type: ignore[attr-defined]
    return Booked(payments, again=False)
