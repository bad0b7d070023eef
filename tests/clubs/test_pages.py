"""The clubs' pages: the owner's members page, the invitation link, the actions."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubs.models import Club, ClubChange, Membership
from tests.factories import make_user, page_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="DK Kreuz-Ass", slug="kreuz-ass")
    Membership.objects.create(club=club, user=make_user("olga"), role="owner")
    return club


def _olga() -> User:
    return User.objects.get(username="olga")


def test_the_owner_invites_and_the_link_makes_a_member(club: Club) -> None:
    owner = page_client(_olga(), language="de")
    page = owner.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "DK Kreuz-Ass" in page and "Inhaber" in page and "Einladungslink erzeugen" in page
    answer = owner.post(reverse("clubs:invite", args=[club.slug]), {"role": "referee"}, follow=True)
    invitation = r"https?://[^\s<]+/verwaltung/vereine/einladung/[^\s<]+/"
    link = re.search(invitation, answer.content.decode())
    assert link is not None
    otto = page_client(make_user("otto"), language="en")
    path = link.group(0).split("testserver", 1)[1]
    assert "DK Kreuz-Ass" in otto.get(path).content.decode()
    assert otto.post(path)["Location"] == reverse("clubs:detail", args=[club.slug])
    assert Membership.objects.get(user__username="otto").role == "referee"
    mine = otto.get(reverse("clubs:mine")).content.decode()
    assert "DK Kreuz-Ass" in mine
    # A referee sees the members but has no owner's buttons.
    seen = otto.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "olga" in seen and "Hand the club over" not in seen


def test_owner_actions_and_refusals(club: Club) -> None:
    otto = make_user("otto")
    Membership.objects.create(club=club, user=otto, role="cashier")
    owner = page_client(_olga(), language="en")
    url = reverse("clubs:members", args=[club.slug])
    owner.post(url, {"action": "role", "user": otto.pk, "role": "organizer"})
    assert Membership.objects.get(user=otto).role == "organizer"
    answer = owner.post(url, {"action": "leave"}, follow=True)  # the last owner stays
    assert "at least one owner" in answer.content.decode()
    owner.post(url, {"action": "hand_over", "user": otto.pk})
    assert Membership.objects.get(user=otto).role == "owner"
    assert owner.post(url, {"action": "leave"})["Location"] == reverse("clubs:mine")
    assert list(club.memberships.values_list("user__username", flat=True)) == ["otto"]
    codes = set(ClubChange.objects.values_list("action", flat=True))
    assert codes == {"clubs.member.role_changed", "clubs.club.handed_over", "clubs.member.left"}


def test_a_club_does_not_exist_for_strangers(club: Club) -> None:
    detail = reverse("clubs:detail", args=[club.slug])
    assert page_client(make_user("bert")).get(detail).status_code == 404
    assert (
        page_client(User.objects.get(username="bert"))
        .post(reverse("clubs:members", args=[club.slug]), {"action": "leave"})
        .status_code
        == 404
    )
    assert page_client().get(detail)["Location"].startswith("/login/")
    bad = page_client(User.objects.get(username="bert"), language="en").get(
        reverse("clubs:accept", args=["forged"])
    )
    assert bad.status_code == 200 and "not valid" in bad.content.decode()
