"""Organizer pages of the results: progress board, the change log."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from scoring.audit_text import codes_of_kind, describe_entries, kind_choices
from scoring.models import AuditEntry
from scoring.progress import series_progress
from tournaments.models import Table, Tournament
from tournaments.views.mixins import OrganizerMixin

AUDIT_PAGE_SIZE = 50


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


class AuditFilterForm(forms.Form):
    """The change log's filter (GET): series, table number, kind of change. A value that is
    not one of the choices is ignored, never an error page."""

    series = forms.TypedChoiceField(label=_("Series"), coerce=int, required=False)
    table = forms.TypedChoiceField(label=_("Table"), coerce=int, required=False)
    kind = forms.ChoiceField(label=_("Kind"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        everything: list[tuple[Any, Any]] = [("", _("all"))]
        numbers = tournament.series.values_list("number", flat=True)
        tables = (
            Table.objects.filter(series__tournament=tournament)
            .values_list("number", flat=True)
            .distinct()
            .order_by("number")
        )
        for name, options in (
            ("series", [(n, n) for n in numbers]),
            ("table", [(n, n) for n in tables]),
            ("kind", kind_choices()),
        ):
            cast(forms.ChoiceField, self.fields[name]).choices = everything + options

    def valid_values(self) -> dict[str, Any]:
        """The filter values that are among the choices; the others count as "all"."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {k: v for k, v in data.items() if v not in (None, "")}


def filter_entries(entries: QuerySet[AuditEntry], values: dict[str, Any]) -> QuerySet[AuditEntry]:
    """Penalty points belong to a series but to no table: they are found by series."""
    if "series" in values:
        number = values["series"]
        entries = entries.filter(
            Q(table__series__number=number)
            | Q(table__isnull=True, action="scoring.penalty.created", after__series=number)
        )
    if "table" in values:
        entries = entries.filter(table__number=values["table"])
    if "kind" in values:
        entries = entries.filter(action__in=codes_of_kind(values["kind"]))
    return entries


class AuditLogView(OrganizerMixin, TemplateView):
    """Every change to results, newest first, in words; filtered and paged."""

    template_name = "scoring/organizer/audit.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        form = AuditFilterForm(self.request.GET, tournament=self.tournament)
        values = form.valid_values()
        if form.errors:
            # A value that is not a choice (a hand-edited link) is dropped quietly: the
            # form shows the values in force and the list everything for the others.
            form = AuditFilterForm(initial=values, tournament=self.tournament)
        entries = AuditEntry.objects.filter(tournament=self.tournament).select_related(
            "table__series", "user"
        )
        page = Paginator(filter_entries(entries, values), AUDIT_PAGE_SIZE).get_page(
            self.request.GET.get("page")
        )
        context.update(
            form=form,
            page=page,
            lines=describe_entries(list(page.object_list)),
            filtered=bool(values),
        )
        return context
