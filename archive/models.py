"""Where an imported tournament came from: the archive's source, kept beside the tournament
(the tournament itself stays as the importer's own, with new links and tokens)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class ImportedTournament(models.Model):
    """A tournament created from an archive (``archive.services.import_archive``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="imported_from"
    )
    # The archive's format version, its source (slug, site, export time) and its audit
    # summary, as the archive said them.
    source = models.JSONField(_("source"), default=dict)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("imported tournament")
        verbose_name_plural = _("imported tournaments")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.imported_at:%Y-%m-%d})"
