"""Organizer pages of the results: progress board, table sheets with audited corrections."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from scoring.models import AuditEntry
from scoring.progress import series_progress
from tournaments.views.mixins import OrganizerMixin


class ProgressView(OrganizerMixin, TemplateView):
    template_name = "scoring/organizer/progress.html"

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["scoring/organizer/_progress_table.html"]
        return [self.template_name]

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        series = get_object_or_404(self.tournament.series, number=kwargs["number"])
        order = self.request.GET.get("order", "")
        context.update(series=series, progress=series_progress(series, order))
        return context


class AuditLogView(OrganizerMixin, TemplateView):
    template_name = "scoring/organizer/audit.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["entries"] = AuditEntry.objects.filter(tournament=self.tournament).select_related(
            "table__series", "user"
        )[:500]
        return context
