"""Two cashiers tap the same player's fee at the same moment, on PostgreSQL: two threads,
two transactions, the version both pages showed. Exactly one books; the other books
nothing: asked for the same status it sees the new state, asked for another it gets a
conflict that says the status now. The ledger holds one booking each time, nothing lost."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.db import connection

from clubs.models import Membership
from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from fees.models import Booking, FeeChange
from fees.services import FeeData, FeeState, book_fee, save_fees
from tests.concurrency import race
from tests.factories import add_players, make_tournament, make_user
from tournaments.models import Registration

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 20


@pytest.fixture
def cashiers(alice: User) -> tuple[list[Registration], Actor, Actor]:
    tournament = make_tournament("kassensturz", 1, organizers=[alice])
    carla, dora = make_user("carla"), make_user("dora")
    for user in (carla, dora):
        Membership.objects.create(club=tournament.club, user=user, role="cashier")
    save_fees(tournament, FeeData(1000), actor=Actor(ORGANIZER, user=alice))
    registrations = add_players(tournament, TRIALS)
    return registrations, Actor(ORGANIZER, user=carla), Actor(ORGANIZER, user=dora)


def load(pk: int) -> Registration:
    return Registration.objects.select_related("tournament").get(pk=pk)


def test_two_cashiers_mark_one_fee_paid(cashiers: tuple[list[Registration], Actor, Actor]) -> None:
    registrations, carla, dora = cashiers
    tally: Counter[str] = Counter()
    for registration in registrations:
        pk = registration.pk
        outcomes = race(
            lambda pk=pk: book_fee(load(pk), "paid", expected_version=0, actor=carla, key=f"c{pk}"),
            lambda pk=pk: book_fee(load(pk), "paid", expected_version=0, actor=dora, key=f"d{pk}"),
        )
        states = [o for o in outcomes if isinstance(o, FeeState)]
        assert len(states) == 2, outcomes  # nobody refused: both asked for the same
        booked = [s for s in states if s.booking is not None]
        tally["booked"] += len(booked)
        assert len(booked) == 1  # exactly one wins; the other sees the new state
        assert all((s.status, s.version, s.received_cents) == ("paid", 1, 1000) for s in states)
        assert list(
            Booking.objects.filter(registration_id=pk).values_list("number", flat=True)
        ) == [1]
    assert tally == Counter(booked=TRIALS)
    assert FeeChange.objects.filter(action="fees.fee.paid").count() == TRIALS


def test_paid_against_waived_one_wins_the_other_is_told(
    cashiers: tuple[list[Registration], Actor, Actor],
) -> None:
    registrations, carla, dora = cashiers
    tally: Counter[str] = Counter()
    for registration in registrations:
        pk = registration.pk
        outcomes = race(
            lambda pk=pk: book_fee(load(pk), "paid", expected_version=0, actor=carla),
            lambda pk=pk: book_fee(load(pk), "waived", expected_version=0, actor=dora),
        )
        winners = [o for o in outcomes if isinstance(o, FeeState)]
        losers = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(winners) == 1 and len(losers) == 1, outcomes
        winner, loser = winners[0], losers[0]
        assert loser.refusal is Refusal.CONFLICT and loser.code == "fee_changed"
        assert loser.data == {"status": winner.status, "version": 1}
        tally[winner.status] += 1
        stored = list(Booking.objects.filter(registration_id=pk).values_list("kind", "number"))
        assert stored == [(winner.status, 1)]  # the winner's booking, nothing overwritten
    assert sum(tally.values()) == TRIALS
