"""Organizer actions on results: reopen a sheet, call time, deductions (TSR 9.7)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import View
from django.views.generic import FormView, TemplateView

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from rules.ruleset import RuleSet
from scoring.models import Deduction
from scoring.rulesets import ruleset_for
from scoring.services.closing import close_series, unfinished_sheets
from scoring.services.contact import pending_tables
from scoring.services.deductions import add_deduction
from scoring.services.draw import draw_by_chance_or_standings
from scoring.services.sheet import call_time, reopen_sheet, set_timeout
from tournaments.forms import DrawForm
from tournaments.models import Registration, Series, Table
from tournaments.services.draw import repeated_encounters
from tournaments.views.mixins import OrganizerMixin
from tournaments.views.series import SeriesManageView


class SheetActionView(OrganizerMixin, View):
    """Reopen a submitted sheet (with a reason) or set/clear its time-out flag."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        table = get_object_or_404(
            Table.objects.select_related("series__tournament"),
            pk=kwargs["table_id"],
            series__tournament=self.tournament,
        )
        actor = Actor(ORGANIZER, user=request.user)
        action = request.POST.get("action")
        try:
            if action == "reopen":
                reopen_sheet(table, actor=actor, reason=request.POST.get("reason", ""))
                messages.success(request, _("The sheet is open again."))
            elif action in ("timeout", "no-timeout"):
                set_timeout(table, timeout=action == "timeout", actor=actor)
                messages.success(request, _("Saved."))
        except ServiceError as exc:
            messages.error(request, exc.message)
        if request.POST.get("next") == "progress":  # the time-up prompt of the board
            return redirect(
                "scoring:progress", slug=self.tournament.slug, number=table.series.number
            )
        return redirect("scoring:sheet", slug=self.tournament.slug, table_id=table.pk)


class CallTimeView(OrganizerMixin, View):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = get_object_or_404(self.tournament.series, number=kwargs["number"])
        try:
            count = call_time(series, actor=Actor(ORGANIZER, user=request.user))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                ngettext(
                    "Time called at %(n)d table: only forced solos remain.",
                    "Time called at %(n)d tables: only forced solos remain.",
                    count,
                )
                % {"n": count},
            )
        if request.POST.get("next") == "progress":  # the time-up prompt of the board
            return redirect("scoring:progress", slug=self.tournament.slug, number=series.number)
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)


class DrawSeriesView(SeriesManageView):
    """The series page's draw form: a draw by standings reads the results, so it is posted
    here; an invalid form shows the series page again with its errors."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.get_series()
        form = DrawForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(series=series, draw_form=form))
        try:
            plan = draw_by_chance_or_standings(
                series,
                seed=form.cleaned_data["seed"],
                mode=form.cleaned_data["mode"],
                keep_clubs_apart=form.cleaned_data["keep_clubs_apart"],
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Drawn with seed %(seed)d: %(tables)s, %(repeats)s.")
                % {
                    "seed": plan.seed,
                    "tables": ngettext("%(n)d table", "%(n)d tables", len(plan.tables))
                    % {"n": len(plan.tables)},
                    "repeats": repeated_encounters(plan.repeats),
                },
            )
            if plan.unhonoured:
                messages.warning(
                    request,
                    ngettext(
                        "%(n)d pair could not be kept apart; the reason is below.",
                        "%(n)d pairs could not be kept apart; the reasons are below.",
                        len(plan.unhonoured),
                    )
                    % {"n": len(plan.unhonoured)},
                )
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)


class CloseSeriesView(OrganizerMixin, TemplateView):
    """Closing a series names the tables whose sheets are not confirmed and asks explicitly
    before it closes past them."""

    template_name = "scoring/organizer/close_series.html"

    def series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        series = self.series()
        return {
            **super().get_context_data(**kwargs),
            "series": series,
            "unfinished": unfinished_sheets(series),
            "pending": pending_tables(series),
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.series()
        past = request.POST.get("past_unfinished", "") in ("on", "true", "1")
        past_pending = request.POST.get("past_pending", "") in ("on", "true", "1")
        try:
            close_series(
                series,
                actor=Actor(ORGANIZER, user=request.user),
                past_unfinished=past,
                past_pending=past_pending,
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("scoring:close-series", slug=self.tournament.slug, number=series.number)
        messages.success(request, _("Series closed."))
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)


class DeductionForm(forms.Form):
    registration = forms.ModelChoiceField(
        label=gettext_lazy("player"), queryset=Registration.objects.none()
    )
    points = forms.IntegerField(label=gettext_lazy("points"))  # bounds: see __init__
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=300)

    def __init__(self, *args: Any, registrations: Any, ruleset: RuleSet, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast("forms.ModelChoiceField[Registration]", self.fields["registration"])
        field.queryset = registrations
        # The rule set's bound (TSR 9.7), checked here and by the service, shown by the page.
        self.fields["points"] = forms.IntegerField(
            label=gettext_lazy("points"), min_value=-ruleset.max_deduction, max_value=-1
        )


class DeductionView(OrganizerMixin, FormView[DeductionForm]):
    """Points deducted without counter-credit (TSR 9.7) for players of one series."""

    template_name = "scoring/organizer/deductions.html"
    form_class = DeductionForm

    def series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get_form_kwargs(self) -> dict[str, Any]:
        seated = self.tournament.registrations.filter(seats__series=self.series()).select_related(
            "player"
        )
        return {
            **super().get_form_kwargs(),
            "registrations": seated,
            "ruleset": ruleset_for(self.tournament),
        }

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        series = self.series()
        deductions = Deduction.objects.filter(series=series).select_related(
            "registration__player", "created_by"
        )
        return {
            **super().get_context_data(**kwargs),
            "series": series,
            "deductions": deductions,
            # Before the draw nobody sits in the series: the form would offer no player.
            "seated": series.seats.exists(),
        }

    def form_valid(self, form: DeductionForm) -> HttpResponse:
        data = form.cleaned_data
        try:
            add_deduction(
                self.series(),
                data["registration"],
                data["points"],
                data["reason"],
                Actor(ORGANIZER, user=self.request.user),
            )
        except ServiceError as exc:
            form.add_error(exc.field or None, exc.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Deduction recorded."))
        return redirect(
            "scoring:deductions", slug=self.tournament.slug, number=self.kwargs["number"]
        )
