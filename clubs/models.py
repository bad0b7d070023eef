"""Clubs and their members (glossary: Verein). A club owns tournaments, seasons and leagues;
a user acts through his role in it (``clubs.roles``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs import roles
from common.models import ChangeLog


class Club(models.Model):
    """An organization with members. ``personal_of``: the user whose personal club it is
    (made for him when he first owns something), else a club founded as such."""

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("short name (in links)"), max_length=60, unique=True)
    personal_of = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="personal_club",
        verbose_name=_("personal club of"),
    )
    publication_years = models.PositiveSmallIntegerField(
        _("years results are published with names"),
        default=2,
        help_text=_(
            "After this many years the public pages of a tournament show every player "
            "anonymized (0: no limit)."
        ),
    )
    # The privacy notice the club publishes (DSGVO), one per language; empty: the
    # default template (templates/clubs/privacy_default_<language>.txt).
    privacy_notice_de = models.TextField(_("privacy notice (German)"), blank=True)
    privacy_notice_en = models.TextField(_("privacy notice (English)"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in a club; one per club and user (a user may belong to several clubs)."""

    class Role(models.TextChoices):
        OWNER = roles.OWNER, _("owner")
        ORGANIZER = roles.ORGANIZER, _("organizer")
        CASHIER = roles.CASHIER, _("cashier")
        REFEREE = roles.REFEREE, _("referee")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "pk"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_one_per_club_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"


class ClubChange(ChangeLog):
    """Every change to a club's members: who, when, through which door, before and after
    (``before``/``after``: the member's name and role)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("club change")
        verbose_name_plural = _("club changes")


class Invitation(models.Model):
    """An invitation to join a club with a role: a link (``token``) for whoever holds it,
    valid for ``INVITATION_DAYS`` and used once; with ``email`` it also goes out by e-mail
    (when a mail server is configured) in ``language``, the inviter's. Withdrawn or accepted,
    its link no longer works; the row stays as the record."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        WITHDRAWN = "withdrawn", pgettext_lazy("invitation", "withdrawn")

    class Mail(models.TextChoices):
        NONE = "none", _("no e-mail")
        QUEUED = "queued", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("could not be sent")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=20, choices=Membership.Role.choices)
    token = models.CharField(max_length=64, unique=True)
    email = models.EmailField(_("e-mail address"), blank=True)
    language = models.CharField(max_length=8, default="de")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    mail = models.CharField(max_length=12, choices=Mail.choices, default=Mail.NONE)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    closed_at = models.DateTimeField(null=True, blank=True)  # accepted or withdrawn
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.role} in {self.club} ({self.status})"
