"""An invitation's e-mail: whether a mail server is configured, the message (German or
English, plain text and simple HTML) and its sending, with the failures a later try may
overcome told apart from the lasting ones. Called by the task ``clubs.send_invitation``."""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import Invitation

logger = logging.getLogger(__name__)

SENT = "sent"
SKIPPED = "skipped"
FAILED = "failed"


def mail_configured() -> bool:
    """Invitations go out by e-mail only when ``EMAIL_HOST`` names a mail server."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def is_temporary(exc: BaseException) -> bool:
    """A failure a later try may overcome: no connection, a dropped connection, a timeout,
    or an SMTP reply 4xx (every refused recipient 4xx); 5xx replies are lasting."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _message in exc.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500 or exc.smtp_code < 0
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return True
    return isinstance(exc, OSError) and not isinstance(exc, smtplib.SMTPException)


def invitation_link(invitation: Invitation) -> str:
    return settings.SITE_URL + reverse("clubs:accept", kwargs={"token": invitation.token})


def message(invitation: Invitation) -> EmailMultiAlternatives:
    """The invitation's e-mail in its language: subject, plain text, HTML."""
    inviter = invitation.invited_by
    with translation.override(invitation.language):
        context = {
            "club": invitation.club.name,
            "role": invitation.get_role_display(),
            "inviter": (inviter.get_full_name() or inviter.get_username()) if inviter else "",
            "link": invitation_link(invitation),
            "expires_at": timezone.localtime(invitation.expires_at),
        }
        subject = render_to_string("clubs/mail/invitation_subject.txt", context)
        text = render_to_string("clubs/mail/invitation.txt", context)
        html = render_to_string("clubs/mail/invitation.html", context)
    mail = EmailMultiAlternatives(
        subject=" ".join(subject.split()), body=text, to=[invitation.email]
    )
    mail.attach_alternative(html, "text/html")
    return mail


def deliver(invitation_id: int) -> str:
    """Send the invitation's e-mail if it is still due (open, not expired, not sent yet);
    raises what sending raised."""
    invitation = (
        Invitation.objects.filter(pk=invitation_id).select_related("club", "invited_by").first()
    )
    if (
        invitation is None
        or invitation.mail != Invitation.Mail.QUEUED
        or invitation.status != Invitation.Status.OPEN
        or invitation.expires_at <= timezone.now()
    ):
        return SKIPPED
    message(invitation).send(fail_silently=False)
    Invitation.objects.filter(pk=invitation_id).update(
        mail=Invitation.Mail.SENT, mailed_at=timezone.now()
    )
    logger.info("Invitation %s mailed (club %s)", invitation_id, invitation.club_id)
    return SENT


def give_up(invitation_id: int, exc: BaseException) -> str:
    """The e-mail cannot be sent: marked failed, so the club's page says so."""
    logger.warning(
        "Invitation %s could not be mailed: %s %s", invitation_id, type(exc).__name__, exc
    )
    Invitation.objects.filter(pk=invitation_id, mail=Invitation.Mail.QUEUED).update(
        mail=Invitation.Mail.FAILED
    )
    return FAILED
