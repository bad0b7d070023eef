"""A club's invitations: a link used once, withdrawn by the owners, expiring; by e-mail when
a mail server is configured (German or English by the inviter's language, after the commit,
tried again on a temporary failure), never when none is or the transaction rolls back."""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.contrib.auth.models import User
from django.core import mail as outbox
from django.core import signing
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import translation
from freezegun import freeze_time

from clubs import invitations, mail
from clubs.models import Club, ClubChange, Invitation, Membership
from clubs.tasks import RETRY_SECONDS, send_invitation
from common.actors import ORGANIZER, Actor
from common.changelog import action_label
from common.services import Refusal, ServiceError
from tests.factories import make_user, page_client

OnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]
MAIL_SERVER = override_settings(
    EMAIL_HOST="smtp.example.org",
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    DEFAULT_FROM_EMAIL="Doko-Turnier <doko@example.org>",
    SITE_URL="https://doko.example.org",
)
NO_MAIL_SERVER = override_settings(EMAIL_HOST="")


def _as(user: User) -> Actor:
    return Actor(ORGANIZER, user=user)


@pytest.fixture
def club(db: None) -> Club:
    club = Club.objects.create(name="DK Kreuz-Ass", slug="kreuz-ass")
    olga = make_user("olga")
    olga.first_name, olga.last_name = "Olga", "Ober"
    olga.save()
    Membership.objects.create(club=club, user=olga, role="owner")
    return club


def _olga() -> User:
    return User.objects.get(username="olga")


def _actions() -> list[str]:
    return list(ClubChange.objects.order_by("pk").values_list("action", flat=True))


# --- links --------------------------------------------------------------------------------


def test_a_link_makes_one_member_once(club: Club) -> None:
    otto, paula = make_user("otto"), make_user("paula")
    token = invitations.invite(club, "cashier", actor=_as(_olga())).token
    assert invitations.accept_invitation(token, actor=_as(otto)).role == "cashier"
    # The same person again (a double tap): his membership, nothing new.
    assert invitations.accept_invitation(token, actor=_as(otto)).role == "cashier"
    with pytest.raises(ServiceError) as caught:  # anybody else: used up
        invitations.accept_invitation(token, actor=_as(paula))
    assert caught.value.code == "invitation_used"
    with pytest.raises(ServiceError):
        invitations.read_invitation(token)
    assert not Membership.objects.filter(user=paula).exists()
    assert Invitation.objects.get().status == "accepted"
    assert _actions() == ["clubs.member.invited", "clubs.member.joined"]
    with translation.override("en"):
        assert action_label("clubs.member.joined") == "Member joined"
        assert action_label("clubs.invitation.withdrawn") == "Invitation withdrawn"
    with translation.override("de"):
        assert action_label("clubs.invitation.withdrawn") == "Einladung zurückgezogen"


def test_a_member_keeps_his_role_and_leaves_the_link_open(club: Club) -> None:
    token = invitations.invite(club, "referee", actor=_as(_olga())).token
    assert invitations.accept_invitation(token, actor=_as(_olga())).role == "owner"
    assert invitations.read_invitation(token).status == "open"


def test_only_owners_invite_and_links_expire_or_break(club: Club) -> None:
    otto = make_user("otto")
    with pytest.raises(ServiceError) as caught:
        invitations.invite(club, "organizer", actor=_as(otto))
    assert caught.value.refusal is Refusal.FORBIDDEN
    with pytest.raises(ServiceError) as caught:
        invitations.invite(club, "king", actor=_as(_olga()))
    assert caught.value.field == "role"
    for wrong in ("kein-at", "a" * 250 + "@example.org"):
        with pytest.raises(ServiceError) as caught:
            invitations.invite(club, "organizer", email=wrong, actor=_as(_olga()))
        assert caught.value.field == "email"
    with freeze_time("2026-11-01"):
        token = invitations.invite(club, "organizer", actor=_as(_olga())).token
    with freeze_time("2026-11-16"), pytest.raises(ServiceError) as caught:
        invitations.accept_invitation(token, actor=_as(otto))
    assert caught.value.code == "invitation_expired"
    # The signed links of before are no longer valid: an invitation is a stored row now.
    forged = signing.dumps({"club": club.pk, "role": "owner"}, salt="clubs.invitation")
    for token in (forged, ""):
        with pytest.raises(ServiceError) as caught:
            invitations.accept_invitation(token, actor=_as(otto))
        assert caught.value.code == "invitation_invalid"
    assert not Membership.objects.filter(user=otto).exists()


def test_a_withdrawn_invitation_cannot_be_used(club: Club) -> None:
    otto = make_user("otto")
    invitation = invitations.invite(club, "organizer", email="otto@example.org", actor=_as(_olga()))
    with pytest.raises(ServiceError) as caught:  # only owners withdraw
        invitations.withdraw_invitation(club, invitation.pk, actor=_as(otto))
    assert caught.value.refusal is Refusal.FORBIDDEN
    invitations.withdraw_invitation(club, invitation.pk, actor=_as(_olga()))
    invitations.withdraw_invitation(club, invitation.pk, actor=_as(_olga()))  # no change
    assert list(invitations.open_invitations(club)) == []
    with pytest.raises(ServiceError) as caught:
        invitations.accept_invitation(invitation.token, actor=_as(otto))
    assert caught.value.code == "invitation_withdrawn"
    assert _actions() == ["clubs.member.invited", "clubs.invitation.withdrawn"]
    assert ClubChange.objects.order_by("pk").last().before == {  # type: ignore[union-attr]
        "invitation": invitation.pk,
        "role": "organizer",
        "email": "otto@example.org",
    }
    used = invitations.invite(club, "cashier", actor=_as(_olga()))
    invitations.accept_invitation(used.token, actor=_as(otto))
    with pytest.raises(ServiceError) as caught:
        invitations.withdraw_invitation(club, used.pk, actor=_as(_olga()))
    assert caught.value.code == "invitation_used"
    for missing in (0, 10**12, 2**70):
        with pytest.raises(ServiceError) as caught:
            invitations.withdraw_invitation(club, missing, actor=_as(_olga()))
        assert caught.value.refusal is Refusal.NOT_FOUND


# --- e-mail -------------------------------------------------------------------------------


@MAIL_SERVER
@freeze_time("2026-11-27 18:00:00")
@pytest.mark.parametrize(
    ("language", "subject", "phrases"),
    [
        (
            "de",
            "Einladung in den Verein „DK Kreuz-Ass“",
            ["Guten Tag,", "Olga Ober lädt Sie ein, dem Verein „DK Kreuz-Ass“ bei Doko-Turnier "
             "in der Rolle „Kasse“ beizutreten.", "gilt bis 11.12.2026 19:00"],
        ),
        (
            "en",
            "Invitation to the club “DK Kreuz-Ass”",
            ["Hello,", "Olga Ober invites you to join the club “DK Kreuz-Ass” on Doko-Turnier "
             "as cashier.", "valid until 12/11/2026 7 p.m."],
        ),
    ],
)  # fmt: skip
def test_the_invitation_goes_by_mail_in_the_inviters_language(
    club: Club,
    django_capture_on_commit_callbacks: OnCommit,
    language: str,
    subject: str,
    phrases: list[str],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitations.invite(
            club, "cashier", email=" otto@example.org ", language=language, actor=_as(_olga())
        )
    invitation.refresh_from_db()
    assert invitation.mail == "sent" and invitation.mailed_at is not None
    assert len(outbox.outbox) == 1
    message = outbox.outbox[0]
    link = f"https://doko.example.org/verwaltung/vereine/einladung/{invitation.token}/"
    assert message.to == ["otto@example.org"]
    assert message.from_email == "Doko-Turnier <doko@example.org>"
    assert message.subject == subject
    assert link in message.body
    for phrase in phrases:
        assert phrase in message.body
    html, kind = message.alternatives[0]  # type: ignore[attr-defined]
    assert kind == "text/html" and f'<a href="{link}">' in html
    assert f'lang="{language}"' in html and phrases[1].split(" ")[0] in html
    assert "&amp;" not in message.body  # plain text is not escaped


@MAIL_SERVER
def test_the_link_only_invitation_sends_nothing(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitations.invite(club, "cashier", actor=_as(_olga()))
    assert invitation.mail == "none" and outbox.outbox == []


@NO_MAIL_SERVER
def test_no_mail_without_a_mail_server(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        invitation = invitations.invite(
            club, "cashier", email="otto@example.org", actor=_as(_olga())
        )
    assert callbacks == [] and outbox.outbox == []
    assert invitation.mail == "none" and invitation.email == "otto@example.org"


@MAIL_SERVER
def test_no_mail_when_the_transaction_rolls_back(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        invitations.invite(club, "cashier", email="otto@example.org", actor=_as(_olga()))
        raise RuntimeError("something after it failed")
    assert outbox.outbox == [] and not Invitation.objects.exists()


@MAIL_SERVER
def test_a_withdrawn_invitation_is_not_mailed_later(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        invitation = invitations.invite(
            club, "cashier", email="otto@example.org", actor=_as(_olga())
        )
    invitations.withdraw_invitation(club, invitation.pk, actor=_as(_olga()))
    for callback in callbacks:  # the worker comes to it after the withdrawal
        callback()
    assert outbox.outbox == []
    assert mail.deliver(invitation.pk) == mail.SKIPPED


def _queued(club: Club) -> Invitation:
    return Invitation.objects.create(
        club=club, role="cashier", token="t" * 43, email="otto@example.org",
        invited_by=_olga(), created_at=mail.timezone.now(),
        expires_at=mail.timezone.now() + invitations.datetime.timedelta(days=14),
        mail=Invitation.Mail.QUEUED,
    )  # fmt: skip


@MAIL_SERVER
def test_a_temporary_failure_is_tried_again(club: Club) -> None:
    invitation = _queued(club)
    real_send = mail.EmailMultiAlternatives.send
    failures = [smtplib.SMTPServerDisconnected("gone")]

    def flaky(self: Any, fail_silently: bool = False) -> int:
        if failures:
            raise failures.pop()
        return real_send(self, fail_silently)

    # Eager (no broker): once more at once.
    with mock.patch.object(mail.EmailMultiAlternatives, "send", flaky):
        assert send_invitation.delay(invitation.pk).get() == mail.SENT
    assert len(outbox.outbox) == 1
    # With a worker: retried later, the wait doubling each time.
    Invitation.objects.filter(pk=invitation.pk).update(mail=Invitation.Mail.QUEUED)
    down = mock.Mock(side_effect=ConnectionRefusedError())
    with mock.patch.object(mail.EmailMultiAlternatives, "send", down):
        for retries in (0, 2):
            send_invitation.push_request(is_eager=False, retries=retries)
            try:
                with (
                    mock.patch.object(send_invitation, "retry", side_effect=Retry()) as retry,
                    pytest.raises(Retry),
                ):
                    send_invitation.run(invitation.pk)
                assert retry.call_args.kwargs["countdown"] == RETRY_SECONDS * 2**retries
            finally:
                send_invitation.pop_request()
        send_invitation.push_request(is_eager=False, retries=5)  # the last try
        try:
            assert send_invitation.run(invitation.pk) == mail.FAILED
        finally:
            send_invitation.pop_request()
    assert Invitation.objects.get(pk=invitation.pk).mail == "failed"


@MAIL_SERVER
def test_a_lasting_failure_is_not_tried_again(club: Club) -> None:
    invitation = _queued(club)
    refused = smtplib.SMTPRecipientsRefused({"otto@example.org": (550, b"no such user")})
    with mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=refused) as send:
        assert send_invitation.delay(invitation.pk).get() == mail.FAILED
    assert send.call_count == 1 and outbox.outbox == []
    assert Invitation.objects.get(pk=invitation.pk).mail == "failed"


def test_temporary_and_lasting_failures() -> None:
    assert mail.is_temporary(smtplib.SMTPServerDisconnected())
    assert mail.is_temporary(TimeoutError())
    assert mail.is_temporary(smtplib.SMTPDataError(451, b"try later"))
    assert mail.is_temporary(smtplib.SMTPRecipientsRefused({"a@b.c": (452, b"full")}))
    assert not mail.is_temporary(smtplib.SMTPAuthenticationError(535, b"bad password"))
    assert not mail.is_temporary(smtplib.SMTPRecipientsRefused({"a@b.c": (550, b"unknown")}))
    assert not mail.is_temporary(ValueError())


# --- the club's page ----------------------------------------------------------------------


@MAIL_SERVER
def test_the_page_says_sent_to_and_withdraws(
    club: Club, django_capture_on_commit_callbacks: OnCommit
) -> None:
    owner = page_client(_olga(), language="de")
    with django_capture_on_commit_callbacks(execute=True):
        answer = owner.post(
            reverse("clubs:invite", args=[club.slug]),
            {"role": "organizer", "email": "otto@example.org"},
            follow=True,
        )
    page = answer.content.decode()
    assert "Einladung an otto@example.org gesendet." in page
    assert "/verwaltung/vereine/einladung/" not in page  # the link went by mail only
    listed = owner.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "Offene Einladungen" in listed and "otto@example.org (gesendet)" in listed
    assert outbox.outbox[0].subject == "Einladung in den Verein „DK Kreuz-Ass“"
    invitation = Invitation.objects.get()
    answer = owner.post(
        reverse("clubs:withdraw-invitation", args=[club.slug, invitation.pk]), follow=True
    )
    assert "Die Einladung ist zurückgezogen." in answer.content.decode()
    assert Invitation.objects.get().status == "withdrawn"


@MAIL_SERVER
@pytest.mark.django_db(transaction=True)  # the mail goes after the commit, in the request
def test_the_page_shows_the_link_when_the_mail_fails(club: Club) -> None:
    owner = page_client(_olga(), language="en")
    refused = smtplib.SMTPRecipientsRefused({"otto@example.org": (550, b"no such user")})
    with mock.patch.object(mail.EmailMultiAlternatives, "send", side_effect=refused):
        answer = owner.post(
            reverse("clubs:invite", args=[club.slug]),
            {"role": "organizer", "email": "otto@example.org"},
            follow=True,
        )
    page = answer.content.decode()
    assert "could not be sent to otto@example.org" in page
    assert "/verwaltung/vereine/einladung/" in page


@NO_MAIL_SERVER
def test_without_a_mail_server_the_page_shows_the_link(club: Club) -> None:
    owner = page_client(_olga(), language="en")
    page = owner.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert 'name="email"' not in page and "Make an invitation link" in page
    answer = owner.post(reverse("clubs:invite", args=[club.slug]), {"role": "cashier"}, follow=True)
    assert "Invitation link (valid for 14 days): http://testserver/verwaltung" in (
        answer.content.decode()
    )
