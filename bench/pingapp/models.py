from __future__ import annotations

from django.db import models


class PingRow(models.Model):
    """One row per ping request."""

    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"ping {self.pk}"
