"""The use cases of a club's invitations: inviting (a link, and by e-mail when a mail server
is configured), reading and accepting a link, withdrawing an invitation.

An invitation is a row with a random token (``clubs.models.Invitation``): valid for
``INVITATION_DAYS``, used once (by whoever opens its link logged in), and withdrawn by the
club's owners at any time; accepted or withdrawn, its link no longer works. The e-mail goes
out after the invitation's transaction has committed, through the Celery task
``clubs.send_invitation`` (``clubs.tasks``; eager without a broker), in the inviter's
language. Each step is logged in ``ClubChange``.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as KombuOperationalError

from clubs import roles
from clubs.mail import mail_configured
from clubs.members import _locked, _log, _require_owner, _user_of
from clubs.models import Club, Invitation, Membership
from clubs.tasks import send_invitation
from common.actors import Actor
from common.services import Refusal, ServiceError

logger = logging.getLogger(__name__)

INVITATION_DAYS = 14
LANGUAGES = ("de", "en")
MAX_EMAIL = 254  # Invitation.email


def _language(language: str | None) -> str:
    short = (language or "").split("-")[0].lower()
    return short if short in LANGUAGES else "de"


def _described(invitation: Invitation) -> dict[str, Any]:
    return {"invitation": invitation.pk, "role": invitation.role, "email": invitation.email}


@transaction.atomic
def _create(club: Club, role: str, email: str, language: str, actor: Actor) -> Invitation:
    user = _require_owner(_locked(club), actor)
    if role not in roles.ROLES:
        raise ServiceError("invalid_role", _("Choose a role."), field="role")
    email = email.strip()
    if email:
        try:
            if len(email) > MAX_EMAIL:
                raise ValidationError("too long")
            validate_email(email)
        except ValidationError as exc:
            raise ServiceError(
                "invalid_email", _("Enter a valid e-mail address."), field="email"
            ) from exc
    now = timezone.now()
    mailed = bool(email) and mail_configured()
    invitation = Invitation.objects.create(
        club=club, role=role, token=secrets.token_urlsafe(32), email=email,
        language=_language(language), invited_by=user, created_at=now,
        expires_at=now + datetime.timedelta(days=INVITATION_DAYS),
        mail=Invitation.Mail.QUEUED if mailed else Invitation.Mail.NONE,
    )  # fmt: skip
    _log(club, "clubs.member.invited", actor, after=_described(invitation))
    if mailed:
        transaction.on_commit(lambda: queue_mail(invitation.pk))
    return invitation


def invite(
    club: Club, role: str, *, actor: Actor, email: str = "", language: str = "de"
) -> Invitation:
    """A new invitation to ``club`` with ``role`` (owners only). With ``email`` and a mail
    server configured its link is sent there once the invitation is stored (in ``language``,
    the inviter's); ``mail`` then tells how that went (``queued`` while a worker sends it)."""
    invitation = _create(club, role, email, language, actor)
    if invitation.mail == Invitation.Mail.QUEUED:
        invitation.refresh_from_db(fields=["mail", "mailed_at"])
    return invitation


def queue_mail(invitation_id: int) -> None:
    """Hand the invitation's e-mail to the task (after the commit). A broker that cannot be
    reached marks it failed at once: the owner sees so and may send the link himself."""
    try:
        send_invitation.delay(invitation_id)
    except (KombuOperationalError, OSError) as exc:
        logger.warning(
            "Invitation %s cannot be queued for mailing (%s)", invitation_id, type(exc).__name__
        )
        Invitation.objects.filter(pk=invitation_id, mail=Invitation.Mail.QUEUED).update(
            mail=Invitation.Mail.FAILED
        )


def _invalid() -> ServiceError:
    return ServiceError(
        "invitation_invalid", _("This invitation link is not valid."), refusal=Refusal.NOT_FOUND
    )


def _usable(invitation: Invitation) -> None:
    if invitation.status == Invitation.Status.WITHDRAWN:
        raise ServiceError("invitation_withdrawn", _("This invitation has been withdrawn."))
    if invitation.status == Invitation.Status.ACCEPTED:
        raise ServiceError("invitation_used", _("This invitation has been used already."))
    if invitation.expires_at <= timezone.now():
        raise ServiceError("invitation_expired", _("This invitation has expired."))


def read_invitation(token: str) -> Invitation:
    """The open invitation of this link, else a refusal (not valid, expired, used,
    withdrawn)."""
    invitation = (
        Invitation.objects.filter(token=token).select_related("club").first() if token else None
    )
    if invitation is None:
        raise _invalid()
    _usable(invitation)
    return invitation


@transaction.atomic
def accept_invitation(token: str, *, actor: Actor) -> Membership:
    """Join the invitation's club with its role; the invitation is used up. A member already
    keeps his role and leaves the invitation open; whoever accepted it may send the same
    request again (a double tap) and gets his membership."""
    user = _user_of(actor)
    found = Invitation.objects.filter(token=token).first() if token else None
    if found is None:
        raise _invalid()
    club = _locked(found.club)
    invitation = Invitation.objects.select_for_update().get(pk=found.pk)
    mine = Membership.objects.filter(club=club, user=user.pk).select_related("club").first()
    if mine is not None and (
        invitation.status == Invitation.Status.OPEN or invitation.accepted_by_id == user.pk
    ):
        return mine
    _usable(invitation)
    membership = Membership.objects.create(club=club, user=user, role=invitation.role)
    invitation.status, invitation.accepted_by = Invitation.Status.ACCEPTED, user
    invitation.closed_at = timezone.now()
    invitation.save(update_fields=["status", "accepted_by", "closed_at"])
    _log(club, "clubs.member.joined", actor,
         after={"user": user.get_username(), "role": membership.role,
                "invitation": invitation.pk})  # fmt: skip
    return membership


@transaction.atomic
def withdraw_invitation(club: Club, invitation_id: int, *, actor: Actor) -> Invitation:
    """Withdraw an open invitation (owners only): its link no longer works, and its e-mail is
    not sent if it has not gone yet. Withdrawing it again changes nothing; an accepted one
    cannot be withdrawn (remove the member instead)."""
    club = _locked(club)
    _require_owner(club, actor)
    invitation = (
        Invitation.objects.select_for_update().filter(club=club, pk=invitation_id).first()
        if 0 < invitation_id < 2**63
        else None
    )
    if invitation is None:
        raise ServiceError(
            "invitation_not_found", _("There is no such invitation."), refusal=Refusal.NOT_FOUND
        )
    if invitation.status == Invitation.Status.WITHDRAWN:
        return invitation
    if invitation.status == Invitation.Status.ACCEPTED:
        raise ServiceError(
            "invitation_used",
            _("This invitation has been accepted: remove the member instead."),
            refusal=Refusal.CONFLICT,
        )
    invitation.status, invitation.closed_at = Invitation.Status.WITHDRAWN, timezone.now()
    invitation.save(update_fields=["status", "closed_at"])
    _log(club, "clubs.invitation.withdrawn", actor, before=_described(invitation))
    return invitation


def open_invitations(club: Club) -> QuerySet[Invitation]:
    """The club's invitations whose links still work, newest first."""
    return (
        club.invitations.filter(status=Invitation.Status.OPEN, expires_at__gt=timezone.now())
        .select_related("invited_by")
        .order_by("-created_at", "-pk")
    )
