"""The fee world: Alice's tournament with eight players, its club's cashier Carla, and Bob's
club with its own cashier Ken, who may not touch Alice's fees."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from clubs.models import Membership
from common.actors import ORGANIZER, Actor
from fees.services import FeeData, save_fees
from tests.factories import make_user
from tournaments.models import Registration, Tournament


@pytest.fixture
def carla(tournament: Tournament) -> User:
    user = make_user("carla")
    Membership.objects.create(club=tournament.club, user=user, role="cashier")
    return user


@pytest.fixture
def ken(other_tournament: Tournament) -> User:
    user = make_user("ken")
    Membership.objects.create(club=other_tournament.club, user=user, role="cashier")
    return user


@pytest.fixture
def desk(carla: User) -> Actor:
    return Actor(ORGANIZER, user=carla)


@pytest.fixture
def registrations(tournament: Tournament, alice: User) -> list[Registration]:
    """Eight players at two tables of series 1; the fee 10.00 €, Jugend 5.00 €."""
    from tests.factories import build_world

    world = build_world(tournament)
    save_fees(tournament, FeeData(1000, (("Jugend", 500),)), actor=Actor(ORGANIZER, user=alice))
    return world.registrations
