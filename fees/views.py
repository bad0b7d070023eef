"""The fee pages under /verwaltung/: the cash desk (one tap per player), the cash report,
the fees and the prize table, the payout list with its CSV and PDF. For the owners,
organizers and cashiers of the tournament's club (``fees.permissions.FEES``); the views
parse, permit, call the use case and present."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any, ClassVar
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from common.actors import ORGANIZER, Actor
from common.ownership import Ownership
from common.services import ServiceError
from common.views import KeeperMixin
from fees.forms import FeesForm, PrizesForm, TapForm
from fees.models import Booking, Prize, ReducedFee
from fees.permissions import FEES, fee_tournaments
from fees.reading import (
    DeskRow,
    cash_report,
    desk_rows,
    fee_choices,
    latest_bookings,
    payout_list,
)
from fees.services import book_fee, save_fees, save_prizes, settings_of
from tournaments.models import Tournament
from tournaments.permissions import is_organizer
from tournaments.views.players import search


class FeesMixin(KeeperMixin):
    """The tournament from the URL, for those who do its fee work (403 for the others)."""

    ownership: ClassVar[Ownership[Tournament]] = FEES
    url_kwarg = "slug"
    context_name = "tournament"
    tournament: Tournament
    request: HttpRequest

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # The organizer's menu for those who organize it; a cashier gets the fee pages'.
        context["organizes"] = is_organizer(self.request.user, self.tournament)
        return context


def _actor(request: HttpRequest) -> Actor:
    return Actor(ORGANIZER, user=request.user)


class MineView(LoginRequiredMixin, TemplateView):
    """The tournaments whose fees the user handles."""

    template_name = "fees/mine.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["tournaments"] = fee_tournaments(self.request.user).order_by("-starts_on", "name")
        return context


def _method(request: HttpRequest) -> str:
    chosen = request.GET.get("method") or request.POST.get("method") or ""
    return chosen if chosen in Booking.Method.values else Booking.Method.CASH


def _row_context(
    tournament: Tournament, row: DeskRow, method: str, query: str = ""
) -> dict[str, Any]:
    """A row of the desk with a new idempotency key for its taps."""
    return {
        "tournament": tournament,
        "row": row,
        "method": method,
        "query": query,
        "key": uuid.uuid4().hex,
    }


class DeskView(FeesMixin, TemplateView):
    """The cash desk: every player with his fee, one tap for paid, open or waived."""

    template_name = "fees/desk.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        method = _method(self.request)
        query = self.request.GET.get("q", "")[:100]
        rows = desk_rows(self.tournament)
        shown = set(map(id, search([row.registration for row in rows], query)))
        context.update(
            query=query,
            rows=[
                _row_context(self.tournament, row, method, query)
                for row in rows
                if id(row.registration) in shown
            ],
            method=method,
            methods=Booking.Method.choices,
            fees=fee_choices(self.tournament),
            counts=_counts(rows),
            total=len(rows),
        )
        return context

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["fees/_rows.html"]
        return [self.template_name]


class TapView(FeesMixin, View):
    """One tap at the desk (POST): a whole page again without JavaScript, the player's row
    with htmx."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        registration = get_object_or_404(
            self.tournament.registrations.select_related("player", "tournament"), pk=kwargs["pk"]
        )
        form = TapForm(request.POST)
        method = _method(request)
        notice, failed = "", False
        if not form.is_valid():
            notice, failed = _("The tap was not understood; please tap again."), True
        else:
            data = form.cleaned_data
            try:
                state = book_fee(
                    registration,
                    data["kind"],
                    expected_version=data["version"],
                    actor=_actor(request),
                    fee_label=data["fee"] or "",
                    method=data["method"] or Booking.Method.CASH,
                    # One key per row shown and button: a retried tap finds its booking,
                    # another button on the same stale row meets the version check.
                    key=f"{data['key']}:{data['kind']}" if data["key"] else "",
                )
            except ServiceError as exc:
                notice, failed = exc.message, True
            else:
                if state.booking is None:
                    notice = _("Nothing booked: the fee was %(status)s already.") % {
                        "status": Booking.Kind(state.status).label
                    }
        if request.headers.get("HX-Request"):
            rows = desk_rows(self.tournament)
            row = next(r for r in rows if r.registration.pk == registration.pk)
            context = _row_context(self.tournament, row, method, request.POST.get("q", "")[:100])
            context.update(
                notice=notice, failed=failed, fees=fee_choices(self.tournament), oob=True,
                counts=_counts(rows),
            )  # fmt: skip
            return render(request, "fees/_tapped.html", context)
        if notice:
            (messages.error if failed else messages.info)(request, notice)
        url = reverse("fees:desk", args=[self.tournament.slug])
        query = urlencode({"method": method, "q": request.POST.get("q", "")[:100]})
        return redirect(f"{url}?{query}#fee-{registration.pk}")


def _counts(rows: list[DeskRow]) -> dict[str, int]:
    return {kind: sum(1 for row in rows if row.status == kind) for kind in Booking.Kind.values}


class ReportView(FeesMixin, TemplateView):
    template_name = "fees/report.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["report"] = cash_report(self.tournament)
        context["bookings"] = latest_bookings(self.tournament)
        return context


class FeesView(FeesMixin, FormView[FeesForm]):
    """The standard fee, the reduced fees and where the prize pot comes from."""

    template_name = "fees/fees_form.html"
    form_class = FeesForm

    def get_initial(self) -> dict[str, Any]:
        current = settings_of(self.tournament)
        reduced = list(
            ReducedFee.objects.filter(tournament=self.tournament).values_list("label", "cents")
        )
        return FeesForm.initial_from(current.standard_cents, current.pot_cents, reduced)

    def form_valid(self, form: FeesForm) -> HttpResponse:
        data = form.data_for_service()
        try:
            save_fees(self.tournament, data, actor=_actor(self.request))
        except ServiceError as exc:
            form.add_error(_fees_field(form, exc.field), exc.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The fees are saved."))
        return redirect("fees:desk", slug=self.tournament.slug)


def _fees_field(form: FeesForm, field: str | None) -> str | None:
    """The form's field of a service error's field ("reduced-1": the second fee given)."""
    if field in ("standard", "pot"):
        return field
    if field and field.startswith("reduced-"):
        given = [r for r in range(3) if form.cleaned_data.get(f"reduced_label_{r}")]
        index = int(field.split("-")[1])
        if index < len(given):
            return f"reduced_label_{given[index]}"
    return None


class PrizesView(FeesMixin, FormView[PrizesForm]):
    """The prize table: per place an amount or a share of the pot, the special prizes."""

    template_name = "fees/prizes_form.html"
    form_class = PrizesForm

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        initial, lines = PrizesForm.initial_from(
            list(Prize.objects.filter(tournament=self.tournament))
        )
        kwargs["initial"] = initial
        kwargs["lines"] = lines
        return kwargs

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        current = settings_of(self.tournament)
        context["pot_cents"] = current.pot_cents
        return context

    def form_valid(self, form: PrizesForm) -> HttpResponse:
        try:
            save_prizes(
                self.tournament, [line for _f, line in form.lines], actor=_actor(self.request)
            )
        except ServiceError as exc:
            field = None
            if exc.field and exc.field.startswith("prize-"):
                field = form.lines[int(exc.field.split("-")[1])][0]
            form.add_error(field, exc.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The prize table is saved."))
        return redirect("fees:payouts", slug=self.tournament.slug)


class PayoutsView(FeesMixin, TemplateView):
    template_name = "fees/payouts.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["payouts"] = payout_list(self.tournament)
        return context


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class FinalOnlyMixin(FeesMixin):
    """The payout list to pay out by exists once every series is closed; before that the
    page shows a preview and the files lead back to it."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        payouts = payout_list(self.tournament)
        if not payouts.final:
            messages.info(
                request, _("The payout list can be downloaded once every series is closed.")
            )
            return redirect("fees:payouts", slug=self.tournament.slug)
        return self.file(payouts)

    def file(self, payouts: Any) -> HttpResponse:
        raise NotImplementedError


DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: str) -> str:
    """Text that a spreadsheet would run as a formula is quoted."""
    return "'" + value if value.startswith(DANGEROUS) else value


def _euros(cents: int) -> str:
    """Cents as a German spreadsheet reads an amount: 40,01."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d}"


class PayoutsCsvView(FinalOnlyMixin, View):
    """The payout list as CSV: UTF-8 with a byte order mark and ``;`` between fields (what a
    spreadsheet in a German locale expects), amounts in euros with a decimal comma."""

    def file(self, payouts: Any) -> HttpResponse:
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        writer.writerow(
            [_("Place"), _("Start number"), _("Name"), _("Club"), _("Place prize (€)"),
             _("Special prizes"), _("Payout (€)")]
        )  # fmt: skip
        for line in payouts.lines:
            specials = ", ".join(f"{label} {_euros(cents)}" for label, cents in line.specials)
            writer.writerow(
                [line.place, line.start_number, _cell(line.name), _cell(line.club),
                 _euros(line.place_cents), _cell(specials), _euros(line.cents)]
            )  # fmt: skip
        writer.writerow(["", "", _("Total"), "", "", "", _euros(payouts.total_cents)])
        name = f"{self.tournament.slug}-auszahlung.csv"
        return _download(out.getvalue().encode("utf-8-sig"), "text/csv; charset=utf-8", name)


class PayoutsPdfView(FinalOnlyMixin, View):
    """The payout list as a PDF (WeasyPrint, rendered in the request: one or two pages)."""

    def file(self, payouts: Any) -> HttpResponse:
        from weasyprint import HTML

        html = render_to_string(
            "fees/print/payouts.html",
            {"tournament": self.tournament, "payouts": payouts},
            request=self.request,
        )
        pdf = HTML(string=html).write_pdf()
        name = f"{self.tournament.slug}-auszahlung.pdf"
        return _download(pdf, "application/pdf", name)
