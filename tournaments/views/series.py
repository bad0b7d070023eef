"""A series from the organizer's side: swap, seat latecomers, start. Drawing and closing are
the results app's (``scoring.views.organizer_actions``): a draw may seat by the standings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from common.services import ServiceError
from tournaments.forms import DrawForm, SwapForm
from tournaments.models import Series
from tournaments.services.draw import repeated_encounters, swap_players
from tournaments.services.keep_apart import not_honoured
from tournaments.services.latecomers import (
    LatecomerOutcome,
    propose_latecomers,
    seat_latecomers,
    unseated_players,
)
from tournaments.services.lifecycle import start_series
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
            keeper=True,  # the organizers see full names (tournaments.publication)
            tables=tables_with_seats(series),
            draw_form=kwargs.get("draw_form") or DrawForm(),
            swap_form=kwargs.get("swap_form") or SwapForm(registrations=seated),
            start_error=kwargs.get("start_error", ""),
            not_kept_apart=not_honoured(series),
        )
        if series.status in (Series.Status.DRAWN, Series.Status.RUNNING):
            context["unseated"] = unseated_players(series)
        if series.status == Series.Status.DRAWN and context["unseated"]:
            try:
                context["latecomer_preview"] = propose_latecomers(series)
            except ServiceError as exc:
                context["latecomer_error"] = exc.message
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.get_series()
        action = request.POST.get("action")
        try:
            if action == "swap":
                return self.swap(series)
            if action == "seat_latecomers":
                outcome = seat_latecomers(series)
                messages.success(request, describe_outcome(outcome))
            elif action == "start":
                return self.start(series)
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)

    def start(self, series: Series) -> HttpResponse:
        confirmed = self.request.POST.get("allow_unseated", "") in ("on", "true", "1")
        try:
            start_series(series, allow_unseated=confirmed)
        except ServiceError as exc:
            if exc.code != "unseated_players":
                raise
            # Shown next to the confirmation box, which the page now offers.
            context = self.get_context_data(series=series, start_error=exc.message)
            return self.render_to_response(context)
        messages.success(self.request, _("Series started: the captain links are valid now."))
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)

    def swap(self, series: Series) -> HttpResponse:
        seated = self.tournament.registrations.filter(seats__series=series)
        form = SwapForm(self.request.POST, registrations=seated)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(series=series, swap_form=form))
        repeats = swap_players(series, form.cleaned_data["first"], form.cleaned_data["second"])
        messages.success(
            self.request,
            _("Swapped. The series now has %(repeats)s.")
            % {"repeats": repeated_encounters(repeats)},
        )
        return redirect("tournaments:series", slug=self.tournament.slug, number=series.number)


def describe_outcome(outcome: LatecomerOutcome) -> str:
    """Who went where and what it cost, for the message after seating latecomers."""
    places = []
    for p in outcome.placements:
        values = {"player": p.registration.player, "table": p.table, "seat": p.seat}
        if p.from_table is None:
            places.append(_("%(player)s: table %(table)d, seat %(seat)d") % values)
        else:
            places.append(
                _("%(player)s: from table %(from)d to table %(table)d, seat %(seat)d")
                % {**values, "from": p.from_table}
            )
    text = _("Seated. %(places)s.") % {"places": "; ".join(places)}
    if outcome.repeat_pairs:
        pairs = ", ".join(f"{a.player} – {b.player}" for a, b in outcome.repeat_pairs)
        text += " " + _("Repeated encounters this adds: %(count)d (%(pairs)s).") % {
            "count": len(outcome.repeat_pairs),
            "pairs": pairs,
        }
    else:
        text += " " + _("No repeated encounters added.")
    return text
