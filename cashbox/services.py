"""The cash box's use cases: book, reverse a booking; its reads: the ledger and the balance.

Each use case locks the club's row, so two cashiers booking at once are taken one after the
other, and logs in ``CashboxChange``. A booking is never changed: ``reverse_booking`` books
its opposite, once (``Booking``'s unique constraint backs the check when two reversals race).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cashbox.models import Booking, CashboxChange
from cashbox.money import MAX_CENTS
from cashbox.permissions import keeps_cashbox
from clubs.models import Club, Membership
from common.actors import Actor
from common.services import Refusal, ServiceError

MAX_TEXT = 200
#: The kinds a cashier books himself (a reversal is booked by ``reverse_booking``).
BOOKABLE = tuple(kind for kind in Booking.Kind if kind != Booking.Kind.REVERSAL)


@dataclass(frozen=True)
class BookingData:
    """A booking as typed: ``cents`` without a sign for the kinds that fix it (the kind
    says which way the money goes), with one for a correction; ``member``: a user's id."""

    kind: str
    cents: int
    booked_on: datetime.date
    text: str
    member: int | None = None


def _require_keeper(club: Club, actor: Actor) -> Any:
    user = actor.user
    if user is None or not keeps_cashbox(user, club):
        raise ServiceError(
            "forbidden",
            _("Only the club's owners and cashiers keep its cash box."),
            refusal=Refusal.FORBIDDEN,
        )
    return user


def locked_club(club: Club) -> Club:
    """The club's row, locked: the cash box's use cases are taken one after the other."""
    return Club.objects.select_for_update().get(pk=club.pk)


def _entry(booking: Booking) -> dict[str, Any]:
    return {
        "booking": booking.pk,
        "kind": booking.kind,
        "cents": booking.cents,
        "booked_on": booking.booked_on.isoformat(),
        "text": booking.text,
        "member": booking.member_id,
    }


def _log(club: Club, action: str, actor: Actor, before: Any = None, after: Any = None) -> None:
    CashboxChange.objects.create(
        club=club, action=action, before=before, after=after, user=actor.user,
        via=actor.describe(),
    )  # fmt: skip


def _signed(data: BookingData) -> int:
    """The stored amount: the sign from the kind; refuses what makes no sense."""
    if data.kind not in BOOKABLE:
        raise ServiceError("invalid_kind", _("Choose what kind of booking this is."), "kind")
    if data.cents == 0:
        raise ServiceError("zero_amount", _("Enter an amount other than zero."), "amount")
    if abs(data.cents) > MAX_CENTS:
        raise ServiceError(
            "amount_too_large", _("Enter at most one million euros per booking."), "amount"
        )
    if data.kind == Booking.Kind.CORRECTION:
        return data.cents
    if data.cents < 0:
        raise ServiceError(
            "signed_amount",
            _("Enter the amount without a sign: the kind says whether it comes in or goes out."),
            "amount",
        )
    return -data.cents if data.kind in Booking.OUTGOING else data.cents


@transaction.atomic
def book(club: Club, data: BookingData, *, actor: Actor) -> Booking:
    """Book money into or out of the club's cash box (its owners and cashiers)."""
    club = locked_club(club)
    _require_keeper(club, actor)
    return add_booking(club, data, actor=actor)


def add_booking(club: Club, data: BookingData, *, actor: Actor) -> Booking:
    """Check, store and log one booking, inside the caller's transaction and with the club's
    row locked by the caller (``locked_club``). Who may book is the caller's question:
    ``book`` asks it for the cash box's own form, an app above asks its own rule (the
    evenings: a closed evening's payments, ``clubs.roles.EVENING_PAYMENTS``)."""
    cents = _signed(data)
    text = data.text.strip()
    if not text:
        raise ServiceError("text_missing", _("Say what the booking is for."), "text")
    if len(text) > MAX_TEXT:
        raise ServiceError(
            "text_too_long", _("Use at most %(count)d characters.") % {"count": MAX_TEXT}, "text"
        )
    if data.booked_on > timezone.localdate():
        raise ServiceError("future_date", _("A booking cannot be dated in the future."), "date")
    if (
        data.member is not None
        and not Membership.objects.filter(club=club, user_id=data.member).exists()
    ):
        raise ServiceError("not_member", _("Choose a member of the club."), "member")
    booking = Booking.objects.create(
        club=club, kind=data.kind, cents=cents, booked_on=data.booked_on, text=text,
        member_id=data.member, booked_by=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
    )  # fmt: skip
    _log(club, "cashbox.booking.added", actor, after=_entry(booking))
    return booking


@transaction.atomic
def reverse_booking(club: Club, booking_id: int, *, actor: Actor) -> Booking:
    """Book the opposite of the booking ``booking_id``, dated today; once per booking."""
    club = locked_club(club)
    user = _require_keeper(club, actor)
    original = Booking.objects.filter(club=club, pk=booking_id).first()
    if original is None:
        raise ServiceError(
            "no_booking", _("This booking does not exist."), refusal=Refusal.NOT_FOUND
        )
    if original.kind == Booking.Kind.REVERSAL:
        raise ServiceError(
            "reversal_of_reversal",
            _("A reversal cannot be reversed: book the amount again instead."),
        )
    if original.reversals.exists():
        raise _already_reversed()
    try:
        with transaction.atomic():  # the constraint decides a race the lock did not see
            reversal = Booking.objects.create(
                club=club,
                kind=Booking.Kind.REVERSAL,
                cents=-original.cents,
                booked_on=timezone.localdate(),
                text=(_("Reversal: %(text)s") % {"text": original.text})[:MAX_TEXT],
                member_id=original.member_id,
                reverses=original,
                booked_by=user,
                via=actor.describe(),
            )
    except IntegrityError as exc:
        raise _already_reversed() from exc
    _log(club, "cashbox.booking.reversed", actor, before=_entry(original), after=_entry(reversal))
    return reversal


def _already_reversed() -> ServiceError:
    return ServiceError(
        "already_reversed", _("This booking has already been reversed."), refusal=Refusal.CONFLICT
    )


# --- reads ---------------------------------------------------------------------------------


def ledger(club: Club) -> QuerySet[Booking]:
    """The club's bookings, oldest first, each with ``is_reversed``; one statement."""
    reversed_ = Booking.objects.filter(reverses=OuterRef("pk"))
    return (
        Booking.objects.filter(club=club)
        .annotate(is_reversed=Exists(reversed_))
        .select_related("member", "booked_by", "reverses")
        .order_by("booked_on", "pk")
    )


def balance(club: Club) -> int:
    """The cash box's balance in cents: everything in minus everything out."""
    total = Booking.objects.filter(club=club).aggregate(total=Sum("cents"))["total"]
    return int(total or 0)


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("user__username")
