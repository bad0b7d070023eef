"""What the fee pages read: the desk's list, the cash report, the payout list. Reads only:
they change nothing and need no transaction of their own."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Sum

from fees import payouts as core
from fees.models import Booking, Prize
from fees.services import fees_of, settings_of
from scoring.standings import overall_standings
from tournaments.models import Registration, Series, Tournament
from tournaments.names import by_name


@dataclass(frozen=True)
class DeskRow:
    """A player at the desk with his fee as it is now."""

    registration: Registration
    status: str
    version: int
    fee_label: str
    fee_cents: int
    received_cents: int


def _bookings(tournament: Tournament) -> dict[int, list[Booking]]:
    found: dict[int, list[Booking]] = defaultdict(list)
    for booking in Booking.objects.filter(tournament=tournament).order_by("registration", "number"):
        found[booking.registration_id].append(booking)
    return found


def desk_rows(tournament: Tournament) -> list[DeskRow]:
    """Every registration by name with its fee's status (two statements)."""
    standard = settings_of(tournament).standard_cents
    bookings = _bookings(tournament)
    rows = []
    registrations = by_name(tournament.registrations.select_related("player"), lambda r: r.player)
    for registration in registrations:
        mine = bookings.get(registration.pk, [])
        if not mine:
            rows.append(DeskRow(registration, Booking.Kind.OPEN, 0, "", standard, 0))
            continue
        last = mine[-1]
        received = sum(b.amount_cents for b in mine)
        rows.append(
            DeskRow(registration, last.kind, last.number, last.fee_label, last.fee_cents, received)
        )
    return rows


@dataclass(frozen=True)
class CashReport:
    """The cash box of a tournament: the fees expected (every player's fee but the
    waived), received (net of money paid back), open and waived, and the money by method."""

    players: int
    expected_cents: int
    received_cents: int
    paid_count: int
    open_count: int
    open_cents: int
    waived_count: int
    waived_cents: int
    by_method: tuple[tuple[str, int], ...]  # (method's label, net cents)
    by_fee: tuple[tuple[str, int, int], ...]  # (fee's label, players paid, cents due)

    @property
    def expected_count(self) -> int:
        return self.players - self.waived_count

    @property
    def difference_cents(self) -> int:
        """Received minus the fees of those marked paid (0 when the box is right)."""
        paid_due = sum(cents for _label, _count, cents in self.by_fee)
        return self.received_cents - paid_due


def cash_report(tournament: Tournament) -> CashReport:
    rows = desk_rows(tournament)
    labels = dict(Booking.Method.choices)
    methods = (
        Booking.objects.filter(tournament=tournament)
        .exclude(method="")
        .values_list("method")
        .annotate(total=Sum("amount_cents"))
        .order_by("method")
    )
    by_method = tuple((str(labels.get(m, m)), total) for m, total in methods)
    paid = [r for r in rows if r.status == Booking.Kind.PAID]
    waived = [r for r in rows if r.status == Booking.Kind.WAIVED]
    still_open = [r for r in rows if r.status == Booking.Kind.OPEN]
    fees: dict[str, list[int]] = {}
    for row in paid:
        fees.setdefault(row.fee_label, []).append(row.fee_cents)
    return CashReport(
        players=len(rows),
        expected_cents=sum(r.fee_cents for r in rows if r.status != Booking.Kind.WAIVED),
        received_cents=sum(r.received_cents for r in rows),
        paid_count=len(paid),
        open_count=len(still_open),
        open_cents=sum(r.fee_cents for r in still_open),
        waived_count=len(waived),
        waived_cents=sum(r.fee_cents for r in waived),
        by_method=by_method,
        by_fee=tuple((label, len(c), sum(c)) for label, c in sorted(fees.items())),
    )


#: How many bookings the cash report lists, newest first.
LATEST = 50


def latest_bookings(tournament: Tournament) -> list[Booking]:
    """The newest bookings of the ledger with their players and who booked them."""
    rows = Booking.objects.filter(tournament=tournament).select_related(
        "registration__player", "user"
    )
    return list(rows.order_by("-created_at", "-pk")[:LATEST])


# --- The payout list ------------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutLine:
    place: int
    shared_with: int
    start_number: int
    name: str
    club: str
    place_cents: int
    specials: tuple[tuple[str, int], ...]  # (special prize's label, cents)
    cents: int


@dataclass(frozen=True)
class PayoutList:
    """The payout list of the standings as they are; ``final``: every series is closed
    (before that it is a preview and no list to pay out by)."""

    final: bool
    pot_cents: int
    pot_is_fees: bool
    #: The prize table resolved: (place, or None for a special prize; its label; cents).
    prizes: tuple[tuple[int | None, str, int], ...]
    lines: tuple[PayoutLine, ...]  # the players paid something
    total_cents: int
    unpaid_cents: int

    @property
    def has_prizes(self) -> bool:
        return bool(self.prizes)


def is_final(tournament: Tournament) -> bool:
    series = tournament.series.values_list("status", flat=True)
    statuses = list(series)
    return bool(statuses) and all(s == Series.Status.CLOSED for s in statuses)


def payout_list(tournament: Tournament) -> PayoutList:
    settings = settings_of(tournament)
    received = Booking.objects.filter(tournament=tournament).aggregate(s=Sum("amount_cents"))
    pot_is_fees = settings.pot_cents is None
    pot = int(received["s"] or 0) if pot_is_fees else int(settings.pot_cents or 0)
    prizes = list(Prize.objects.filter(tournament=tournament))
    lines = overall_standings(tournament, keeper=True)
    by_key = {int(line["registration"]): line for line in lines}
    finishers = [
        core.Finisher(key=int(line["registration"]), place=int(line["place"]),
                      start_number=int(line["start_number"]))
        for line in lines
    ]  # fmt: skip
    metrics = {
        Prize.Special.SOLOS_WON: {k: int(line["solos_won"]) for k, line in by_key.items()},
        Prize.Special.BEST_SERIES: {
            k: max((p for p in line["series"] if p is not None), default=0)
            for k, line in by_key.items()
        },
    }
    labels = dict(Prize.Special.choices)
    specials = [
        core.SpecialPrize(
            key=p.special, label=str(labels[p.special]), cents=p.cents or 0, share=p.share or 0,
            winners=core.best(metrics[Prize.Special(p.special)]),
        )
        for p in prizes if p.special
    ]  # fmt: skip
    places = [
        core.PlacePrize(p.place, cents=p.cents or 0, share=p.share or 0)
        for p in prizes
        if p.place is not None
    ]
    result = core.payouts(finishers, places, pot=pot, specials=specials)
    shown = []
    for payout in result.lines:
        if not payout.cents:
            continue
        line = by_key[payout.key]
        shown.append(
            PayoutLine(
                place=payout.place,
                shared_with=payout.shared_with,
                start_number=int(line["start_number"]),
                name=str(line["name"]),
                club=str(line["club"]),
                place_cents=payout.place_cents,
                specials=tuple((str(labels[k]), c) for k, c in payout.special_cents.items()),
                cents=payout.cents,
            )
        )
    table: list[tuple[int | None, str, int]] = [
        (place, "", cents) for place, cents in sorted(result.place_amounts.items())
    ]
    table += [(None, str(labels[k]), cents) for k, cents in result.special_amounts.items()]
    return PayoutList(
        final=is_final(tournament),
        pot_cents=pot,
        pot_is_fees=pot_is_fees,
        prizes=tuple(table),
        lines=tuple(shown),
        total_cents=result.total,
        unpaid_cents=result.unpaid_cents,
    )


def fee_choices(tournament: Tournament) -> list[tuple[str, int]]:
    """(label, cents) of every fee, the standard fee first (label "")."""
    fees = fees_of(tournament)
    return [("", fees.pop("")), *sorted(fees.items(), key=lambda item: (item[1], item[0]))]
