"""A series from the organizer's side: draw, redraw, swap, start, close."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.forms import DrawForm, SwapForm
from tournaments.models import Series
from tournaments.services import ServiceError
from tournaments.services.draw import draw_series, swap_players
from tournaments.services.lifecycle import close_series, start_series
from tournaments.views.mixins import OrganizerMixin


def tables_with_seats(series: Series) -> list[Any]:
    return list(series.tables.prefetch_related("seats__registration__player"))


class SeriesManageView(OrganizerMixin, TemplateView):
    template_name = "tournaments/organizer/series.html"

    def get_series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        series = kwargs.get("series") or self.get_series()
        seated = self.tournament.registrations.filter(seats__series=series).select_related("player")
        context.update(
            series=series,
            tables=tables_with_seats(series),
            draw_form=kwargs.get("draw_form") or DrawForm(),
            swap_form=kwargs.get("swap_form") or SwapForm(registrations=seated),
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.get_series()
        action = request.POST.get("action")
        try:
            if action == "draw":
                return self.draw(series)
            if action == "swap":
                return self.swap(series)
            if action == "start":
                start_series(series)
                messages.success(request, _("Series started: the captain links are valid now."))
            elif action == "close":
                close_series(series)
                messages.success(request, _("Series closed."))
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)

    def draw(self, series: Series) -> HttpResponse:
        form = DrawForm(self.request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(series=series, draw_form=form))
        plan = draw_series(
            series,
            seed=form.cleaned_data["seed"],
            mode=form.cleaned_data["mode"],
            keep_clubs_apart=form.cleaned_data["keep_clubs_apart"],
            standings=self.standings_order(series)
            if form.cleaned_data["mode"] == "standings"
            else (),
        )
        messages.success(
            self.request,
            _("Drawn with seed %(seed)d: %(tables)d tables, %(repeats)d repeated encounters.")
            % {"seed": plan.seed, "tables": len(plan.tables), "repeats": plan.repeats},
        )
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)

    def standings_order(self, series: Series) -> tuple[int, ...]:
        from tournaments.services.standings_order import start_numbers_by_standing

        return start_numbers_by_standing(self.tournament, before_series=series.number)

    def swap(self, series: Series) -> HttpResponse:
        seated = self.tournament.registrations.filter(seats__series=series)
        form = SwapForm(self.request.POST, registrations=seated)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(series=series, swap_form=form))
        repeats = swap_players(series, form.cleaned_data["first"], form.cleaned_data["second"])
        messages.success(
            self.request,
            _("Swapped. The series now has %(repeats)d repeated encounters.")
            % {"repeats": repeats},
        )
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)
