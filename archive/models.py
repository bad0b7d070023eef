"""Where an imported tournament came from (the archive's source, kept beside the tournament,
which itself stays the importer's own, with new links and tokens), and the imports
themselves: one row per uploaded archive, checked and written by a background task."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
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
    # SHA-256 over the archive's content without its export time (``reading.content_hash``):
    # the same archive imported again is recognized by it.
    content_hash = models.CharField(max_length=64, blank=True, db_index=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("imported tournament")
        verbose_name_plural = _("imported tournaments")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.imported_at:%Y-%m-%d})"


class ArchiveImport(models.Model):
    """One uploaded archive on its way to a tournament (``archive.jobs``): queued, checked
    in the background (a summary, or the problems), confirmed by its organizer (at once
    over the API), written in the background. The file is kept until the import ends."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        CHECKING = "checking", _("checking")
        CHECKED = "checked", _("checked")  # waiting for the organizer's confirmation
        IMPORTING = "importing", _("importing")
        DONE = "done", _("done")
        REFUSED = "refused", _("refused")  # the archive has problems; nothing was saved
        FAILED = "failed", _("failed")  # the task failed or stalled; nothing was saved

    class Failure(models.TextChoices):
        ERROR = "error"
        TIME_LIMIT = "time_limit"
        STALLED = "stalled"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="archive_imports"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # Write the tournament as soon as the check passed (the API's default); otherwise the
    # check stops at CHECKED and the organizer confirms the summary.
    confirmed = models.BooleanField(default=False)
    language = models.CharField(max_length=8, default="de")
    via_api = models.BooleanField(default=False)  # for the audit entry's "via"
    data = models.BinaryField(blank=True, default=b"")  # emptied when the import ends
    size = models.PositiveIntegerField(default=0)
    content_hash = models.CharField(max_length=64, blank=True)
    # What the check found: name, players, series, tables, games.
    summary = models.JSONField(default=dict, blank=True)
    problems = models.JSONField(default=list, blank=True)  # [{"where": …, "message": …}]
    more_problems = models.PositiveIntegerField(default=0)
    games_done = models.PositiveIntegerField(default=0)
    games_total = models.PositiveIntegerField(default=0)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    players_new = models.PositiveIntegerField(default=0)
    players_matched = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    failure = models.CharField(max_length=12, choices=Failure.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Moved on by every step; a queued or working import without progress for
    # ARCHIVE_IMPORT_STALL_SECONDS has stalled (its worker was lost).
    progress_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("archive import")
        verbose_name_plural = _("archive imports")
        constraints = [
            # One organizer, one running import: a second waits for the first to end.
            models.UniqueConstraint(
                fields=["owner"],
                condition=Q(status__in=["queued", "checking", "importing"]),
                name="archiveimport_one_running_per_owner",
            ),
            models.CheckConstraint(
                condition=Q(games_done__lte=models.F("games_total")),
                name="archiveimport_progress_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"archive import #{self.pk} ({self.status})"

    @property
    def is_running(self) -> bool:
        return self.status in RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.REFUSED, self.Status.FAILED)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return min(100, self.games_done * 100 // self.games_total) if self.games_total else 0

    @property
    def page_url(self) -> str:
        return reverse("archive:import-status", kwargs={"pk": self.pk})


RUNNING = (
    ArchiveImport.Status.QUEUED,
    ArchiveImport.Status.CHECKING,
    ArchiveImport.Status.IMPORTING,
)
