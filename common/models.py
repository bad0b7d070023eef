"""What the change logs share (a tournament's ``scoring.AuditEntry``, a season's, a
league's): who, when, through which door, before and after. The words for their action
codes are in ``common.changelog``."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChangeLog(models.Model):
    action = models.CharField(max_length=60)  # dotted code, e.g. seasons.tournament.attached
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=80)  # "organizer alice", "api alice"
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]
