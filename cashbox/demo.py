"""The demo club's cash box: a few bookings by its cashier ``kasse``, so that ``make run``
shows a ledger with a balance and a reversal."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from cashbox.models import Booking
from cashbox.services import BookingData, book, reverse_booking
from clubs import roles
from common.actors import ORGANIZER, Actor

Kind = Booking.Kind


def cashbox_in_demo(sender: Any, tournament: Any, **kwargs: Any) -> None:
    """Book the demo club's first evenings, once: bookings are never deleted, so a demo
    built again leaves a cash box that has bookings as it is."""
    club = tournament.club
    if club is None or Booking.objects.filter(club=club).exists():
        return
    cashier = (
        User.objects.filter(memberships__club=club, memberships__role=roles.CASHIER)
        .order_by("pk")
        .first()
    )
    if cashier is None:
        return
    actor = Actor(ORGANIZER, user=cashier)
    today = timezone.localdate()
    members = list(club.memberships.order_by("pk").values_list("user_id", flat=True))
    evening = today - datetime.timedelta(days=14)
    week = today - datetime.timedelta(days=7)
    for data in (
        BookingData(Kind.CONTRIBUTION, 2000, evening, "Spielabend: Beiträge"),
        BookingData(Kind.FINE, 150, evening, "Handy klingelte", members[0]),
        BookingData(Kind.EXPENSE, 1890, evening, "Spielkarten (6 Blatt)"),
        BookingData(Kind.CONTRIBUTION, 1800, week, "Spielabend: Beiträge"),
        BookingData(Kind.EXPENSE, 450, week, "Blöcke"),
    ):
        booked = book(club, data, actor=actor)
    reverse_booking(club, booked.pk, actor=actor)  # the pads were bought from the box twice
    book(club, BookingData(Kind.PAYOUT, 500, today, "Preis: Solo des Monats"), actor=actor)
