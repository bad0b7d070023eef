"""Two cashiers book the same evening's payments at the same moment, on PostgreSQL: two
threads, two transactions. The payments are booked once, every time; both cashiers get the
same answer (the second finds them booked)."""

from __future__ import annotations

import pytest
from django.db import connection

from cashbox.models import Booking, CashboxChange
from cashbox.services import balance
from common.actors import Actor
from evenings import payments, services
from evenings.doors import TABLE_LINK
from evenings.models import Evening, EveningChange, EveningPayment
from tests.concurrency import race
from tests.evenings.conftest import actor, make_club, make_evening, make_group, playing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 10
PHONE = Actor(TABLE_LINK, device="phone-1")


def test_two_cashiers_book_the_same_evening() -> None:
    club = make_club("a", olga="owner", cora="cashier", kurt="cashier")
    group = make_group(club, 4, settlement="cashbox", cents_per_point=10)
    total = 0
    for n in range(TRIALS):
        evening, (table,) = make_evening(group)
        who = playing(table)
        data = services.QuickData(winners=(who[0], who[1]), value=n + 1)
        services.enter_game(table, 1, data, actor=PHONE)
        evening = services.close_evening(evening, actor=actor("olga"))
        outcomes = race(
            lambda e=evening.pk: payments.book_payments(
                Evening.objects.get(pk=e), actor=actor("cora")
            ),
            lambda e=evening.pk: payments.book_payments(
                Evening.objects.get(pk=e), actor=actor("kurt")
            ),
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        first, second = outcomes
        assert sorted([first.again, second.again]) == [False, True]
        ids = [p.booking_id for p in first.payments]
        assert ids == [p.booking_id for p in second.payments]
        assert EveningPayment.objects.filter(evening=evening).count() == 2
        total += 2 * (n + 1) * 10
    assert Booking.objects.count() == 2 * TRIALS
    assert balance(club) == total
    assert CashboxChange.objects.filter(action="cashbox.booking.added").count() == 2 * TRIALS
    assert EveningChange.objects.filter(action="evenings.evening.booked").count() == TRIALS
