"""The fees' part of the demo tournament: a fee of 10.00 € (Jugend 5.00 €), most players
paid at the desk by its cashier (``kasse``), a few by transfer, one waived, the rest open;
a prize table of shares of the fees received and a special prize for the best solo player."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from fees.models import Booking
from fees.services import FeeData, PrizeLine, book_fee, save_fees, save_prizes
from tournaments.demo import DEMO_CASHIER
from tournaments.models import Tournament

YOUTH = "Jugend"


def fees_in_demo(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    organizer = Actor(ORGANIZER, user=tournament.organizers.order_by("pk").first())
    save_fees(tournament, FeeData(1000, ((YOUTH, 500),)), actor=organizer)
    save_prizes(
        tournament,
        [
            PrizeLine(place=1, share=3000),
            PrizeLine(place=2, share=2000),
            PrizeLine(place=3, share=1500),
            PrizeLine(place=4, share=1000),
            PrizeLine(place=5, cents=1000),
            PrizeLine(special="solos_won", cents=1500),
        ],
        actor=organizer,
    )
    cashier = User.objects.filter(username=DEMO_CASHIER).first()
    desk = Actor(ORGANIZER, user=cashier) if cashier is not None else organizer
    registrations = list(tournament.registrations.order_by("start_number"))
    for index, registration in enumerate(registrations):
        if index >= len(registrations) - 4:
            continue  # the last four are still open
        if index == 3:
            kind, label, method = Booking.Kind.WAIVED, "", Booking.Method.CASH
        else:
            kind = Booking.Kind.PAID
            label = YOUTH if index % 9 == 4 else ""
            method = Booking.Method.TRANSFER if index % 7 == 5 else Booking.Method.CASH
        book_fee(registration, kind, expected_version=0, actor=desk, fee_label=label, method=method)
