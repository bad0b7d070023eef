"""The DDV pages: a tournament's report to the ranking keeper (the check, the mark and the
downloads; its organizers only, 404 for everyone else: the report carries full names and
DDV numbers) and a season's import of such a report (its owner only)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from seasons.ddv import files
from seasons.ddv.forms import DdvDetailsForm, DdvImportForm
from seasons.ddv.importing import import_ddv_report
from seasons.ddv.report import build_report, refusals
from seasons.ddv.setting import details_of, save_ddv_details
from seasons.views.organizer import OwnerMixin
from tournaments.models import Tournament
from tournaments.permissions import TOURNAMENTS


class ReportMixin(LoginRequiredMixin):
    """The tournament from the URL, for those who keep it; it does not exist for others."""

    tournament: Tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not TOURNAMENTS.may_keep(request.user, tournament):
            raise Http404
        self.tournament = tournament
        return super().dispatch(request, *args, **kwargs)


class DdvReportView(ReportMixin, FormView[DdvDetailsForm]):
    template_name = "seasons/ddv/report.html"
    form_class = DdvDetailsForm

    def get_initial(self) -> dict[str, Any]:
        details = details_of(self.tournament)
        return {
            "ddv_ranking": details.ddv_ranking,
            "director": details.director,
            "referee": details.referee,
        }

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        report = build_report(self.tournament)
        context.update(
            tournament=self.tournament,
            report=report,
            refusals=refusals(report),
            head=files.head_rows(report),
        )
        return context

    def form_valid(self, form: DdvDetailsForm) -> HttpResponse:
        try:
            changed = save_ddv_details(
                self.tournament, form.details(), actor=Actor(ORGANIZER, user=self.request.user)
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            return self.form_invalid(form)
        if changed:
            messages.success(self.request, _("Saved."))
        return redirect("seasons:ddv-report", slug=self.tournament.slug)


class DdvFileView(ReportMixin, View):
    """The report as a file (``fmt``: csv, xlsx, pdf or json); back to the page with the
    reasons when it cannot be sent."""

    fmt: ClassVar[str] = "json"
    http_method_names = ["get"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        report = build_report(self.tournament)
        refused = refusals(report)
        if refused:
            for text in refused:
                messages.error(request, text)
            return redirect("seasons:ddv-report", slug=self.tournament.slug)
        name = f"{self.tournament.slug}-ddv.{self.fmt}"
        response: HttpResponse
        if self.fmt == "json":
            response = JsonResponse(files.to_json(report), json_dumps_params={"indent": 1})
        elif self.fmt == "csv":
            response = HttpResponse(files.to_csv(report), content_type="text/csv; charset=utf-8")
        elif self.fmt == "xlsx":
            response = HttpResponse(
                files.to_xlsx(report),
                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
        else:
            response = HttpResponse(files.to_pdf(report), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        response["Cache-Control"] = "private, no-store"
        return response


class DdvImportView(OwnerMixin, FormView[DdvImportForm]):
    """A season's owner imports a DDV report (JSON) as one of its tournaments."""

    template_name = "seasons/ddv/import.html"
    form_class = DdvImportForm

    def form_valid(self, form: DdvImportForm) -> HttpResponse:
        try:
            outcome = import_ddv_report(
                self.season,
                form.cleaned_data["report"],
                actor=Actor(ORGANIZER, user=self.request.user),
            )
        except ServiceError as exc:
            form.add_error("report", exc.message)
            return self.form_invalid(form)
        name = outcome.tournament.name
        if outcome.unchanged:
            messages.info(
                self.request, _("“%(name)s” was imported before; nothing changed.") % {"name": name}
            )
        elif outcome.created:
            messages.success(
                self.request, _("“%(name)s” imported into the season.") % {"name": name}
            )
        else:
            messages.success(
                self.request, _("The results of “%(name)s” were replaced.") % {"name": name}
            )
        return redirect("seasons:ddv-import", season=self.season.slug)
