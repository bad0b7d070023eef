"""Generated documents: one row per rendered PDF, reused while the data it shows is unchanged."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GeneratedDocument(models.Model):
    class Kind(models.TextChoices):
        PRINT_PACK = "print_pack", _("print pack")
        RESULTS = "results", _("result report")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    class Failure(models.TextChoices):
        """Why a failed document failed; the page explains each in words."""

        ERROR = "error"  # the task raised; ``error`` holds the exception
        TIME_LIMIT = "time_limit"  # a task ran past its soft time limit
        STALLED = "stalled"  # no progress for DOCUMENT_STALL_SECONDS: its worker was lost

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="documents"
    )
    series = models.ForeignKey(
        "tournaments.Series",
        on_delete=models.CASCADE,
        related_name="documents",
        null=True,
        blank=True,
    )
    language = models.CharField(_("language"), max_length=8)
    # SHA-256 over kind, target, language, layout version and the data shown (see builders).
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    pages_done = models.PositiveIntegerField(default=0)
    pages_total = models.PositiveIntegerField(default=0)
    # The parts (their indexes; -1 the static layers) whose files a worker has stored: the
    # last one stored has the document joined (documents.pipeline), a part stored twice
    # counts once.
    parts_stored = models.JSONField(default=list, blank=True)
    error = models.TextField(_("error"), blank=True)
    failure = models.CharField(max_length=12, choices=Failure.choices, blank=True)
    file = models.FileField(_("file"), upload_to="documents/%Y/%m/", blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Moved on by every step of the generation; a queued or running document whose
    # progress_at lies further back than DOCUMENT_STALL_SECONDS has stalled.
    progress_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("generated document")
        verbose_name_plural = _("generated documents")
        constraints = [
            # At most one live (queued, running or done) document per fingerprint; a failed
            # one may be retried.
            models.UniqueConstraint(
                fields=["fingerprint"],
                condition=~Q(status="failed"),
                name="generateddocument_one_live_per_fingerprint",
            ),
            models.CheckConstraint(
                condition=Q(pages_done__lte=models.F("pages_total")),
                name="generateddocument_progress_in_range",
            ),
            models.CheckConstraint(
                condition=Q(kind="results") | Q(series__isnull=False),
                name="generateddocument_print_pack_has_series",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "kind", "series", "language"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        if not self.pages_total:
            return 0
        return min(100, self.pages_done * 100 // self.pages_total)

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def page_url(self) -> str:
        """The organizer page that requests this kind of document (and retries it)."""
        slug = self.tournament.slug
        if self.kind == self.Kind.PRINT_PACK and self.series is not None:
            return reverse("documents:series", kwargs={"slug": slug, "number": self.series.number})
        return reverse("documents:results", kwargs={"slug": slug})

    @property
    def filename(self) -> str:
        slug = self.tournament.slug
        if self.kind == self.Kind.PRINT_PACK and self.series is not None:
            return f"{slug}-serie-{self.series.number}.pdf"
        return f"{slug}-ergebnisse.pdf"
