"""The table captain's pages, reached through the table's private link (no account).

The page shows what comes next, the entry form, the games with running totals, and the
submit/confirm steps. Every change goes through scoring.services; the views only parse.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from common.parsing import whole_number
from rules.series import NextGame
from scoring.clock import TableClock
from scoring.forms import GameForm, TranscriptionForm, form_field_for, form_field_for_transcription
from scoring.messages import breakdown_lines, named_finding, tell
from scoring.models import Game, ScoreSheet
from scoring.services import Actor, Door
from scoring.services.entry import current_sheet, delete_last_game, preview_game, save_game
from scoring.services.sheet import after_time_out, confirm_sheet, review, submit_sheet
from scoring.timing import series_clock
from scoring.totals import running_totals, seat_points
from tournaments.models import Series, Table
from tournaments.permissions import is_organizer
from tournaments.services import Refusal, ServiceError

#: A random value per browser that tells the phones at a table apart: the sheet is confirmed
#: from another phone than the one that submitted it.
DEVICE_COOKIE = "doko_device"
DEVICE_MAX_AGE = 365 * 24 * 3600


def device_of(request: HttpRequest) -> str:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if 16 <= len(value) <= 64 and value.isascii() and value.isprintable() else ""


@dataclass(frozen=True)
class SheetSeat:
    """A player at the table as the sheet shows him: full name, and a short form in two
    parts ("Anna", "S.") for the narrow score columns of a phone."""

    position: int
    name: str
    first: str
    last: str

    @property
    def short(self) -> str:
        return f"{self.first} {self.last}".strip()


@dataclass(frozen=True)
class SheetRow:
    game: Game
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class BreakdownLine:
    """One item of a game's value and the party it counts for ("Re"/"Kontra", in a solo
    "soloist"/"opponents")."""

    label: str
    party: str
    party_label: str
    points: int


@dataclass(frozen=True)
class Chip:
    seat: SheetSeat
    points: int


@dataclass(frozen=True)
class Preview:
    """A game's value explained: who won, the items of the value, everyone's points."""

    winner: str | None
    value: int
    solo: bool
    lines: list[BreakdownLine]
    chips: list[Chip]


def short_names(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Short forms of (first, last) names, unique at the table: ("Anna", "S."); where two
    would look alike, more of the last name ("Sch."), up to all of it."""

    def form(first: str, last: str, letters: int) -> tuple[str, str]:
        if not first or not last:
            return (first or last, "")
        return (first, last if letters >= len(last) else f"{last[:letters]}.")

    letters = [1] * len(names)
    while True:
        forms = [form(f, last, n) for (f, last), n in zip(names, letters, strict=True)]
        clash = [i for i, x in enumerate(forms) if forms.count(x) > 1]
        grow = [i for i in clash if letters[i] < len(names[i][1])]
        if not grow:
            return forms
        for i in grow:
            letters[i] += 1


def build_preview(
    seating: list[SheetSeat],
    *,
    winner: str | None,
    value: int,
    scores: Mapping[str, Any],
    breakdown: list[dict[str, object]],
    record: Mapping[str, Any],
) -> Preview:
    solo = len(record.get("re") or []) == 1  # a solo or a Hochzeit played alone
    parties = (
        {"re": _("Soloist"), "kontra": _("Opponents")} if solo else {"re": "Re", "kontra": "Kontra"}
    )
    lines = [
        BreakdownLine(
            label=str(line["label"]),
            party=str(line.get("party", "")),
            party_label=parties.get(str(line.get("party", "")), ""),
            points=int(str(line.get("points", 0))),
        )
        for line in breakdown_lines(breakdown)
    ]
    chips = [Chip(s, int(scores.get(str(s.position), 0))) for s in seating]
    return Preview(winner or None, value, solo, lines, chips)


class SheetView(View):
    """A table's sheet. Subclasses decide who may open it (``resolve``), who acts
    (``actor``) and where its pages live (``base``); captains and organizers share the rest."""

    table: Table
    device: str = ""
    as_organizer = False

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

    def home(self) -> HttpResponse:
        return redirect(self.base())

    def seats(self) -> list[Any]:
        if not hasattr(self, "_seats"):
            self._seats = list(
                self.table.seats.select_related("registration__player").order_by("position")
            )
        return self._seats

    def seating(self) -> list[SheetSeat]:
        seats = self.seats()
        players = [s.registration.player for s in seats]
        shorts = short_names([(p.first_name, p.last_name) for p in players])
        return [
            SheetSeat(s.position, str(p), first, last)
            for s, p, (first, last) in zip(seats, players, shorts, strict=True)
        ]

    def names(self) -> dict[int, str]:
        """Seat -> player, for messages that name a seat."""
        return {s.position: str(s.registration.player) for s in self.seats()}

    def own_clock(self) -> TableClock | None:
        """The table's clock while its series runs (None before the signal)."""
        series = self.table.series
        if series.status != Series.Status.RUNNING:
            return None
        hall = series_clock(series)
        return hall.for_table(self.table.number) if hall else None

    def clock(
        self, sheet: ScoreSheet, records: list[dict[str, Any]], nxt: NextGame
    ) -> dict[str, Any]:
        """The table's clock while it still plays (running series, open sheet, games left);
        once its time is up or called, what may still be played: the game in progress,
        then the compulsory solos still open (who)."""
        if self.table.series.status != Series.Status.RUNNING:
            return {}
        if sheet.status != "open" or nxt.finished:
            return {}
        own = self.own_clock()
        context: dict[str, Any] = {"clock": own, "clock_paused": bool(own and own.paused)}
        if sheet.timeout or (own is not None and own.is_up):
            after = (
                nxt
                if sheet.timeout
                else after_time_out(self.table, sheet, records, len(self.seats()))
            )
            names = self.names()
            context.update(
                time_up=True,
                time_called=sheet.timeout,
                solos_open=after.compulsory_open,
                solos_text=", ".join(
                    _("%(name)s (seat %(seat)s)") % {"name": names.get(seat, ""), "seat": seat}
                    for seat in after.compulsory_open
                ),
            )
        return context

    def page(
        self,
        form: GameForm | TranscriptionForm | None = None,
        *,
        editing: Game | None = None,
        status: int = 200,
        **extra: Any,
    ) -> HttpResponse:
        seats = self.seats()
        seating = self.seating()
        names = self.names()
        sheet = current_sheet(self.table)
        games = list(Game.objects.filter(table=self.table).order_by("number"))
        positions = [s.position for s in seats]
        sums = running_totals((seat_points(g.scores) for g in games), positions)
        rows = [SheetRow(g, r.points, r.totals) for g, r in zip(games, sums, strict=True)]
        totals = sums[-1].totals if sums else (0,) * len(positions)
        records = [{**g.record, "dealer": g.dealer} for g in games]
        report = review(self.table, sheet, records, len(seats))
        nxt, told = report.next, tell(report.findings, names)
        if editing is not None:  # at a five-player table the game's dealer sat out
            sitting = editing.dealer if len(seats) == 5 else None
        else:
            sitting = nxt.sitting_out
        if form is None:
            form = self.new_form(seats, nxt, editing, sitting)
        preview = None
        if editing is not None and not form.is_bound and editing.breakdown:
            preview = build_preview(
                seating,
                winner=editing.winner,
                value=editing.value,
                scores=editing.scores,
                breakdown=editing.breakdown,
                record=editing.record,
            )
        closed = self.table.series.status == Series.Status.CLOSED
        posted_key = self.request.POST.get("idempotency_key", "")
        dealer = editing.dealer if editing else nxt.dealer
        return render(
            self.request,
            "scoring/table_home.html",
            {
                "table": self.table,
                "series": self.table.series,
                "tournament": self.table.series.tournament,
                "seating": seating,
                "sheet": sheet,
                "rows": rows,
                "totals": totals,
                "next": nxt,
                "closed": closed,
                # a new game can be entered (a correction is ``editing``)
                "entering": editing is None and sheet.status == "open" and not nxt.finished,
                "last_game": games[-1] if games else None,
                "can_correct": sheet.status == "open" or self.as_organizer,
                "dealer_name": names.get(dealer) if dealer is not None else None,
                "forced_name": names.get(nxt.forced) if nxt.forced else None,
                "sitting_out": sitting,
                "form": form,
                "editing": editing,
                "preview": preview,
                # A form shown again keeps its key: a resend is then recognised.
                "idempotency_key": posted_key if form.is_bound else uuid.uuid4().hex,
                "base": self.base(),
                "as_organizer": self.as_organizer,
                "organizers_confirm": self.table.series.tournament.confirmation == "organizer",
                "reason": self.reason() if self.request.method == "POST" else "",
                "errors": [f for f in told if f.error],
                "warnings": [f for f in told if not f.error],
                **self.clock(sheet, records, nxt),
                **extra,
            },
            status=status,
        )

    def seat_choices(self, seats: list[Any], sitting_out: int | None) -> list[tuple[int, str]]:
        return [
            (s.position, f"{s.position} · {s.registration.player}")
            for s in seats
            if s.position != sitting_out
        ]

    def transcribing(self) -> bool:
        return current_sheet(self.table).mode == "transcription"

    def new_form(
        self, seats: list[Any], nxt: NextGame, editing: Game | None, sitting: int | None
    ) -> GameForm | TranscriptionForm:
        choices = self.seat_choices(seats, sitting)
        if self.transcribing():
            if editing is not None:
                initial = TranscriptionForm.initial_from_record(editing.record)
            else:
                forced = nxt.forced
                initial = {"soloist": forced, "forced": bool(forced), "compulsory": bool(forced)}
            return TranscriptionForm(initial=initial, seats=choices, sitting_out=sitting)
        if editing is not None:
            initial = GameForm.initial_from_record(editing.record)
        else:
            initial = {"contract": "normal"}
            if nxt.forced:
                initial = {"contract": "solo", "soloist": nxt.forced}
        return GameForm(initial=initial, seats=choices)

    def bound_form(self) -> GameForm | TranscriptionForm:
        """The form as posted. Its layout follows the seat that sat out on the page the
        captain saw (posted back with it); the engine checks the game against the sheet."""
        seats = self.seats()
        raw = self.request.POST.get("sitting_out", "")
        sitting = whole_number(raw, digits=2)
        if sitting not in {s.position for s in seats}:
            sitting = None
        choices = self.seat_choices(seats, sitting)
        if self.transcribing():
            return TranscriptionForm(self.request.POST, seats=choices, sitting_out=sitting)
        return GameForm(self.request.POST, seats=choices)


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return whole_number(raw)


def _message(error: ServiceError, names: Mapping[int, str]) -> str:
    """The error in words, with the players' names where it names a seat."""
    finding = (error.data or {}).get("finding")
    return named_finding(finding, names) if isinstance(finding, Mapping) else error.message


def _attach(
    form: GameForm | TranscriptionForm, error: ServiceError, names: Mapping[int, str]
) -> None:
    """Show an error of the rules engine next to the form field it concerns."""
    field = None
    if error.field and isinstance(form, TranscriptionForm):
        field = form_field_for_transcription(error.field)
    elif error.field:
        field = form_field_for(error.field, form.cleaned_data.get("contract"))
    form.add_error(field if field in form.fields else None, _message(error, names))


class CaptainDoor:
    """The private table link: works only while the series runs."""

    table: Table
    request: HttpRequest
    device: str

    def resolve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | None:
        self.table = get_object_or_404(
            Table.objects.select_related("series__tournament"), captain_token=kwargs["token"]
        )
        if self.table.series.status != Series.Status.RUNNING:
            return render(request, "scoring/captain_closed.html", {"table": self.table}, status=403)
        return None

    def actor(self) -> Actor:
        seat = self.request.POST.get("seat", "")
        number = whole_number(seat, digits=2)
        return Actor(Door.CAPTAIN, seat=number, device=self.device)

    def base(self) -> str:
        return reverse("scoring:captain", kwargs={"token": self.table.captain_token})


class TableHomeView(SheetView):
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page()


class ClockView(SheetView):
    """The table's clock alone, polled (htmx) by the sheet page while the clock runs, so
    what is typed in the entry form stays. While it runs the poll reads only the clock,
    never the sheet or its games, so it cannot get in the way of an entry; once time is up
    it reads them once to say what may still be played, and the page stops polling."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        own = self.own_clock()
        context: dict[str, Any] = {"base": self.base()}
        if own is not None and not own.is_up:
            context.update(clock=own, clock_paused=own.paused)
        elif own is not None:
            sheet = current_sheet(self.table)
            games = Game.objects.filter(table=self.table).order_by("number")
            records = [{**g.record, "dealer": g.dealer} for g in games]
            nxt = review(self.table, sheet, records, len(self.seats())).next
            context.update(self.clock(sheet, records, nxt))
        return render(request, "scoring/_table_clock.html", context)


class GameSaveView(SheetView):
    """Enter the next game (no ``number``) or correct game ``number``."""

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
            )
        except ServiceError as exc:
            if exc.refusal is Refusal.CONFLICT:
                messages.error(request, exc.message)
                return self.page(form, editing=editing, status=409)
            _attach(form, exc, self.names())
            return self.page(form, editing=editing)
        n, value = entered.game["number"], entered.game["value"]
        if entered.replayed:
            messages.info(request, _("Game %(n)d had already been saved.") % {"n": n})
        elif number:
            messages.success(request, _("Game %(n)d corrected.") % {"n": n})
        else:
            messages.success(
                request, _("Game %(n)d saved: value %(value)d.") % {"n": n, "value": value}
            )
        return self.home()


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
        seating = self.seating()
        return render(
            request,
            "scoring/confirm_delete.html",
            {
                "table": self.table,
                "game": game,
                "seating": seating,
                "points": [int(game.scores.get(str(s.position), 0)) for s in seating],
                "sheet": current_sheet(self.table),
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
        return Actor(Door.ORGANIZER, user=self.request.user, device=self.device)

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
