"""Organizer pages of the results: progress board (with the referee's hand on the clock:
pause, resume, Nachspielzeit), the change log."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from common.actors import ORGANIZER, Actor
from common.changelog import codes_of_kind, kind_choices
from common.parsing import whole_number
from common.services import ServiceError
from scoring.audit_text import SERIES_ACTIONS, describe_entries
from scoring.models import MAX_EXTENSION_MINUTES, AuditEntry
from scoring.progress import series_progress
from scoring.services.clock import MAX_REASON, extend_table, pause_hall, resume_hall
from tournaments.models import Series, Table, Tournament
from tournaments.views.mixins import OrganizerMixin

AUDIT_PAGE_SIZE = 50

# The services' words for the same refusals.
MINUTES_RANGE = _("Nachspielzeit is 1 to %(max)d minutes at a time.")
REASON_REQUIRED = _("Say why the table gets more time (at most %(max)d characters).")


class ExtensionForm(forms.Form):
    """Nachspielzeit for one table: how long and why (both required)."""

    table = forms.TypedChoiceField(label=_("Table"), coerce=int)
    minutes = forms.IntegerField(label=_("Minutes"))  # the range: see __init__
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON)

    def __init__(self, *args: Any, numbers: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table = cast(forms.ChoiceField, self.fields["table"])
        table.choices = [("", "–"), *((n, n) for n in numbers)]
        wrong = str(MINUTES_RANGE) % {"max": MAX_EXTENSION_MINUTES}
        self.fields["minutes"] = forms.IntegerField(
            label=_("Minutes"),
            min_value=1,
            max_value=MAX_EXTENSION_MINUTES,
            error_messages={
                "required": wrong,
                "invalid": wrong,
                "min_value": wrong,
                "max_value": wrong,
            },
        )
        why = str(REASON_REQUIRED) % {"max": MAX_REASON}
        self.fields["reason"].error_messages.update(required=why, max_length=why)


class PauseForm(forms.Form):
    reason = forms.CharField(label=_("Reason (optional)"), max_length=MAX_REASON, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the Nachspielzeit form on the same page has a reason too.
        kwargs.setdefault("auto_id", "pause_%s")
        super().__init__(*args, **kwargs)


#: htmx stops an element's polling when the answer has this status (and still shows it).
STOP_POLLING = 286


class ProgressView(OrganizerMixin, TemplateView):
    """The board of a series (refreshed by htmx); while it runs, the clock's controls below
    it, posted to this page: pause and resume the hall, Nachspielzeit for a table."""

    template_name = "scoring/organizer/progress.html"

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["scoring/organizer/_progress_table.html"]
        return [self.template_name]

    def series(self) -> Series:
        return get_object_or_404(self.tournament.series, number=self.kwargs["number"])

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = cast(TemplateResponse, super().get(request, *args, **kwargs))
        series = (response.context_data or {})["series"]
        if request.headers.get("HX-Request") and series.status != Series.Status.RUNNING:
            response.status_code = STOP_POLLING  # closed while the board was open
        return response

    def table_numbers(self, series: Series) -> list[int]:
        return list(series.tables.order_by("number").values_list("number", flat=True))

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        series = kwargs.get("series") or self.series()
        order = self.request.GET.get("order", "")
        progress = series_progress(series, order)
        context.update(series=series, progress=progress)
        if progress.clock is not None and not self.request.headers.get("HX-Request"):
            chosen = self.request.GET.get("tisch", "")
            context["extension_form"] = kwargs.get("extension_form") or ExtensionForm(
                initial={"table": chosen} if whole_number(chosen) is not None else {},
                numbers=self.table_numbers(series),
            )
            context["pause_form"] = kwargs.get("pause_form") or PauseForm()
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        series = self.series()
        actor = Actor(ORGANIZER, user=request.user)
        action = request.POST.get("action")
        if action == "extend":
            return self.extend(series, actor)
        if action in ("pause", "resume"):
            return self.pause_or_resume(series, actor, pause=action == "pause")
        return redirect(request.get_full_path())

    def extend(self, series: Series, actor: Actor) -> HttpResponse:
        form = ExtensionForm(self.request.POST, numbers=self.table_numbers(series))
        if form.is_valid():
            data = form.cleaned_data
            table = series.tables.select_related("series__tournament").get(number=data["table"])
            try:
                extend_table(table, minutes=data["minutes"], reason=data["reason"], actor=actor)
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(
                    self.request,
                    ngettext(
                        "Table %(table)d gets %(minutes)d minute of Nachspielzeit.",
                        "Table %(table)d gets %(minutes)d minutes of Nachspielzeit.",
                        data["minutes"],
                    )
                    % {"table": table.number, "minutes": data["minutes"]},
                )
                return redirect(self.request.get_full_path())
        context = self.get_context_data(series=series, extension_form=form, **self.kwargs)
        return self.render_to_response(context)

    def pause_or_resume(self, series: Series, actor: Actor, *, pause: bool) -> HttpResponse:
        form = PauseForm(self.request.POST)
        if pause and not form.is_valid():
            context = self.get_context_data(series=series, pause_form=form, **self.kwargs)
            return self.render_to_response(context)
        try:
            if pause:
                pause_hall(series, reason=form.cleaned_data["reason"], actor=actor)
            else:
                resume_hall(series, actor=actor)
        except ServiceError as exc:
            messages.error(self.request, exc.message)
        else:
            messages.success(
                self.request,
                gettext("The clock is paused for every table.")
                if pause
                else gettext("The clock runs again."),
            )
        return redirect(self.request.get_full_path())


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
    """Penalty points and the pauses of the hall belong to a series but to no table: they
    are found by the series in their data."""
    if "series" in values:
        number = values["series"]
        entries = entries.filter(
            Q(table__series__number=number)
            | Q(table__isnull=True, action__in=SERIES_ACTIONS, after__series=number)
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
