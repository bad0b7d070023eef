"""The cash box's personas: club "a" (Olga owner, Cora cashier, Otto organizer, Rudi
referee) and club "b" (Bert owner, Bea cashier)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Membership
from tests.factories import make_user


def make_club(slug: str, **members: str) -> Club:
    club = Club.objects.create(name=slug.title(), slug=slug)
    for username, role in members.items():
        user = User.objects.filter(username=username).first() or make_user(username)
        Membership.objects.create(club=club, user=user, role=role)
    return club


@pytest.fixture
def club_a(db: None) -> Club:
    return make_club("a", olga="owner", cora="cashier", otto="organizer", rudi="referee")


@pytest.fixture
def club_b(db: None) -> Club:
    return make_club("b", bert="owner", bea="cashier")


def user(name: str) -> User:
    return User.objects.get(username=name)
