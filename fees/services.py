"""The fee work's use cases: book a fee at the desk, set a tournament's fees, set its prize
table. Each runs in one transaction, asks ``fees.permissions`` who may, and leaves an entry
in the tournament's fee log (``FeeChange``).

Booking a fee locks the registration's row, so two cashiers tapping the same player queue;
the second then sees the first one's booking. A tap carries the version its page showed (the
number of the registration's bookings) and may carry an idempotency key: a request sent
again after a lost answer finds its booking by the key and books nothing twice; a tap that
asks for the status the fee already has books nothing; a tap on a version that has moved on
is refused as a conflict that says the status now. The database refuses two bookings of one
number whatever happens (``fee_booking_number_once``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from fees.models import MAX_LABEL, Booking, FeeChange, FeeSettings, Prize, ReducedFee
from fees.payouts import WHOLE
from fees.permissions import may_handle_fees
from tournaments.models import Registration, Tournament

PAID = "fees.fee.paid"
WAIVED = "fees.fee.waived"
REOPENED = "fees.fee.reopened"
SETTINGS_CHANGED = "fees.settings.changed"
PRIZES_CHANGED = "fees.prizes.changed"
ACTION_OF_KIND = {Booking.Kind.PAID: PAID, Booking.Kind.WAIVED: WAIVED, Booking.Kind.OPEN: REOPENED}
#: The largest amount of money a field takes: 1,000,000.00.
MAX_CENTS = 100_000_000
MAX_REDUCED_FEES = 5
MAX_PRIZES = 100


def _require(tournament: Tournament, actor: Actor) -> None:
    if actor.user is None or not may_handle_fees(actor.user, tournament):
        raise ServiceError(
            "forbidden",
            _("Only the organizers and cashiers of this tournament's club handle its fees."),
            refusal=Refusal.FORBIDDEN,
        )


def _log(tournament: Tournament, action: str, actor: Actor, before: Any, after: Any) -> None:
    FeeChange.objects.create(
        tournament=tournament,
        action=action,
        before=before,
        after=after,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
    )


def settings_of(tournament: Tournament) -> FeeSettings:
    """The tournament's fee settings (unsaved defaults when none are stored yet)."""
    found = FeeSettings.objects.filter(tournament=tournament).first()
    return found or FeeSettings(tournament=tournament)


def fees_of(tournament: Tournament) -> dict[str, int]:
    """Label → fee in cents; the standard fee under ``""``."""
    fees = {"": settings_of(tournament).standard_cents}
    fees.update(ReducedFee.objects.filter(tournament=tournament).values_list("label", "cents"))
    return fees


# --- Booking a fee ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FeeState:
    """A registration's fee after a tap: its status, version (the number of its bookings),
    the fee due (label and cents), the money received net, and the booking the tap made
    (None: it booked nothing, the fee already had that status)."""

    status: str
    version: int
    fee_label: str
    fee_cents: int
    received_cents: int
    booking: Booking | None
    replayed: bool = False  # the same request again: its booking, found by its key


def state_of(registration: Registration, bookings: Sequence[Booking]) -> FeeState:
    """The fee's state after ``bookings`` (the registration's, in order)."""
    if not bookings:
        fees = fees_of(registration.tournament)
        return FeeState(Booking.Kind.OPEN, 0, "", fees[""], 0, None)
    last = bookings[-1]
    received = sum(b.amount_cents for b in bookings)
    return FeeState(last.kind, last.number, last.fee_label, last.fee_cents, received, last)


def _conflict(state: FeeState) -> ServiceError:
    words = {
        Booking.Kind.PAID: _("paid"),
        Booking.Kind.WAIVED: _("waived"),
        Booking.Kind.OPEN: _("open"),
    }
    return ServiceError(
        "fee_changed",
        _("Someone booked this fee in the meantime: it is now %(status)s. Nothing was booked.")
        % {"status": words[Booking.Kind(state.status)]},
        refusal=Refusal.CONFLICT,
        data={"status": state.status, "version": state.version},
    )


@transaction.atomic
def book_fee(
    registration: Registration,
    kind: str,
    *,
    expected_version: int | None,
    actor: Actor,
    fee_label: str = "",
    method: str = Booking.Method.CASH,
    key: str = "",
) -> FeeState:
    """Mark a registration's fee ``kind`` (paid, waived, open). A payment books the fee of
    ``fee_label`` ("" the standard fee) received by ``method``; waiving or reopening a paid
    fee books its reversal (the money paid back). ``expected_version``: the version the
    cashier's page showed (None: whatever it is now)."""
    tournament = registration.tournament
    _require(tournament, actor)
    if kind not in Booking.Kind.values:
        raise ServiceError("fee_kind", _("Choose paid, open or waived."), field="kind")
    key = key[:64]
    # Lock the registration: bookings of one player's fee queue here.
    Registration.objects.select_for_update().only("pk").get(pk=registration.pk)
    if key:
        earlier = Booking.objects.filter(tournament=tournament, key=key).first()
        if earlier is not None:
            if earlier.registration_id != registration.pk:
                raise ServiceError("fee_key_reused", _("This request was used for another player."))
            bookings = list(
                Booking.objects.filter(registration=registration, number__lte=earlier.number)
            )
            replay = state_of(registration, bookings)
            return replace(replay, booking=earlier, replayed=True)
    bookings = list(Booking.objects.filter(registration=registration).order_by("number"))
    state = state_of(registration, bookings)
    if state.status == kind:
        return replace(state, booking=None)  # nothing to book
    if expected_version is not None and expected_version != state.version:
        raise _conflict(state)

    fees = fees_of(tournament)
    if kind == Booking.Kind.PAID:
        if fee_label not in fees:
            raise ServiceError("fee_unknown", _("This fee does not exist."), field="fee")
        if method not in Booking.Method.values:
            raise ServiceError("fee_method", _("Choose how it was paid."), field="method")
        booking_fee_label, booking_fee = fee_label, fees[fee_label]
        amount, reverses, how = booking_fee, None, method if booking_fee else ""
    else:
        # Waived or open again: a payment on record is paid back (its reversal).
        payment = next(
            (b for b in reversed(bookings) if b.kind == Booking.Kind.PAID and b.amount_cents),
            None,
        )
        paid_back = state.received_cents if state.status == Booking.Kind.PAID else 0
        reverses = payment if paid_back else None
        how = payment.method if reverses is not None and payment is not None else ""
        amount = -paid_back
        booking_fee_label = state.fee_label if state.booking is not None else ""
        booking_fee = fees.get(booking_fee_label, fees[""])
    booking = Booking.objects.create(
        tournament=tournament,
        registration=registration,
        number=state.version + 1,
        kind=kind,
        fee_label=booking_fee_label,
        fee_cents=booking_fee,
        amount_cents=amount,
        method=how,
        reverses=reverses,
        key=key,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
    )
    _log(
        tournament,
        ACTION_OF_KIND[Booking.Kind(kind)],
        actor,
        {"start_number": registration.start_number, "status": state.status},
        {
            "start_number": registration.start_number,
            "status": kind,
            "fee": booking_fee_label,
            "fee_cents": booking_fee,
            "amount_cents": amount,
            "method": how,
            "booking": booking.number,
        },
    )
    return state_of(registration, [*bookings, booking])


# --- Fees and prize table --------------------------------------------------------------------


@dataclass(frozen=True)
class FeeData:
    """A tournament's fees as the form gives them: the standard fee, the reduced fees
    (label, cents) and the prize pot (None: the fees received)."""

    standard_cents: int
    reduced: tuple[tuple[str, int], ...] = ()
    pot_cents: int | None = None


def _check_cents(cents: int | None, field: str) -> None:
    if cents is not None and not 0 <= cents <= MAX_CENTS:
        raise ServiceError(
            "amount_range", _("Enter an amount between 0 and 1,000,000.00."), field=field
        )


def checked_labels(data: FeeData) -> list[str]:
    """The reduced fees' labels, spaces made single, or ``ServiceError`` naming the field
    of the first problem (an amount out of range, a label empty, too long or twice)."""
    _check_cents(data.standard_cents, "standard")
    _check_cents(data.pot_cents, "pot")
    labels = [" ".join(label.split()) for label, _cents in data.reduced]
    for index, (label, cents) in enumerate(zip(labels, (c for _l, c in data.reduced), strict=True)):
        _check_cents(cents, f"reduced-{index}")
        if not label or len(label) > MAX_LABEL:
            raise ServiceError(
                "fee_label", _("Give the reduced fee a name of at most 40 characters."),
                field=f"reduced-{index}",
            )  # fmt: skip
        if labels.index(label) != index:
            raise ServiceError(
                "fee_label_twice", _("Two reduced fees have the same name."),
                field=f"reduced-{index}",
            )  # fmt: skip
    if len(labels) > MAX_REDUCED_FEES:
        raise ServiceError("too_many_fees", _("At most five reduced fees."))
    return labels


@transaction.atomic
def save_fees(tournament: Tournament, data: FeeData, *, actor: Actor) -> FeeSettings:
    """Set the standard fee, the reduced fees and the prize pot. Bookings keep the fee they
    were made with; a changed fee counts for the taps after it."""
    _require(tournament, actor)
    labels = checked_labels(data)
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    current = settings_of(tournament)
    before = {
        "standard_cents": current.standard_cents,
        "pot_cents": current.pot_cents,
        "reduced": dict(
            ReducedFee.objects.filter(tournament=tournament).values_list("label", "cents")
        ),
    }
    current.standard_cents = data.standard_cents
    current.pot_cents = data.pot_cents
    current.save()
    ReducedFee.objects.filter(tournament=tournament).delete()
    ReducedFee.objects.bulk_create(
        ReducedFee(tournament=tournament, label=label, cents=cents)
        for label, (_l, cents) in zip(labels, data.reduced, strict=True)
    )
    after = {
        "standard_cents": data.standard_cents,
        "pot_cents": data.pot_cents,
        "reduced": dict(zip(labels, (c for _l, c in data.reduced), strict=True)),
    }
    if before != after:
        _log(tournament, SETTINGS_CHANGED, actor, before, after)
    return current


@dataclass(frozen=True)
class PrizeLine:
    """A line of the prize table as the form gives it: a place or a special prize, an
    amount in cents or a share in basis points."""

    place: int | None = None
    special: str = ""
    cents: int | None = None
    share: int | None = None


def _prize_json(line: PrizeLine | Prize) -> dict[str, Any]:
    return {"place": line.place, "special": line.special, "cents": line.cents, "share": line.share}


def check_prizes(lines: Sequence[PrizeLine]) -> None:
    """``ServiceError`` naming the line of the first problem of a prize table: each place
    and each special prize once, each with an amount or a share (not both); the shares
    together at most the whole pot."""
    places: set[int] = set()
    specials: set[str] = set()
    for index, line in enumerate(lines):
        field = f"prize-{index}"
        if (line.place is None) == (not line.special):
            raise ServiceError(
                "prize_place", _("Give either a place or a special prize."), field=field
            )
        if (line.cents is None) == (line.share is None):
            raise ServiceError(
                "prize_amount", _("Give either an amount or a share of the pot."), field=field
            )
        _check_cents(line.cents, field)
        if line.share is not None and not 0 < line.share <= WHOLE:
            raise ServiceError(
                "prize_share", _("A share is more than 0 and at most 100 %."), field=field
            )
        if line.place is not None:
            if not 1 <= line.place <= 1000:
                raise ServiceError("prize_place_range", _("Places are 1 to 1000."), field=field)
            if line.place in places:
                raise ServiceError("prize_place_twice", _("This place has a prize already."),
                                   field=field)  # fmt: skip
            places.add(line.place)
        else:
            if line.special not in Prize.Special.values:
                raise ServiceError("prize_special", _("Choose a special prize."), field=field)
            if line.special in specials:
                raise ServiceError("prize_special_twice", _("This special prize is given already."),
                                   field=field)  # fmt: skip
            specials.add(line.special)
    if len(lines) > MAX_PRIZES:
        raise ServiceError("too_many_prizes", _("At most 100 prizes."))
    if sum(line.share or 0 for line in lines) > WHOLE:
        raise ServiceError(
            "prize_shares", _("The shares together are more than the whole pot (100 %)."),
            field="shares",
        )  # fmt: skip


@transaction.atomic
def save_prizes(tournament: Tournament, lines: Sequence[PrizeLine], *, actor: Actor) -> list[Prize]:
    """Replace the tournament's prize table (checked by ``check_prizes``)."""
    _require(tournament, actor)
    check_prizes(lines)
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    before = [_prize_json(p) for p in Prize.objects.filter(tournament=tournament)]
    Prize.objects.filter(tournament=tournament).delete()
    saved = Prize.objects.bulk_create(
        Prize(tournament=tournament, place=line.place, special=line.special, cents=line.cents,
              share=line.share)
        for line in sorted(lines, key=lambda x: (x.place is None, x.place or 0, x.special))
    )  # fmt: skip
    after = [_prize_json(p) for p in saved]
    if before != after:
        _log(tournament, PRIZES_CHANGED, actor, before, after)
    return saved
