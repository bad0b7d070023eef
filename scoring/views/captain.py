"""The table captain's pages, reached through the table's private link (no account).

The page shows what comes next, the entry form, the games with running totals, and the
submit/confirm steps. Every change goes through scoring.services; the views only parse.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views import View

from common.actors import ORGANIZER, Actor
from common.parsing import whole_number
from common.services import Refusal, ServiceError
from rules.series import SeriesReport
from scoring.captain_js import inline_script
from scoring.doors import CAPTAIN
from scoring.forms import GameForm, TranscriptionForm, form_field_for, form_field_for_transcription
from scoring.messages import named_finding
from scoring.models import Game, ScoreSheet
from scoring.reads import games_of, seats_of, table_by_token
from scoring.referee_box import CallForm, latest_call, provisional, referee_box
from scoring.services import GameEntered
from scoring.services.contact import record_contact
from scoring.services.entry import current_sheet, delete_last_game, preview_game, save_game
from scoring.services.sheet import confirm_sheet, review, submit_sheet
from scoring.sheet_page import (
    ClockBox,
    Door,
    SheetPage,
    SheetSeat,
    build_page,
    build_preview,
    clock_box,
    names_of,
    own_clock,
    seat_choices,
    seating_of,
)
from scoring.swap_parts import kept
from tournaments.models import Series, Table
from tournaments.permissions import is_organizer

#: A random value per browser that tells the phones at a table apart: the sheet is confirmed
#: from another phone than the one that submitted it.
DEVICE_COOKIE = "doko_device"
DEVICE_MAX_AGE = 365 * 24 * 3600


#: The most games a phone's outbox can sensibly report; more is junk and ignored.
MAX_PENDING = 10_000


def pending_of(request: HttpRequest) -> int | None:
    """The phone's ``X-Outbox-Pending`` header: games it still holds, or None."""
    value = whole_number(request.headers.get("X-Outbox-Pending", ""), digits=5)
    return value if value is not None and 0 <= value <= MAX_PENDING else None


def device_of(request: HttpRequest) -> str:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if 16 <= len(value) <= 64 and value.isascii() and value.isprintable() else ""


@dataclass(frozen=True)
class Flash:
    """A message above the page, as ``django.contrib.messages`` shows one."""

    tags: str
    text: str

    def __str__(self) -> str:
        return self.text


@functools.cache
def captain_script() -> SafeString:
    """js/captain.js, carried inline by the captain page (templates/scoring/table_home.html)."""
    return mark_safe(inline_script())


def wants_swap(request: HttpRequest) -> bool:
    """The page's own script (htmx) asks: the answer is the page's main part, not a page."""
    return request.headers.get("HX-Request") == "true"


class SheetView(View):
    """A table's sheet. Subclasses decide who may open it (``resolve``), who acts
    (``actor``) and where its pages live (``base``); captains and organizers share the rest."""

    table: Table
    device: str = ""
    as_organizer = False
    call_form: CallForm | None = None  # the referee call's form posted back with its errors

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        refused = self.resolve(request, **kwargs)
        if refused is not None:
            return refused
        self.device = device_of(request)
        if not self.device:
            self.device = secrets.token_urlsafe(16)
            response = super().dispatch(request, *args, **kwargs)
            response.set_cookie(
                DEVICE_COOKIE,
                self.device,
                max_age=DEVICE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
            return response
        return super().dispatch(request, *args, **kwargs)

    def resolve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | None:
        raise NotImplementedError

    def actor(self) -> Actor:
        raise NotImplementedError

    def base(self) -> str:
        raise NotImplementedError

    def reason(self) -> str:
        return self.request.POST.get("reason", "").strip()

    def writable(self, sheet: ScoreSheet) -> bool:
        """Whether this door may change the sheet's games: organizers once the series has
        started (with a reason later on), captains while it runs and the sheet is open. The services
        decide; the page only leaves out the forms they would refuse."""
        status = self.table.series.status
        if self.as_organizer:
            return status in (Series.Status.RUNNING, Series.Status.CLOSED)
        return status == Series.Status.RUNNING and sheet.status == ScoreSheet.Status.OPEN

    def home(self) -> HttpResponse:
        return redirect(self.base())

    def seats(self) -> list[Any]:
        if not hasattr(self, "_seats"):
            self._seats = seats_of(self.table)
        return self._seats

    def seating(self) -> list[SheetSeat]:
        return seating_of(self.seats())

    def names(self) -> dict[int, str]:
        """Seat -> player, for messages that name a seat."""
        return names_of(self.seats())

    def door(self, sheet: ScoreSheet) -> Door:
        return Door(self.base(), self.as_organizer, self.device, self.writable(sheet))

    def sheet_page(
        self,
        form: GameForm | TranscriptionForm | None = None,
        *,
        editing: Game | None = None,
        report: SeriesReport | None = None,
    ) -> SheetPage:
        """The page's data; ``report``: the sheet's report when the caller has it (a save's
        completion), else one replay here."""
        seats = self.seats()
        sheet = current_sheet(self.table)
        games = games_of(self.table)
        if report is None:
            records = [{**g.record, "dealer": g.dealer} for g in games]
            report = review(self.table, sheet, records, len(seats))
        posted = self.request.method == "POST" and form is not None
        base = self.base()
        call = latest_call(self.table)
        return build_page(
            self.table,
            door=self.door(sheet),
            seats=seats,
            sheet=sheet,
            games=games,
            report=report,
            form=form,
            editing=editing,
            reason=self.reason() if posted else "",
            posted_key=self.request.POST.get("idempotency_key", "") if posted else "",
            provisional=provisional(call, games),
            referee=None
            if self.as_organizer
            else referee_box(self.table, games, base, call, self.call_form),
        )

    def page(
        self,
        form: GameForm | TranscriptionForm | None = None,
        *,
        editing: Game | None = None,
        status: int = 200,
        report: SeriesReport | None = None,
    ) -> HttpResponse:
        """The sheet's page; to the page's script (``wants_swap``) only its main part."""
        page = self.sheet_page(form, editing=editing, report=report)
        template = "scoring/table_home.html"
        context: dict[str, Any] = {"page": page}
        if wants_swap(self.request):
            template = "scoring/sheet_swap.html"
            context["flashes"] = messages.get_messages(self.request)
        elif not self.as_organizer:
            context["inline_script"] = captain_script()
        response = render(self.request, template, context, status=status)
        # The digests of the parts a later save's answer may leave out (scoring/swap_parts.py).
        response.content = kept(response.content.decode())
        return response

    def bound_form(self) -> GameForm | TranscriptionForm:
        """The form as posted. Its layout follows the seat that sat out on the page the
        captain saw (posted back with it); the engine checks the game against the sheet."""
        return bound_game_form(self.table, self.seats(), self.request.POST)


def bound_game_form(
    table: Table, seats: list[Any], data: QueryDict
) -> GameForm | TranscriptionForm:
    """A game's form bound to ``data`` (posted, or read from a hand-over code), as the
    table's sheet takes it: the entry or the transcription form."""
    sitting = whole_number(data.get("sitting_out", ""), digits=2)
    if sitting not in {s.position for s in seats}:
        sitting = None
    choices = seat_choices(seats, sitting)
    if current_sheet(table).mode == "transcription":
        return TranscriptionForm(data, seats=choices, sitting_out=sitting)
    return GameForm(data, seats=choices)


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return whole_number(raw)


def _message(error: ServiceError, names: Mapping[int, str]) -> str:
    """The error in words, with the players' names where it names a seat."""
    finding = (error.data or {}).get("finding")
    return named_finding(finding, names) if isinstance(finding, Mapping) else error.message


def attach_error(
    form: GameForm | TranscriptionForm, error: ServiceError, names: Mapping[int, str]
) -> None:
    """Show an error of the rules engine next to the form field it concerns."""
    field = None
    if error.field and isinstance(form, TranscriptionForm):
        field = form_field_for_transcription(error.field)
    elif error.field:
        field = form_field_for(error.field, form.cleaned_data.get("contract"))
        if field == "re_points" and isinstance(form, GameForm):  # maybe typed as Kontra's
            field = form.points_field()
    form.add_error(field if field in form.fields else None, _message(error, names))


class CaptainDoor:
    """The private table link: enters games while the series runs; once it is closed, the
    sheet stays readable (nothing can be sent from it any more)."""

    table: Table
    request: HttpRequest
    device: str

    def resolve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | None:
        table = table_by_token(kwargs["token"])
        if table is None:
            raise Http404
        self.table = table
        record_contact(self.table.pk, pending_of(request))
        status = self.table.series.status
        if status == Series.Status.RUNNING:
            return None
        if status == Series.Status.CLOSED and request.method in ("GET", "HEAD"):
            return None
        return render(request, "scoring/captain_closed.html", {"table": self.table}, status=403)

    def actor(self) -> Actor:
        seat = self.request.POST.get("seat", "")
        number = whole_number(seat, digits=2)
        return Actor(CAPTAIN, seat=number, device=self.device)

    def base(self) -> str:
        # Asked some three times per save: reversed once.
        if getattr(self, "_base", None) is None:
            self._base = reverse("scoring:captain", kwargs={"token": self.table.captain_token})
        return self._base


class TableHomeView(SheetView):
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page()


class ClockView(SheetView):
    """The table's clock alone, polled (htmx) by the sheet page while the clock runs, so
    what is typed in the entry form stays. While it runs the poll reads only the clock,
    never the sheet or its games, so it cannot get in the way of an entry; once time is up
    it reads them once to say what may still be played, and the page stops polling."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        own = own_clock(self.table, len(self.seats()))
        box = ClockBox()
        if own is not None and not own.is_up:
            box = ClockBox(own, paused=own.paused)
        elif own is not None:
            sheet = current_sheet(self.table)
            games = games_of(self.table)
            records = [{**g.record, "dealer": g.dealer} for g in games]
            nxt = review(self.table, sheet, records, len(self.seats())).next
            box = clock_box(self.table, sheet, records, nxt, self.names())
        return render(request, "scoring/_table_clock.html", {"box": box, "base": self.base()})


class GameSaveView(SheetView):
    """Enter the next game (no ``number``) or correct game ``number``.

    A plain form post is answered with a redirect to the sheet. The page's script (htmx)
    gets the sheet's main part at once instead, built from the save's own replay: one round
    trip and one replay per save."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "number" not in kwargs:  # the entry form lives on the sheet's home page
            return self.home()
        game = get_object_or_404(Game, table=self.table, number=kwargs["number"])
        return self.page(editing=game)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        number = kwargs.get("number")
        editing = get_object_or_404(Game, table=self.table, number=number) if number else None
        form = self.bound_form()
        if not form.is_valid():
            return self.page(form, editing=editing)
        try:
            entered = save_game(
                self.table,
                form.to_payload(size=len(self.seats())),
                number=number,
                expected_version=_version(request),
                actor=self.actor(),
                reason=self.reason(),
                idempotency_key=request.POST.get("idempotency_key") or None,
                review=wants_swap(request),
            )
        except ServiceError as exc:
            if exc.refusal is Refusal.CONFLICT:
                messages.error(request, exc.message)
                return self.page(form, editing=editing, status=409)
            if exc.refusal is Refusal.FORBIDDEN:  # submitted or closed meanwhile
                messages.error(request, exc.message)
                target = f"{self.base()}spiel/{number}/" if number else self.base()
                if wants_swap(request):  # the page loads as a whole: its state has changed
                    return HttpResponse(headers={"HX-Redirect": target})
                return redirect(target)
            attach_error(form, exc, self.names())
            return self.page(form, editing=editing)
        messages.add_message(request, *saved_message(entered, number))
        if not wants_swap(request):
            return self.home()
        response = self.page(report=entered.report)
        if number:  # the sheet's address again, no more the correction's
            response["HX-Push-Url"] = self.base()
        return response


def saved_message(entered: GameEntered, number: int | None) -> tuple[int, str]:
    """What the page says after a save: the level and the words."""
    n, value = entered.game["number"], entered.game["value"]
    if entered.replayed:
        return messages.INFO, _("Game %(n)d had already been saved.") % {"n": n}
    if number:
        return messages.SUCCESS, _("Game %(n)d corrected.") % {"n": n}
    return messages.SUCCESS, _("Game %(n)d saved: value %(value)d.") % {"n": n, "value": value}


class PreviewView(SheetView):
    """The value of the game as typed so far (htmx, no saving); a value out of range is
    named as soon as it is typed."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        raw = request.POST.get("number", "")
        number = whole_number(raw, digits=3)
        form = self.bound_form()
        context: dict[str, Any] = {}
        if form.is_valid():
            try:
                result = preview_game(
                    self.table, form.to_payload(size=len(self.seats())), number=number
                )
            except ServiceError as exc:
                context["error"] = _message(exc, self.names())
            else:
                context["preview"] = build_preview(
                    self.seating(),
                    winner=result["winner"],
                    value=result["value"],
                    scores=result["scores"],
                    breakdown=result["breakdown"],
                    record=result["record"],
                )
        else:
            typed = [
                f"{form[name].label}: {' '.join(str(e) for e in errors)}"
                for name, errors in form.errors.items()
                if name in form.fields and form.data.get(name, "") not in ("", None)
            ]
            context["typed_errors"] = typed
        return render(request, "scoring/_preview.html", context)


class DeleteLastView(SheetView):
    """A step of its own: the page asks before the last game goes."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        game = Game.objects.filter(table=self.table).order_by("-number").first()
        if game is None:
            return self.home()
        sheet = current_sheet(self.table)
        if not self.writable(sheet):
            messages.info(request, _("The sheet can no longer be changed here."))
            return self.home()
        seating = self.seating()
        return render(
            request,
            "scoring/confirm_delete.html",
            {
                "table": self.table,
                "game": game,
                "seating": seating,
                "points": [int(game.scores.get(str(s.position), 0)) for s in seating],
                "sheet": sheet,
                "base": self.base(),
                "as_organizer": self.as_organizer,
            },
        )

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        raw = request.POST.get("number", "")
        try:
            delete_last_game(
                self.table,
                number=whole_number(raw, digits=3),
                expected_version=_version(request),
                actor=self.actor(),
                reason=self.reason(),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The last game was deleted."))
        return self.home()


class SubmitView(SheetView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        actor = self.actor()
        try:
            submit_sheet(
                self.table, seat=actor.seat, expected_version=_version(request), actor=actor
            )
        except ServiceError as exc:
            findings = (exc.data or {}).get("findings")
            if exc.code == "sheet_has_errors" and findings:
                first = named_finding(findings[0], self.names())
                messages.error(
                    request,
                    _("The sheet cannot be submitted yet: %(first)s") % {"first": first},
                )
            else:
                messages.error(request, exc.message)
        else:
            messages.success(
                request, _("Submitted. Another player at the table now confirms the sheet.")
            )
        return self.home()


class ConfirmView(SheetView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        actor = self.actor()
        try:
            confirm_sheet(self.table, seat=actor.seat, actor=actor)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Thank you, the sheet is confirmed."))
        return self.home()


class OrganizerDoor:
    """The same pages for the tournament's organizers, in any series state after the start;
    changes to a submitted sheet or a closed series need a reason (audited)."""

    table: Table
    request: HttpRequest
    device: str
    as_organizer = True

    def resolve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.table = get_object_or_404(
            Table.objects.select_related("series__tournament"),
            pk=kwargs["table_id"],
            series__tournament__slug=kwargs["slug"],
        )
        if not is_organizer(request.user, self.table.series.tournament):
            raise PermissionDenied
        return None

    def actor(self) -> Actor:
        return Actor(ORGANIZER, user=self.request.user, device=self.device)

    def base(self) -> str:
        slug = self.table.series.tournament.slug
        return reverse("scoring:sheet", kwargs={"slug": slug, "table_id": self.table.pk})


# The sheet pages behind each door, spelled out so each has a name in tracebacks and URLs.
class CaptainHomeView(CaptainDoor, TableHomeView):
    pass


class CaptainGameView(CaptainDoor, GameSaveView):
    pass


class CaptainClockView(CaptainDoor, ClockView):
    pass


class CaptainPreviewView(CaptainDoor, PreviewView):
    pass


class CaptainDeleteView(CaptainDoor, DeleteLastView):
    pass


class CaptainSubmitView(CaptainDoor, SubmitView):
    pass


class CaptainConfirmView(CaptainDoor, ConfirmView):
    pass


class OrganizerHomeView(OrganizerDoor, TableHomeView):
    pass


class OrganizerGameView(OrganizerDoor, GameSaveView):
    pass


class OrganizerClockView(OrganizerDoor, ClockView):
    pass


class OrganizerPreviewView(OrganizerDoor, PreviewView):
    pass


class OrganizerDeleteView(OrganizerDoor, DeleteLastView):
    pass


class OrganizerSubmitView(OrganizerDoor, SubmitView):
    pass


class OrganizerConfirmView(OrganizerDoor, ConfirmView):
    pass
