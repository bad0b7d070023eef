"""The exports (public like the standings for a public tournament; the archive for its
organizers) and the import page (any logged-in organizer: the archive becomes his)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from archive import jobs
from archive.export import build_archive
from archive.exports import games_sheet, standings_sheet, standings_sheets
from archive.models import ArchiveImport
from archive.player_data import player_data
from common.services import ServiceError
from common.sheets import download, spreadsheet
from tournaments.models import Player
from tournaments.permissions import visible_tournaments
from tournaments.views.mixins import OrganizerMixin

#: The largest archive the import reads.
MAX_ARCHIVE_BYTES = 5 * 1024 * 1024


class StandingsExportView(View):
    """The overall standings (CSV), with every series' standings (XLSX, a sheet each)."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
        sheets = (
            standings_sheets(tournament)
            if request.GET.get("format") == "xlsx"
            else [standings_sheet(tournament)]
        )
        return spreadsheet(request, sheets, f"{tournament.slug}-tabelle")


class SeriesStandingsExportView(View):
    def get(self, request: HttpRequest, slug: str, number: int) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
        series = get_object_or_404(tournament.series, number=number)
        series.tournament = tournament
        sheet = standings_sheet(tournament, series)
        return spreadsheet(request, [sheet], f"{tournament.slug}-serie-{number}-tabelle")


class GamesExportView(View):
    """Every game: public like a player's games page (names and clubs only)."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
        return spreadsheet(request, [games_sheet(tournament)], f"{tournament.slug}-spiele")


class ArchiveDownloadView(OrganizerMixin, View):
    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        content = json.dumps(build_archive(self.tournament), ensure_ascii=False, indent=1)
        return download(content.encode(), "application/json", f"{self.tournament.slug}-archiv.json")


class PlayerDataView(LoginRequiredMixin, View):
    """A player's data export (DSGVO Art. 15) for the keepers of his registry to hand out."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = Player.objects.filter(pk=pk).first()
        if player is None:
            raise Http404
        try:
            data = player_data(request.user, player)
        except ServiceError as exc:
            raise Http404 from exc
        content = json.dumps(data, ensure_ascii=False, indent=1)
        return download(content.encode(), "application/json", f"spieler-{pk}-daten.json")


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("tournament archive (.json)"),
        help_text=gettext_lazy("An archive exported by Doko-Turnier, at most 5 MB."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(
                _("The file is larger than 5 MB; a tournament archive is much smaller.")
            )
        return upload


class ImportView(LoginRequiredMixin, TemplateView):
    """Upload an archive: it is stored and checked in the background; the organizer sees
    the check on the import's page (``ImportStatusView``) and confirms it there."""

    template_name = "archive/import.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = ImportForm(request.POST, request.FILES)
        running: ArchiveImport | None = None
        if form.is_valid():
            raw = form.cleaned_data["file"].read()
            user = request.user
            assert isinstance(user, User)  # LoginRequiredMixin
            try:
                job = jobs.start(raw, user, confirmed=False, language=get_language() or "de")
            except jobs.ImportRunning as exc:
                running = exc.running
                form.add_error(
                    "file",
                    _("Another import of yours is still running; start the next one when it "
                      "has ended."),
                )  # fmt: skip
            else:
                return HttpResponseRedirect(job.page_url)
        context = self.get_context_data(form=form, running=running)
        return self.render_to_response(context)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("form", ImportForm())
        return super().get_context_data(**kwargs)


def _status_context(job: ArchiveImport) -> dict[str, Any]:
    return {
        "job": job,
        "problems": jobs.problems_of(job),
        "duplicates": list(jobs.duplicates(job)) if job.status == job.Status.CHECKED else [],
    }


class ImportStatusView(LoginRequiredMixin, View):
    """One import: its progress, its summary to confirm, its problems, or its tournament.
    Only its owner sees it (anyone else: 404)."""

    def job(self, pk: int) -> ArchiveImport:
        job = get_object_or_404(
            ArchiveImport.objects.defer("data").select_related("tournament"),
            pk=pk,
            owner_id=self.request.user.pk,
        )
        return jobs.fail_if_stalled(job)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        job = self.job(pk)
        template = (
            "archive/_import_status.html"
            if request.headers.get("HX-Request")
            else "archive/import_status.html"
        )
        return render(request, template, _status_context(job))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The organizer confirms the summary: the import is queued."""
        job = self.job(pk)
        user = request.user
        assert isinstance(user, User)
        try:
            jobs.confirm(job, user)
        except jobs.ImportRunning as exc:
            return HttpResponseRedirect(exc.running.page_url)
        return HttpResponseRedirect(job.page_url)
