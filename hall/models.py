"""What the organizers tell the hall: lines of text on top of the hall display."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

#: The longest announcement: one line on the hall's screen.
MAX_ANNOUNCEMENT = 200
#: Announcements the display shows at once, newest first.
SHOWN_ANNOUNCEMENTS = 3


class Announcement(models.Model):
    """One line for the hall ("Mittagspause bis 13:30"). Active until withdrawn
    (``ended_at``); the display shows the newest few."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("announcement"), max_length=MAX_ANNOUNCEMENT)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        indexes = [models.Index(fields=["tournament", "ended_at"], name="announcement_active")]

    def __str__(self) -> str:
        return self.text

    @property
    def active(self) -> bool:
        return self.ended_at is None
