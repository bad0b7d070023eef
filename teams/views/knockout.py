"""The knockout's pages: the owner's (settings and start, the rounds with their matches,
the decision of a tie at the cut, the next round) and the public bracket."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from common.services import ServiceError
from teams.bracket import KnockoutBracket, MatchView, knockout_bracket
from teams.bracket_pdf import bracket_pdf
from teams.forms import KnockoutForm, TieDecisionForm
from teams.knockout_services import (
    KnockoutSettings,
    advance_knockout,
    decide_tie,
    start_knockout,
)
from teams.models import Group
from teams.permissions import can_manage
from teams.standings import group_stage
from teams.views.organizer import MAX_ID, OwnerMixin, _actor, _id
from teams.views.public import visible_league


def _tie_forms(
    bracket: KnockoutBracket | None, bound: tuple[int, TieDecisionForm] | None = None
) -> dict[int, TieDecisionForm]:
    """A decision form for every match of a made round whose tie at the cut waits (group
    id → form); ``bound``: the one posted, with what was chosen and its error."""
    forms: dict[int, TieDecisionForm] = {}
    if bracket is None:
        return forms
    for round_ in bracket.made:
        for match in round_.matches:
            if match.tie_at_cut and match.group is not None:
                forms[match.group.pk] = TieDecisionForm(
                    prefix=f"tie{match.group.pk}", teams=match.tied_teams
                )
    if bound is not None:
        forms[bound[0]] = bound[1]
    return forms


def _next_step(bracket: KnockoutBracket) -> str:
    """What the owner's button does now: "round", "champion" or "" (nothing to do)."""
    current = bracket.current
    if bracket.knockout.champion_id is not None or current is None or not current.decided:
        return ""
    return "champion" if current.is_final else "round"


class KnockoutView(OwnerMixin, TemplateView):
    """The owner's knockout: before it starts its settings and the start button (once every
    match day of the group stage is final); then the rounds, a decision form beside each
    match with a tie at the cut, and the next round (or the champion)."""

    template_name = "teams/organizer/knockout.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # ``bracket``: the one a post built already (it changed nothing), not built again.
        bracket = kwargs["bracket"] if "bracket" in kwargs else knockout_bracket(self.league)
        started = bracket is not None
        context.update(
            bracket=bracket,
            form=kwargs.get("form") or KnockoutForm(),
            tie_forms=_tie_forms(bracket, kwargs.get("tie")),
            group_stage_final=started or group_stage(self.league).final,
            next_step=_next_step(bracket) if bracket else "",
            may_manage=True,
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action = request.POST.get("action")
        if action == "decide":
            return self.decide(request)
        if action == "advance":
            try:
                made = advance_knockout(self.league, actor=_actor(request))
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                if made.knockout.champion is not None:
                    messages.success(
                        request,
                        _("%(team)s is the champion.") % {"team": made.knockout.champion},
                    )
                else:
                    messages.success(request, _("The next round is made."))
            return redirect("teams:knockout", league=self.league.slug)
        return self.start(request)

    def start(self, request: HttpRequest) -> HttpResponse:
        form = KnockoutForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                start_knockout(
                    self.league,
                    KnockoutSettings(
                        match_size=data["match_size"],
                        advance=data["advance"],
                        seeding=data["seeding"],
                        seed=data["seed"],
                    ),
                    actor=_actor(request),
                )
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, _("The knockout has started."))
                return redirect("teams:knockout", league=self.league.slug)
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def decide(self, request: HttpRequest) -> HttpResponse:
        pk = _id(request.POST.get("group"))
        found = Group.objects.filter(pk=pk if pk < MAX_ID else 0, match_day__league=self.league)
        group = found.first()
        bracket = knockout_bracket(self.league)
        match = _match_of(bracket, group)
        if group is None or match is None or not match.tie_at_cut:
            messages.error(request, _("This match has no tie to decide."))
            return redirect("teams:knockout", league=self.league.slug)
        form = TieDecisionForm(request.POST, prefix=f"tie{group.pk}", teams=match.tied_teams)
        if form.is_valid():
            try:
                decide_tie(group, form.order(), actor=_actor(request))
            except ServiceError as exc:
                first = next(iter(form.fields))
                form.add_error(first if exc.field == "order" else None, exc.message)
            else:
                messages.success(request, _("Decision saved."))
                return redirect("teams:knockout", league=self.league.slug)
        return self.render_to_response(
            self.get_context_data(bracket=bracket, tie=(group.pk, form)), status=400
        )


def _match_of(bracket: KnockoutBracket | None, group: Group | None) -> MatchView | None:
    if bracket is None or group is None:
        return None
    for round_ in bracket.made:
        for match in round_.matches:
            if match.group is not None and match.group.pk == group.pk:
                return match
    return None


class BracketView(TemplateView):
    """The public bracket: rounds as columns (stacked on a phone), each match's teams with
    their result, who advances, byes, ties waiting for a decision, the champion."""

    template_name = "teams/bracket.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        league = visible_league(self.request, kwargs["league"])
        context.update(
            league=league,
            bracket=knockout_bracket(league),
            may_manage=can_manage(self.request.user, league),
        )
        return context


class BracketPdfView(BracketView):
    """The public bracket as a PDF (A4 landscape), in the request's language; 404 as the
    bracket page for a private league; before the knockout has started, the bracket page
    that says so."""

    http_method_names = ["get"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        league = visible_league(request, kwargs["league"])
        bracket = knockout_bracket(league)
        if bracket is None:
            return super().get(request, *args, **kwargs)
        pdf = bracket_pdf(league, bracket, timezone.localdate())
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{league.slug}-ko.pdf"'
        response["Cache-Control"] = "private, no-store"
        return response
