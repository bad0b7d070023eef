"""A club's members: invitations by link, leaving, removing, roles, handing over; at least
one owner always stays, also when two owners remove each other at the same moment."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.db import connection
from django.utils import translation
from freezegun import freeze_time

from clubs import members
from clubs.models import Club, ClubChange, Membership
from common.actors import ORGANIZER, Actor
from common.changelog import action_label
from common.services import Refusal, ServiceError
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


def test_an_invitation_link_makes_a_member(club: Club) -> None:
    olga, otto = User.objects.get(username="olga"), make_user("otto")
    token = members.invite(club, "cashier", actor=_as(olga))
    assert members.accept_invitation(token, actor=_as(otto)).role == "cashier"
    assert members.accept_invitation(token, actor=_as(otto)).role == "cashier"  # once
    assert _roles(club) == {"olga": "owner", "otto": "cashier"}
    actions = list(ClubChange.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["clubs.member.invited", "clubs.member.joined"]
    with translation.override("en"):
        assert action_label("clubs.member.joined") == "Member joined"
    with translation.override("de"):
        assert action_label("clubs.club.handed_over") == "Verein übergeben"


def test_only_owners_invite_and_links_expire_or_break(club: Club) -> None:
    otto = make_user("otto")
    with pytest.raises(ServiceError) as caught:
        members.invite(club, "organizer", actor=_as(otto))
    assert caught.value.refusal is Refusal.FORBIDDEN
    with freeze_time("2026-11-01"):
        token = members.invite(club, "organizer", actor=_as(User.objects.get(username="olga")))
    with freeze_time("2026-11-16"), pytest.raises(ServiceError) as caught:
        members.accept_invitation(token, actor=_as(otto))
    assert caught.value.code == "invitation_expired"
    forged = signing.dumps({"club": club.pk, "role": "owner"}, salt="another")
    with pytest.raises(ServiceError) as caught:
        members.accept_invitation(forged, actor=_as(otto))
    assert caught.value.code == "invitation_invalid"
    assert not Membership.objects.filter(user=otto).exists()


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
