"""The demo club's cash box: its cashier's bookings, a reversal; built once, kept after."""

from __future__ import annotations

import pytest

from cashbox.demo import cashbox_in_demo
from cashbox.models import Booking
from cashbox.services import balance
from clubs.models import Membership
from scoring.demo import demo_built
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_the_demo_club_has_a_cash_box() -> None:
    assert any(
        receiver() is cashbox_in_demo
        for _key, receiver in ((k, r) for k, r, *_ in demo_built.receivers)
    )
    tournament = make_tournament("demo", organizers=[make_user("demo")])
    club = tournament.club
    assert club is not None
    Membership.objects.create(club=club, user=make_user("kasse"), role="cashier")
    cashbox_in_demo(sender=None, tournament=tournament)
    bookings = Booking.objects.filter(club=club)
    assert bookings.count() == 7
    assert set(bookings.values_list("booked_by__username", flat=True)) == {"kasse"}
    assert bookings.filter(kind=Booking.Kind.REVERSAL).count() == 1
    assert balance(club) == 2000 + 150 - 1890 + 1800 - 450 + 450 - 500
    cashbox_in_demo(sender=None, tournament=tournament)  # again: the bookings stay as they are
    assert Booking.objects.filter(club=club).count() == 7
