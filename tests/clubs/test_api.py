"""Clubs through the REST API: a member's clubs with his roles; a club's members for its
members; its owners change roles, remove members, hand the club over, invite (a link, and
by e-mail with a mail server) and withdraw invitations. The same use cases and permissions
as the club's pages: a non-member gets 404, another member 403, nobody signed in 401;
refusals name the field, in German or English."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as outbox
from django.test import override_settings

from clubs.invitations import accept_invitation
from clubs.models import Club, ClubChange, Invitation, Membership
from common.actors import ORGANIZER, Actor
from tests.factories import api_client, make_user

OnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]
CLUB = "/api/v1/clubs/kreuz-ass/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="DK Kreuz-Ass", slug="kreuz-ass")
    Membership.objects.create(club=club, user=make_user("olga"), role="owner")
    Membership.objects.create(club=club, user=make_user("otto"), role="cashier")
    return club


def _client(username: str, lang: str = "en") -> Any:
    return api_client(user=User.objects.get(username=username), lang=lang)


def test_a_member_lists_his_clubs_and_their_members(club: Club) -> None:
    otto = _client("otto")
    mine = otto.get("/api/v1/clubs/")
    assert mine.status_code == 200
    assert mine.json()["results"] == [
        {"slug": "kreuz-ass", "name": "DK Kreuz-Ass", "role": "cashier", "personal": False}
    ]
    members = otto.get(CLUB + "members/").json()["results"]
    assert [(m["user"], m["role"]) for m in members] == [("olga", "owner"), ("otto", "cashier")]
    assert api_client().get("/api/v1/clubs/").status_code == 401


def test_strangers_get_404_members_403(club: Club) -> None:
    bert = api_client(user=make_user("bert"))
    otto = _client("otto")
    for path in ("members/", "invitations/"):
        assert bert.get(CLUB + path).status_code == 404
    assert bert.post(CLUB + "leave/").status_code == 404
    assert api_client().get(CLUB + "members/").status_code == 401
    refused = otto.patch(CLUB + "members/olga/", {"role": "cashier"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    assert otto.post(CLUB + "invitations/", {"role": "owner"}, format="json").status_code == 403
    assert otto.get(CLUB + "invitations/").status_code == 403
    assert otto.post(CLUB + "hand-over/", {"user": "otto"}, format="json").status_code == 403
    assert api_client().get("/api/v1/clubs/nirgends/members/").status_code == 401


def test_the_owner_changes_roles_removes_and_hands_over(club: Club) -> None:
    olga = _client("olga")
    changed = olga.patch(CLUB + "members/otto/", {"role": "organizer"}, format="json")
    assert changed.status_code == 200 and changed.json()["role"] == "organizer"
    last = olga.patch(CLUB + "members/olga/", {"role": "cashier"}, format="json")
    assert last.status_code == 409 and last.json()["error"]["code"] == "last_owner"
    assert olga.delete(CLUB + "members/nobody/").status_code == 404
    handed = olga.post(CLUB + "hand-over/", {"user": "otto"}, format="json")
    assert handed.status_code == 200
    assert {m["user"]: m["role"] for m in handed.json()["members"]} == {
        "olga": "organizer",
        "otto": "owner",
    }
    otto = _client("otto")
    assert otto.delete(CLUB + "members/olga/").status_code == 204
    assert olga.get(CLUB + "members/").status_code == 404  # no member any more
    assert otto.post(CLUB + "leave/").status_code == 409  # the last owner stays
    actions = set(ClubChange.objects.values_list("action", flat=True))
    assert actions == {
        "clubs.member.role_changed", "clubs.club.handed_over", "clubs.member.removed"
    }  # fmt: skip
    assert ClubChange.objects.filter(via="api otto").exists()


@pytest.mark.parametrize(
    ("lang", "message"), [("de", "ist keine gültige Option"), ("en", "is not a valid choice")]
)
def test_refusals_name_the_field_in_the_callers_language(
    club: Club, lang: str, message: str
) -> None:
    olga = _client("olga", lang)
    wrong = olga.post(CLUB + "invitations/", {"role": "king"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["field"] == "role" and message in wrong.json()["error"]["message"]
    mail = olga.post(CLUB + "invitations/", {"role": "owner", "email": "x"}, format="json")
    assert mail.status_code == 400 and mail.json()["error"]["field"] == "email"
    nobody = olga.post(CLUB + "hand-over/", {"user": "bert"}, format="json")
    assert nobody.status_code == 400 and nobody.json()["error"]["field"] == "user"
    unknown = olga.patch(CLUB + "members/otto/", {"role": "owner", "x": 1}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["field"] == "x"


@override_settings(EMAIL_HOST="")
def test_the_owner_invites_by_link_and_withdraws(club: Club) -> None:
    olga = _client("olga")
    made = olga.post(CLUB + "invitations/", {"role": "referee", "email": "r@example.org"},
                     format="json")  # fmt: skip
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["mail"] == "none" and body["status"] == "open" and body["invited_by"] == "olga"
    token = Invitation.objects.get().token
    assert body["link"] == f"http://testserver/verwaltung/vereine/einladung/{token}/"
    listed = olga.get(CLUB + "invitations/").json()["results"]
    assert [i["id"] for i in listed] == [body["id"]] and "link" not in listed[0]
    withdrawn = olga.post(f"{CLUB}invitations/{body['id']}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert olga.post(f"{CLUB}invitations/{body['id']}/withdraw/").status_code == 200
    assert olga.get(CLUB + "invitations/").json()["results"] == []
    assert olga.post(f"{CLUB}invitations/999999/withdraw/").status_code == 404
    used = olga.post(CLUB + "invitations/", {"role": "cashier"}, format="json").json()
    accept_invitation(Invitation.objects.get(pk=used["id"]).token,
                      actor=Actor(ORGANIZER, user=make_user("paula")))  # fmt: skip
    again = olga.post(f"{CLUB}invitations/{used['id']}/withdraw/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "invitation_used"
    assert outbox.outbox == []


@override_settings(
    EMAIL_HOST="smtp.example.org",
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    SITE_URL="https://doko.example.org",
)
def test_an_invitation_by_mail_in_the_callers_language(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    olga = _client("olga", "en")
    with django_capture_on_commit_callbacks(execute=True):
        made = olga.post(CLUB + "invitations/", {"role": "organizer", "email": "a@example.org"},
                         format="json")  # fmt: skip
    assert made.status_code == 201 and made.json()["mail"] == "queued"
    assert Invitation.objects.get().mail == "sent"
    assert [m.subject for m in outbox.outbox] == ["Invitation to the club “DK Kreuz-Ass”"]
    assert Invitation.objects.get().token in outbox.outbox[0].body
