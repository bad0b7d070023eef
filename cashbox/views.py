"""The cash box's pages (its owners and cashiers: the ledger, a booking, a reversal, the
exports) and the settlement calculator (every member of the club). They parse, check who
may act (``cashbox.permissions``) and present; the use cases are in ``cashbox.services``,
the settlement in ``cashbox.settlement``. Outside the club none of it exists (404)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View

from cashbox import services, sources
from cashbox.exports import XLSX, ledger_rows, to_csv, to_xlsx
from cashbox.forms import FIELDS, BookingForm, SettlementForm, settlement_problem
from cashbox.models import Booking
from cashbox.money import format_cents
from cashbox.permissions import is_member, keeps_cashbox
from cashbox.settlement import EXACT_UP_TO, Mode, Rate, Settlement, SettlementError, settle
from clubs.models import Club
from common.actors import ORGANIZER, Actor
from common.links import Link
from common.services import ServiceError


def _language() -> str:
    return get_language() or "de"


def money(cents: int, sign: bool = False) -> str:
    return format_cents(cents, _language(), sign=sign)


class ClubPageMixin(LoginRequiredMixin):
    """The club from the URL, for its members; ``keepers_only``: for those who keep its cash
    box (403 for the other members). Outside the club it does not exist (404)."""

    keepers_only: ClassVar[bool] = True
    club: Club

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = get_object_or_404(Club, slug=kwargs["club"])
        if not is_member(request.user, self.club):
            raise Http404
        if self.keepers_only and not keeps_cashbox(request.user, self.club):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def actor(self) -> Actor:
        return Actor(ORGANIZER, user=self.request.user)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Line:
    booking: Booking
    amount: str
    balance: str
    incoming: bool
    source: Link | None = None  # where it came from (an evening), said by an app above


class LedgerView(ClubPageMixin, View):
    """The ledger with its balance and the booking form; POST books."""

    def members(self) -> list[tuple[int, str]]:
        return [
            (m.user_id, m.user.get_full_name() or m.user.get_username())
            for m in services.club_members(self.club)
        ]

    def page(self, request: HttpRequest, form: BookingForm, status: int = 200) -> HttpResponse:
        bookings = list(services.ledger(self.club))
        origins = sources.links([b.pk for b in bookings])
        lines, running = [], 0
        for booking in bookings:
            running += booking.cents
            amount = money(booking.cents, True)
            origin = origins.get(booking.pk)
            lines.append(Line(booking, amount, money(running), booking.cents > 0, origin))
        lines.reverse()  # newest first
        context = {
            "club": self.club,
            "form": form,
            "lines": lines,
            "balance": money(running),
            "negative": running < 0,
        }
        return render(request, "cashbox/ledger.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, BookingForm(members=self.members()))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = BookingForm(request.POST, members=self.members())
        if form.is_valid():
            try:
                booking = services.book(self.club, form.data_for_service(), actor=self.actor())
            except ServiceError as exc:
                form.add_error(FIELDS.get(exc.field or ""), exc.message)
            else:
                messages.success(
                    request,
                    _("Booked: %(text)s, %(amount)s.")
                    % {"text": booking.text, "amount": money(booking.cents, True)},
                )
                return redirect("cashbox:ledger", club=self.club.slug)
        return self.page(request, form, status=400)


class ReverseView(ClubPageMixin, View):
    """GET: the booking and the question; POST: reverse it."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        booking = get_object_or_404(services.ledger(self.club), pk=kwargs["pk"])
        return render(
            request,
            "cashbox/reverse.html",
            {"club": self.club, "booking": booking, "amount": money(booking.cents, True)},
        )

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            reversal = services.reverse_booking(self.club, kwargs["pk"], actor=self.actor())
        except ServiceError as exc:
            if exc.code == "no_booking":
                raise Http404 from exc
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Reversed: %(amount)s booked back.") % {"amount": money(reversal.cents, True)},
            )
        return redirect("cashbox:ledger", club=self.club.slug)


class ExportView(ClubPageMixin, View):
    """``?format=csv`` (the default) or ``xlsx``: the whole ledger."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        chosen = request.GET.get("format", "csv")
        header, rows = ledger_rows(list(services.ledger(self.club)))
        name = f"{self.club.slug}-kasse"
        if chosen == "xlsx":
            content, kind, filename = to_xlsx(_("Cash box"), header, rows), XLSX, f"{name}.xlsx"
        elif chosen == "csv":
            content = to_csv(header, rows, _language())
            kind, filename = "text/csv; charset=utf-8", f"{name}.csv"
        else:
            raise Http404
        response = HttpResponse(content, content_type=kind)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


@dataclass(frozen=True)
class Row:
    name: str
    points: int
    extras: int
    balance: str
    cents: int


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: str


class SettlementView(ClubPageMixin, View):
    """The settlement calculator: players and points, rate and mode; POST computes and shows
    the balances and who pays whom (nothing is stored)."""

    keepers_only = False

    def page(
        self, request: HttpRequest, form: SettlementForm, status: int = 200, **extra: Any
    ) -> HttpResponse:
        context = {
            "club": self.club,
            "form": form,
            "exact_up_to": EXACT_UP_TO,
            "keeps": keeps_cashbox(request.user, self.club),
            **extra,
        }
        return render(request, "cashbox/settlement.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, SettlementForm())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = SettlementForm(request.POST)
        if not form.is_valid():
            return self.page(request, form, status=400)
        found = form.cleaned_data
        rate = Rate(found["cents_per_point"], found["cents_per_extra"] or 0)
        mode = Mode(found["mode"])
        try:
            result = settle(found["players"], rate, mode)
        except SettlementError as exc:
            form.add_error("players", settlement_problem(exc))
            return self.page(request, form, status=400)
        return self.page(request, form, **self.present(result, mode))

    def present(self, result: Settlement, mode: Mode) -> dict[str, Any]:
        rows = [
            Row(b.name, b.points, b.extras, money(b.cents, True), b.cents) for b in result.balances
        ]
        box = _("the cash box")
        payments = [
            Payment(t.payer, t.payee if t.payee is not None else box, money(t.cents))
            for t in result.transfers
        ]
        return {
            "result": result,
            "rows": rows,
            "payments": payments,
            "cashbox_mode": mode is Mode.CASHBOX,
            "surplus": money(result.surplus) if result.surplus else "",
            "to_cashbox": money(result.to_cashbox),
            "players_with_balance": sum(1 for b in result.balances if b.cents),
        }
