"""Two cashiers reverse the same booking at the same moment, on PostgreSQL: two threads, two
transactions. Exactly one reversal is booked, every time; the other cashier is told it has
already been reversed."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection
from django.utils import timezone

from cashbox.models import Booking, CashboxChange
from cashbox.services import BookingData, balance, book, reverse_booking
from clubs.models import Club
from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from tests.cashbox.conftest import make_club, user
from tests.concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 20


def test_two_cashiers_reverse_the_same_booking() -> None:
    club = make_club("a", olga="owner", cora="cashier")
    olga, cora = Actor(ORGANIZER, user=user("olga")), Actor(ORGANIZER, user=user("cora"))
    tally: Counter[str] = Counter()
    for n in range(TRIALS):
        booking = book(
            club, BookingData("expense", 100 + n, timezone.localdate(), f"Karten {n}"), actor=olga
        )
        outcomes = race(
            lambda b=booking.pk: reverse_booking(Club.objects.get(pk=club.pk), b, actor=olga),
            lambda b=booking.pk: reverse_booking(Club.objects.get(pk=club.pk), b, actor=cora),
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, ServiceError):
                raise outcome
        winners = [o for o in outcomes if isinstance(o, Booking)]
        losers = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(winners) == 1 and len(losers) == 1, outcomes
        assert losers[0].refusal is Refusal.CONFLICT
        tally[losers[0].code] += 1
        assert Booking.objects.filter(reverses=booking).count() == 1
    assert tally == Counter(already_reversed=TRIALS)
    assert balance(club) == 0
    assert CashboxChange.objects.filter(action="cashbox.booking.reversed").count() == TRIALS
