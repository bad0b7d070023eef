"""Referee calls in the pages: the captain calls from his table's link (and withdraws);
the club's referees, owners and organizers take and rule the calls of a tournament on its
referee page. The views parse and present; ``scoring.services.referee`` decides."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView

from common.actors import Actor
from common.ownership import Ownership
from common.services import ServiceError
from common.views import KeeperMixin
from scoring.doors import REFEREE
from scoring.forms import GameForm, TranscriptionForm
from scoring.models import MAX_EXTENSION_MINUTES, Game, RefereeCall
from scoring.referee_box import CallForm, latest_call, referee_box
from scoring.services.entry import current_sheet, save_game
from scoring.services.referee import (
    MAX_RULING,
    DeductionOrder,
    call_referee,
    concerned_game,
    open_call,
    rule_call,
    take_call,
    withdraw_call,
)
from scoring.sheet_page import names_of, seat_choices
from scoring.views.captain import CaptainDoor, SheetView, attach_error, bound_game_form
from tournaments.models import Tournament
from tournaments.permissions import RULINGS, is_organizer

MINUTES_WORDS = gettext_lazy("Nachspielzeit is 0 to %(max)d minutes.")


# --- the captain's side ------------------------------------------------------------------


class CaptainRefereeView(CaptainDoor, SheetView):
    """``GET``: the call's box alone (polled while the call is open); ``POST``: call the
    referee, or withdraw the open call (``action=withdraw``)."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        games = list(Game.objects.filter(table=self.table).only("number", "created_at"))
        box = referee_box(self.table, games, self.base(), latest_call(self.table))
        return render(request, "scoring/_referee_call.html", {"box": box})

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        link = self.table.captain_token
        if request.POST.get("action") == "withdraw":
            call = open_call(self.table)
            if call is not None:
                try:
                    withdraw_call(call, actor=self.actor(), link=link)
                except ServiceError as exc:
                    messages.error(request, exc.message)
                else:
                    messages.success(request, _("The call is withdrawn."))
            return redirect(self.base())
        form = CallForm(request.POST)
        if form.is_valid():
            try:
                outcome = call_referee(
                    self.table,
                    reason=form.cleaned_data["reason"],
                    game_number=form.cleaned_data["game_number"],
                    actor=self.actor(),
                    link=link,
                )
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                if outcome.created:
                    messages.success(request, _("The referee has been called."))
                else:
                    messages.info(request, _("The referee had already been called."))
                return redirect(f"{self.base()}#schiri")
        self.call_form = form
        return self.page(status=400)


# --- the referee's side ------------------------------------------------------------------


class RulingForm(forms.Form):
    """The ruling of one call: the text (required), Nachspielzeit where the interruption
    cost time, a deduction (seat and points, both or neither)."""

    ruling = forms.CharField(
        label=gettext_lazy("Ruling"),
        max_length=MAX_RULING,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Nachspielzeit (minutes)"),
        required=False,
        min_value=0,
        max_value=MAX_EXTENSION_MINUTES,
        help_text=gettext_lazy("The time the interruption cost the table; 0 or empty: none."),
    )
    deduction_seat = forms.TypedChoiceField(
        label=gettext_lazy("Deduction (TSR 9.7) for"), coerce=int, required=False, empty_value=None
    )
    deduction_points = forms.IntegerField(
        label=gettext_lazy("Deduction points"), required=False, max_value=-1
    )

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["deduction_seat"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", _("nobody")), *seats]
        words = str(MINUTES_WORDS) % {"max": MAX_EXTENSION_MINUTES}
        self.fields["minutes"].error_messages.update(
            invalid=words, min_value=words, max_value=words
        )
        self.fields["ruling"].error_messages.update(
            required=_("Write down the ruling (at most %(max)d characters).") % {"max": MAX_RULING}
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seat, points = data.get("deduction_seat"), data.get("deduction_points")
        if seat and points is None and "deduction_points" not in self.errors:
            self.add_error("deduction_points", _("How many points are deducted?"))
        if points is not None and not seat:
            self.add_error("deduction_seat", _("Whose points are deducted?"))
        return data


class RefereeMixin(KeeperMixin):
    """The tournament from the URL, for those who handle its referee calls: its club's
    referees, owners and organizers (``tournaments.permissions.RULINGS``)."""

    ownership: ClassVar[Ownership[Tournament]] = RULINGS
    url_kwarg = "slug"
    context_name = "tournament"
    tournament: Tournament


def _seats(call: RefereeCall) -> list[tuple[int, str]]:
    seats = call.table.seats.select_related("registration__player").order_by("position")
    return [(s.position, f"{s.position} · {s.registration.player}") for s in seats]


class RefereeCallsView(RefereeMixin, TemplateView):
    """The calls of the tournament: the open ones first, each to take and to rule, then
    the rulings made. The progress board and the hall show new calls as they come."""

    template_name = "scoring/organizer/referee_calls.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        calls = list(
            RefereeCall.objects.filter(series__tournament=self.tournament)
            .select_related(
                "table", "series", "taken_by", "ruled_by", "deduction__registration__player"
            )
            .order_by("-called_at", "-pk")
        )
        bound: dict[int, RulingForm] = kwargs.get("bound", {})
        open_calls = []
        for call in calls:
            if not call.is_open:
                continue
            form = bound.get(call.pk) or RulingForm(prefix=f"c{call.pk}", seats=_seats(call))
            open_calls.append((call, concerned_game(call), form))
        context.update(
            open_calls=open_calls,
            done=[c for c in calls if not c.is_open],
            organizer=is_organizer(self.request.user, self.tournament),
        )
        return context


class RefereeCallView(RefereeCallsView):
    """Take a call (``action=take``) or rule it; errors go back next to their fields, on
    the calls' page."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        call = get_object_or_404(
            RefereeCall.objects.select_related("table__series__tournament"),
            pk=kwargs["pk"],
            series__tournament=self.tournament,
        )
        actor = Actor(REFEREE, user=request.user)
        target = redirect("scoring:referee-calls", slug=self.tournament.slug)
        if request.POST.get("action") == "take":
            try:
                take_call(call, actor=actor)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, _("You have taken the call of table %(n)d.") % {"n": call.table.number}
                )
            return target
        form = RulingForm(request.POST, prefix=f"c{call.pk}", seats=_seats(call))
        if form.is_valid():
            data = form.cleaned_data
            seat = data.get("deduction_seat")
            try:
                rule_call(
                    call,
                    ruling=data["ruling"],
                    actor=actor,
                    extension_minutes=data.get("minutes") or 0,
                    deduction=DeductionOrder(seat, data["deduction_points"]) if seat else None,
                )
            except ServiceError as exc:
                field = {"deduction_seat": "deduction_seat", "points": "deduction_points"}.get(
                    exc.field or "", exc.field
                )
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(
                    request, _("The ruling for table %(n)d is recorded.") % {"n": call.table.number}
                )
                return target
        context = self.get_context_data(bound={call.pk: form})
        return self.render_to_response(context, status=400)


class RefereeCorrectView(RefereeMixin, TemplateView):
    """The game an open call concerns, to correct before the ruling: the game's own form,
    saved through the correction use case (``save_game``, the call's reason as its reason);
    the ruling then records the game as corrected. Only that game, only while the call is
    open."""

    template_name = "scoring/organizer/referee_correct.html"

    def setup_call(self) -> tuple[RefereeCall, Game] | None:
        self.call = get_object_or_404(
            RefereeCall.objects.select_related("table__series__tournament", "series"),
            pk=self.kwargs["pk"],
            series__tournament=self.tournament,
        )
        number = concerned_game(self.call) if self.call.is_open else None
        game = None
        if number is not None:
            game = Game.objects.filter(table=self.call.table, number=number).first()
        if game is None:
            return None
        self.seats = list(
            self.call.table.seats.select_related("registration__player").order_by("position")
        )
        return self.call, game

    def back(self) -> HttpResponse:
        messages.info(self.request, _("There is no game to correct for this call."))
        return redirect("scoring:referee-calls", slug=self.tournament.slug)

    def blank_form(self, game: Game) -> GameForm | TranscriptionForm:
        sitting = game.dealer if len(self.seats) == 5 else None
        choices = seat_choices(self.seats, sitting)
        if current_sheet(self.call.table).mode == "transcription":
            initial = TranscriptionForm.initial_from_record(game.record)
            return TranscriptionForm(initial=initial, seats=choices, sitting_out=sitting)
        return GameForm(initial=GameForm.initial_from_record(game.record), seats=choices)

    def show(
        self, game: Game, form: GameForm | TranscriptionForm, status: int = 200
    ) -> HttpResponse:
        context = self.get_context_data(
            call=self.call,
            game=game,
            form=form,
            sitting_out=game.dealer if len(self.seats) == 5 else "",
        )
        context["transcription"] = isinstance(form, TranscriptionForm)
        return self.render_to_response(context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        found = self.setup_call()
        if found is None:
            return self.back()
        return self.show(found[1], self.blank_form(found[1]))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        found = self.setup_call()
        if found is None:
            return self.back()
        call, game = found
        form = bound_game_form(call.table, self.seats, request.POST)
        if not form.is_valid():
            return self.show(game, form, status=400)
        try:
            save_game(
                call.table,
                form.to_payload(size=len(self.seats)),
                number=game.number,
                actor=Actor(REFEREE, user=request.user),
                reason=(_("Referee call: %(reason)s") % {"reason": call.reason})[:300],
            )
        except ServiceError as exc:
            attach_error(form, exc, names_of(self.seats))
            return self.show(game, form, status=400)
        messages.success(
            request,
            _("Game %(n)d corrected; the ruling will record it as corrected.") % {"n": game.number},
        )
        return redirect(
            f"{reverse('scoring:referee-calls', args=[self.tournament.slug])}#ruf-{call.pk}"
        )
