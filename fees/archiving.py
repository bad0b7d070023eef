"""The fees' part of a tournament's JSON archive (``tournaments.archive_parts``, key
``fees``; docs/archive.md): the fee settings, the reduced fees, the prize table and the
booking ledger, exported, checked and restored on import.

The ledger travels as it is (every booking with its number, kind, fee, amount, method, the
payment it reverses and its time), so the imported tournament's desk shows every fee's
status and the money received exactly as before. Who booked it stays on the source server
(a user of another server means nothing here); the restored bookings name the import as the
way they came in. The fee log (``FeeChange``) stays on the source server too.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import ServiceError
from fees.models import MAX_LABEL, Booking, FeeSettings, Prize, ReducedFee
from fees.services import MAX_CENTS, FeeData, PrizeLine, check_prizes, checked_labels
from tournaments.archive_parts import ArchivePart, PartProblem
from tournaments.models import Tournament

KEY = "fees"
#: More bookings than any tournament's desk makes: an archive above it is refused.
MAX_BOOKINGS = 200_000
INT32 = 2**31 - 1


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_fees(tournament: Tournament, start_numbers: Mapping[int, int]) -> dict[str, Any]:
    """The tournament's fees as JSON, in a fixed order (the round trip is byte for byte)."""
    current = FeeSettings.objects.filter(tournament=tournament).first()
    columns = ("registration_id", "number", "kind", "fee_label", "fee_cents", "amount_cents",
               "method", "reverses__number", "created_at")  # fmt: skip
    bookings = [
        {
            "start_number": start_numbers[registration],
            "number": number,
            "kind": kind,
            "fee_label": label,
            "fee_cents": fee,
            "amount_cents": amount,
            "method": method,
            "reverses": reverses,
            "at": _time(at),
        }
        for registration, number, kind, label, fee, amount, method, reverses, at in (
            Booking.objects.filter(tournament=tournament).values_list(*columns)
        )
    ]
    bookings.sort(key=lambda b: (b["start_number"], b["number"]))
    return {
        "standard_cents": current.standard_cents if current else 0,
        "pot_cents": current.pot_cents if current else None,
        "reduced": [
            {"label": label, "cents": cents}
            for label, cents in ReducedFee.objects.filter(tournament=tournament).values_list(
                "label", "cents"
            )
        ],
        "prizes": [
            {"place": p.place, "special": p.special, "cents": p.cents, "share": p.share}
            for p in Prize.objects.filter(tournament=tournament)
        ],
        "bookings": bookings,
    }


@dataclass
class BookingIn:
    start_number: int
    number: int
    kind: str
    fee_label: str
    fee_cents: int
    amount_cents: int
    method: str
    reverses: int | None
    at: datetime.datetime | None


@dataclass
class FeesIn:
    fees: FeeData
    prizes: list[PrizeLine]
    bookings: list[BookingIn] = field(default_factory=list)


def _storable(text: str) -> bool:
    """No NUL character and no lone surrogate (what the database cannot hold)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Reader:
    """Checks the part field by field; every problem names where it is."""

    def __init__(self) -> None:
        self.problems: list[PartProblem] = []

    def where(self, *parts: str) -> str:
        return ", ".join([_("fees"), *parts])

    def obj(self, value: Any, where: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            # The archive's reader marks an object with a key twice (JSON keeps the last
            # one silently) with the keys it holds twice.
            twice = getattr(value, "duplicates", None)
            if twice:
                self.problems.append(
                    (where, _("The key %(key)s appears twice.") % {"key": str(twice[0])[:40]})
                )
            return value
        self.problems.append((where, _("Expected an object.")))
        return None

    def items(self, data: dict[str, Any], key: str, limit: int) -> list[Any]:
        value = data.get(key, [])
        if isinstance(value, list) and len(value) <= limit:
            return value
        self.problems.append(
            (self.where(key), _("Expected a list of at most %(limit)d entries.") % {"limit": limit})
        )
        return []

    def integer(self, data: dict[str, Any], key: str, where: str, low: int, high: int, *,
                optional: bool = False) -> int | None:  # fmt: skip
        value = data.get(key)
        if value is None and optional:
            return None
        if type(value) is int and low <= value <= high:
            return value
        self.problems.append(
            (f"{where}, {key}",
             _("Expected a whole number from %(low)d to %(high)d.") % {"low": low, "high": high})
        )  # fmt: skip
        return None

    def text(self, data: dict[str, Any], key: str, where: str, limit: int) -> str:
        value = data.get(key, "")
        if isinstance(value, str) and len(value) <= limit and _storable(value):
            return value
        self.problems.append(
            (f"{where}, {key}",
             _("Expected a text of at most %(limit)d characters, without NUL characters or "
               "lone surrogates.") % {"limit": limit})
        )  # fmt: skip
        return ""

    def choice(self, data: dict[str, Any], key: str, where: str, allowed: list[str]) -> str:
        value = data.get(key)
        if isinstance(value, str) and value in allowed:
            return value
        self.problems.append(
            (f"{where}, {key}",
             _("Expected one of: %(values)s.") % {"values": ", ".join(v or '""' for v in allowed)})
        )  # fmt: skip
        return allowed[0]

    def moment(self, data: dict[str, Any], key: str, where: str) -> datetime.datetime | None:
        value = data.get(key)
        if value is None:
            return None
        try:
            parsed = datetime.datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.problems.append(
                (f"{where}, {key}", _("Expected a time such as 2026-05-01T18:00:00+02:00."))
            )
            return None
        return parsed

    def service(self, where: str, check: Any) -> Any:
        """The fees' own rules (``fees.services``), their refusal as a problem."""
        try:
            return check()
        except ServiceError as exc:
            self.problems.append((self.field_where(exc.field or ""), exc.message))
            return None

    def field_where(self, name: str) -> str:
        """The fees' field of a refusal ("prize-1", "reduced-0", "shares") as the archive's
        rows are named ("fees, prize 2")."""
        kind, _dash, index = name.partition("-")
        if index.isdigit() and kind in ("prize", "reduced"):
            number = {"index": int(index) + 1}
            if kind == "prize":
                return self.where(_("prize %(index)d") % number)
            return self.where(_("reduced fee %(index)d") % number)
        return self.where(name) if name else self.where()

    # -- the part ----------------------------------------------------------------------------

    def read(self, value: Any, start_numbers: frozenset[int]) -> FeesIn:
        where = self.where()
        data = self.obj(value, where)
        if data is None:
            return FeesIn(FeeData(0), [])
        reduced = []
        for index, item in enumerate(self.items(data, "reduced", 50), start=1):
            here = self.where(_("reduced fee %(index)d") % {"index": index})
            line = self.obj(item, here) or {}
            label = self.text(line, "label", here, MAX_LABEL)
            cents = self.integer(line, "cents", here, 0, MAX_CENTS)
            reduced.append((label, cents or 0))
        fees = FeeData(
            standard_cents=self.integer(data, "standard_cents", where, 0, MAX_CENTS) or 0,
            reduced=tuple(reduced),
            pot_cents=self.integer(data, "pot_cents", where, 0, MAX_CENTS, optional=True),
        )
        self.service(where, lambda: checked_labels(fees))
        prizes = []
        for index, item in enumerate(self.items(data, "prizes", 200), start=1):
            here = self.where(_("prize %(index)d") % {"index": index})
            line = self.obj(item, here) or {}
            prizes.append(
                PrizeLine(
                    place=self.integer(line, "place", here, 1, 1000, optional=True),
                    special=self.choice(line, "special", here, ["", *Prize.Special.values]),
                    cents=self.integer(line, "cents", here, 0, MAX_CENTS, optional=True),
                    share=self.integer(line, "share", here, 1, 10_000, optional=True),
                )
            )
        self.service(where, lambda: check_prizes(prizes))
        return FeesIn(fees, prizes, self.bookings(data, start_numbers))

    def bookings(self, data: dict[str, Any], start_numbers: frozenset[int]) -> list[BookingIn]:
        found: list[BookingIn] = []
        for index, item in enumerate(self.items(data, "bookings", MAX_BOOKINGS), start=1):
            here = self.where(_("booking %(index)d") % {"index": index})
            b = self.obj(item, here)
            if b is None:
                continue
            booking = BookingIn(
                start_number=self.integer(b, "start_number", here, 1, INT32) or 0,
                number=self.integer(b, "number", here, 1, INT32) or 0,
                kind=self.choice(b, "kind", here, list(Booking.Kind.values)),
                fee_label=self.text(b, "fee_label", here, MAX_LABEL),
                fee_cents=self.integer(b, "fee_cents", here, 0, MAX_CENTS) or 0,
                amount_cents=self.integer(b, "amount_cents", here, -MAX_CENTS, MAX_CENTS) or 0,
                method=self.choice(b, "method", here, ["", *Booking.Method.values]),
                reverses=self.integer(b, "reverses", here, 1, INT32, optional=True),
                at=self.moment(b, "at", here),
            )
            self.booking_rules(booking, here, start_numbers)
            found.append(booking)
        self.ledger_rules(found)
        return found

    def booking_rules(self, b: BookingIn, where: str, start_numbers: frozenset[int]) -> None:
        """What the database's checks on a booking say (``fees.models.Booking``)."""
        if b.start_number and b.start_number not in start_numbers:
            self.problems.append(
                (
                    where,
                    _("Start number %(number)d is not registered.") % {"number": b.start_number},
                )
            )
        if b.amount_cents and not b.method:
            self.problems.append((where, _("Money moves with a method (cash, transfer, other).")))
        if b.kind == Booking.Kind.PAID and b.amount_cents < 0:
            self.problems.append((where, _("A payment brings money in, never out.")))
        if b.kind != Booking.Kind.PAID and b.amount_cents > 0:
            self.problems.append((where, _("Only a payment brings money in.")))

    def ledger_rules(self, bookings: list[BookingIn]) -> None:
        """Each player's bookings numbered 1, 2, … without a gap (the number is the fee's
        version); a reversal takes back an earlier payment of the same player, once."""
        by_player: dict[int, dict[int, BookingIn]] = {}
        for b in bookings:
            if b.number in by_player.setdefault(b.start_number, {}):
                self.problems.append(
                    (self.where(_("start number %(number)d") % {"number": b.start_number}),
                     _("Booking %(booking)d appears twice.") % {"booking": b.number})
                )  # fmt: skip
            by_player[b.start_number][b.number] = b
        for number, own in sorted(by_player.items()):
            here = self.where(_("start number %(number)d") % {"number": number})
            if sorted(own) != list(range(1, len(own) + 1)):
                self.problems.append(
                    (here, _("The bookings are not numbered 1 to %(count)d.") % {"count": len(own)})
                )
            reversed_once: set[int] = set()
            for b in own.values():
                if b.reverses is None:
                    continue
                target = own.get(b.reverses)
                if target is None or b.reverses >= b.number or target.kind != Booking.Kind.PAID:
                    self.problems.append(
                        (here, _("Booking %(booking)d reverses no earlier payment.")
                         % {"booking": b.number})
                    )  # fmt: skip
                elif b.reverses in reversed_once:
                    self.problems.append(
                        (
                            here,
                            _("Booking %(booking)d is reversed twice.") % {"booking": b.reverses},
                        )
                    )
                reversed_once.add(b.reverses)


def read_fees(value: Any, start_numbers: frozenset[int]) -> tuple[FeesIn, list[PartProblem]]:
    reader = _Reader()
    fees = reader.read(value, start_numbers)
    return fees, reader.problems


def write_fees(
    tournament: Tournament, fees: FeesIn, registrations: Mapping[int, int], actor: Actor
) -> None:
    """The checked part saved with the imported tournament: settings, reduced fees, prize
    table and every booking, each with its time (the reversals point at their payments)."""
    FeeSettings.objects.update_or_create(
        tournament=tournament,
        defaults={"standard_cents": fees.fees.standard_cents, "pot_cents": fees.fees.pot_cents},
    )
    ReducedFee.objects.bulk_create(
        ReducedFee(tournament=tournament, label=label, cents=cents)
        for label, cents in fees.fees.reduced
    )
    Prize.objects.bulk_create(
        Prize(tournament=tournament, place=p.place, special=p.special, cents=p.cents,
              share=p.share)
        for p in fees.prizes
    )  # fmt: skip
    via = actor.describe()[:80]
    ordered = sorted(fees.bookings, key=lambda b: (b.start_number, b.number))
    rows = Booking.objects.bulk_create(
        Booking(
            tournament=tournament, registration_id=registrations[b.start_number],
            number=b.number, kind=b.kind, fee_label=b.fee_label, fee_cents=b.fee_cents,
            amount_cents=b.amount_cents, method=b.method, via=via,
        )
        for b in ordered
    )  # fmt: skip
    by_key = {(b.start_number, b.number): row for b, row in zip(ordered, rows, strict=True)}
    changed = []
    for b, row in zip(ordered, rows, strict=True):
        if b.at is not None:
            row.created_at = b.at
        if b.reverses is not None:
            row.reverses = by_key[(b.start_number, b.reverses)]
        if b.at is not None or b.reverses is not None:
            changed.append(row)
    # ``created_at`` is set on insert (auto_now_add); the archived times come after.
    Booking.objects.bulk_update(changed, ["created_at", "reverses"], batch_size=500)


PART = ArchivePart(KEY, export_fees, read_fees, write_fees)
