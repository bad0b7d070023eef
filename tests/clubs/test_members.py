"""A club's members: leaving, removing, roles, handing over (invitations:
``test_invitations.py``); at least one owner always stays, also when two owners remove each
other at the same moment."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

from clubs import members
from clubs.models import Club, ClubChange, Membership
from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from tests.concurrency import race
from tests.factories import make_user


def _as(user: User) -> Actor:
    return Actor(ORGANIZER, user=user)


def _roles(club: Club) -> dict[str, str]:
    return {m.user.username: m.role for m in club.memberships.select_related("user")}


@pytest.fixture
def club(db: None) -> Club:
    club = Club.objects.create(name="DK Kreuz-Ass", slug="kreuz-ass")
    Membership.objects.create(club=club, user=make_user("olga"), role="owner")
    return club


def test_roles_change_hand_over_and_leave_keep_an_owner(club: Club) -> None:
    olga, otto = User.objects.get(username="olga"), make_user("otto")
    Membership.objects.create(club=club, user=otto, role="referee")
    with pytest.raises(ServiceError) as caught:  # the last owner cannot go
        members.leave(club, actor=_as(olga))
    assert caught.value.code == "last_owner"
    with pytest.raises(ServiceError):
        members.change_role(club, olga.pk, "cashier", actor=_as(olga))
    with pytest.raises(ServiceError):  # a referee changes no roles
        members.change_role(club, otto.pk, "owner", actor=_as(otto))
    members.change_role(club, otto.pk, "organizer", actor=_as(olga))
    members.hand_over(club, otto.pk, actor=_as(olga))
    assert _roles(club) == {"olga": "organizer", "otto": "owner"}
    members.leave(club, actor=_as(olga))
    with pytest.raises(ServiceError) as caught:
        members.remove_member(club, olga.pk, actor=_as(otto))
    assert caught.value.code == "not_member"
    assert _roles(club) == {"otto": "owner"}
    assert ClubChange.objects.filter(action="clubs.club.handed_over").get().after == [
        {"user": "olga", "role": "organizer"},
        {"user": "otto", "role": "owner"},
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_owners_removing_each_other_at_once_leave_one() -> None:
    for trial in range(5):
        club = Club.objects.create(name=f"Club {trial}", slug=f"club-{trial}")
        a, b = make_user(f"a{trial}"), make_user(f"b{trial}")
        Membership.objects.create(club=club, user=a, role="owner")
        Membership.objects.create(club=club, user=b, role="owner")
        outcomes = race(
            lambda club=club, a=a, b=b: members.remove_member(club, b.pk, actor=_as(a)),
            lambda club=club, a=a, b=b: members.remove_member(club, a.pk, actor=_as(b)),
        )
        errors = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], ServiceError), outcomes
        assert Membership.objects.filter(club=club, role="owner").count() == 1
