"""The organizers' side of the outbox: games phones kept that the sheet could not take
(conflicts), to be entered through the sheet pages and then marked resolved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from common.actors import ORGANIZER, Actor
from common.parsing import whole_number
from common.services import ServiceError
from scoring.handover import FieldValue
from scoring.models import OutboxConflict
from scoring.services.handover import MAX_TEXT, hand_over
from scoring.services.outbox import resolve_conflict
from scoring.views.captain import bound_game_form
from tournaments.models import Series, Table
from tournaments.views.mixins import OrganizerMixin


def fact_lines(facts: Any) -> list[str]:
    """A kept game's fields as the organizer reads them: ``name: value``, lists joined,
    empty fields left out."""
    if not isinstance(facts, dict):
        return []
    lines = []
    for name, value in facts.items():
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        if shown not in ("", "0"):
            lines.append(f"{name}: {shown}")
    return lines


class OutboxConflictsView(OrganizerMixin, TemplateView):
    """A series' outbox conflicts with their facts; open ones first."""

    template_name = "scoring/organizer/outbox_conflicts.html"

    def series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        series = self.series()
        conflicts = list(
            OutboxConflict.objects.filter(table__series=series)
            .select_related("table", "resolved_by")
            .order_by("resolved_at", "table__number", "number", "pk")
        )
        return {
            **super().get_context_data(**kwargs),
            "series": series,
            "open": [(c, fact_lines(c.facts)) for c in conflicts if c.resolved_at is None],
            "resolved": [c for c in conflicts if c.resolved_at is not None],
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.series()
        pk = whole_number(request.POST.get("conflict", ""), digits=12)
        back = redirect("scoring:outbox-conflicts", slug=self.tournament.slug, number=series.number)
        conflict = OutboxConflict.objects.filter(pk=pk or 0, table__series=series).first()
        if conflict is None:
            messages.error(request, _("This conflict does not exist (any more)."))
            return back
        try:
            resolve_conflict(conflict, actor=Actor(ORGANIZER, user=request.user))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Table %(t)d, game %(n)d: marked as resolved.")
                % {"t": conflict.table.number, "n": conflict.number},
            )
        return redirect("scoring:outbox-conflicts", slug=self.tournament.slug, number=series.number)


def read_handed_game(table: Table, fields: dict[str, FieldValue]) -> tuple[Any, str]:
    """A handed-over game's fields read by the table's game form, as if posted: the facts
    for the engine, or the form's first complaint."""
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, list(value) if isinstance(value, tuple) else [value])
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    form = bound_game_form(table, seats, data)
    if not form.is_valid():
        first = next(
            (f"{form[n].label if n in form.fields else ''}: {e[0]}".lstrip(": ")
             for n, e in form.errors.items() if e),
            _("The game was not saved."),
        )  # fmt: skip
        return None, first
    return form.to_payload(size=len(seats)), ""


class HandoverView(OrganizerMixin, TemplateView):
    """The hand-over page: a barcode scanner types a phone's QR codes into the text field
    (one per line); each game is entered as the sync endpoint would and reported."""

    template_name = "scoring/organizer/handover.html"

    def series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "series": self.series()}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.series()
        text = request.POST.get("codes", "")
        lines = hand_over(
            series,
            text,
            actor=Actor(ORGANIZER, user=request.user),
            read_game=read_handed_game,
        )
        context = self.get_context_data(**kwargs)
        # Refused codes are also said next to the field the scanner typed them into.
        refused_codes = [line for line in lines if line.status == "invalid"]
        context.update(
            lines=lines, codes=text[:MAX_TEXT], scanned=True, refused_codes=refused_codes
        )
        return self.render_to_response(context)
