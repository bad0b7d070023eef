from __future__ import annotations

from django.db import models


class PingRow(models.Model):
    """One row per ping request."""

    created_at = models.DateTimeField(auto_now_add=True)

    # Django's default manager, named so the type checker knows it: the bench app is only
    # installed by the bench settings, not by the settings the checker loads.
    objects: models.Manager[PingRow] = models.Manager()

    def __str__(self) -> str:
        return f"ping {self.pk}"
